// The user's text carried in the page link (web/src/text-link.js).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_LINK_CHARS, decodeText, encodeText } from '../../web/src/text-link.js';

describe('text-link', () => {
  it('round-trips ASCII, multi-byte UTF-8 and the empty string', async () => {
    for (const t of ['Hello world', 'naïve café — 東京 🙂', '', 'a\nb\tc']) assert.equal(await decodeText(await encodeText(t)), t);
  });
  it('uses only URL-safe characters', async () => {
    assert.match(await encodeText('??>>~~ plus + slash / '.repeat(20)), /^[A-Za-z0-9_-]+$/);
  });
  it('compresses repetitive text and refuses what would make the link too long', async () => {
    assert.ok((await encodeText('the cat sat on the mat. '.repeat(200))).length < 200);
    let x = 1;
    const noise = Array.from({ length: 20000 }, () => String.fromCharCode(33 + ((x = (x * 48271) % 2147483647) % 90))).join('');
    assert.equal(await encodeText(noise), null);
    assert.equal(MAX_LINK_CHARS, 8000);
  });
  it('bad input fails with a message, never silently', async () => {
    await assert.rejects(decodeText('!!'), /^Error: link text: could not be read \(not base64url\)$/);
    await assert.rejects(decodeText('AAAA'), /^Error: link text: could not be read/);
  });
});
