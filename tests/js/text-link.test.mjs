// The user's text carried in the page link (web/src/text-link.js).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_LINK_CHARS, decodeText, encodeText, encodeTextInfo, tooLongMessage } from '../../web/src/text-link.js';
import { describeIgnored, parseHash } from '../../web/src/state.js';

describe('text-link', () => {
  it('round-trips ASCII, multi-byte UTF-8, emoji, CRLF, a BOM and the empty string', () => {
    const texts = ['Hello world', 'naïve café — 東京 🙂', '', 'a\nb\tc', 'line one\r\nline two\r\n', '👩‍👩‍👧 ❤️ 🇫🇷 🏳️‍🌈', '\uFEFFbom first', 'x\u0000y'];
    for (const t of texts) assert.equal(decodeText(encodeText(t)), t);
  });
  it('gives the documented example and reads links made by CompressionStream(deflate-raw)', async () => {
    assert.equal(encodeText('Hello world'), '80jNyclXKM8vykkBAA');
    const packed = new Response(new Blob([new TextEncoder().encode('naïve 🙂\r\n')]).stream().pipeThrough(new CompressionStream('deflate-raw')));
    const s = Buffer.from(await packed.arrayBuffer()).toString('base64url');
    assert.equal(decodeText(s), 'naïve 🙂\r\n');
  });
  it('uses only URL-safe characters', () => {
    assert.match(encodeText('??>>~~ plus + slash / '.repeat(20)), /^[A-Za-z0-9_-]+$/);
  });
  it('compresses repetitive text and refuses what would make the link too long, saying by how much', () => {
    assert.ok(encodeText('the cat sat on the mat. '.repeat(200)).length < 200);
    let x = 1;
    const noise = Array.from({ length: 20000 }, () => String.fromCharCode(33 + ((x = (x * 48271) % 2147483647) % 90))).join('');
    assert.equal(encodeText(noise), null);
    const info = encodeTextInfo(noise);
    assert.equal(info.encoded, null);
    assert.ok(info.chars > MAX_LINK_CHARS);
    assert.equal(MAX_LINK_CHARS, 8000);
    assert.equal(tooLongMessage(12345), 'compressed, this text takes 12,345 characters; a link holds at most 8,000');
  });
  it('bad input fails with a message naming the key and the limit, never silently', () => {
    const tail = '; it must be deflated UTF-8 text in base64url, at most 8,000 characters';
    assert.throws(() => decodeText('!!'), { message: `txt: could not be read (not base64url)${tail}` });
    assert.throws(() => decodeText('AAAA'), { message: `txt: could not be read (unexpected EOF)${tail}` });
    assert.throws(() => decodeText(encodeText('Hello world').slice(0, 10)), { message: `txt: could not be read (unexpected EOF)${tail}` });
    assert.throws(() => decodeText('A'.repeat(8001)), { message: `txt: could not be read (longer than 8000 characters)${tail}` });
  });
  it('the hash refuses a txt that is not base64url or too long; the page line names the key and the fallback', () => {
    const { state, ignored } = parseHash(`#corpus=custom&txt=${'A'.repeat(8001)}`);
    assert.equal(state.txt, '');
    assert.deepEqual(ignored.map((i) => [i.key, i.reason]), [['txt', 'txt must be base64url text of at most 8000 characters']]);
    assert.equal(describeIgnored(ignored[0]), `ignored txt=${'A'.repeat(40)}… (txt must be base64url text of at most 8000 characters); using the built-in corpus`);
    assert.deepEqual(parseHash('#txt=a%2Bb').ignored.map((i) => i.key), ['txt']);
  });
});

// Where the worker keeps a custom text (text-handler.js keepText/loadStoredText over storage.js),
// with an in-memory store in place of IndexedDB; and the marks chips draw for invisible characters.
describe('custom text: link or this browser\'s storage', async () => {
  const { loadEngine } = await import('./load-engine.mjs');
  const { makeTextPipeline, countText } = await import('../../web/src/handlers/text-handler.js');
  const { textHash } = await import('../../web/src/storage.js');
  const { visibleText } = await import('../../web/src/widgets/chips.js');
  const M = await loadEngine();
  const saved = new Map();
  const store = { putText: async (h, b) => void saved.set(h, b), getText: async (h) => saved.get(h) || null };
  const text = makeTextPipeline(M, async () => 'unused', store).handlers;
  let x = 3;
  const noise = Array.from({ length: 30000 }, () => String.fromCharCode(97 + ((x = (x * 48271) % 2147483647) % 26))).join('');

  it('a short text goes in the link, a long one in the store under the SHA-256 of its bytes', async () => {
    await text.setText({ text: 'Hello world' });
    const short = await text.keepText({});
    assert.deepEqual(Object.keys(short), ['txt']);
    assert.equal(decodeText(short.txt), 'Hello world');
    const r = await text.setText({ bytes: new TextEncoder().encode(noise).buffer, name: 'noise.txt' });
    assert.deepEqual([r.chars, r.bytes, r.name, r.head.length], [30000, 30000, 'noise.txt', 240]);
    const kept = await text.keepText({});
    assert.match(kept.txtdb, /^[0-9a-f]{24}$/);
    assert.ok(kept.linkChars > MAX_LINK_CHARS);
    assert.equal(kept.txtdb, await textHash(new TextEncoder().encode(noise)));
    assert.equal(saved.size, 1);
  });
  it('a stored text comes back; a missing one is a clear error', async () => {
    const [hash] = saved.keys();
    await text.setText({ text: 'something else' });
    const r = await text.loadStoredText({ hash });
    assert.equal(r.chars, 30000);
    const t = await text.tokenize({ corpus: 'custom', enc: 'char', lower: false, bpeV: 300 });
    assert.equal(t.tokens, 30000);
    await assert.rejects(text.loadStoredText({ hash: '0'.repeat(24) }), /^Error: text: the text saved for this link is not in this browser's storage/);
  });
  it('counts code points and whitespace-separated words like [...s].length and s.split(/\\s+/)', () => {
    for (const s of ['', ' a  b\n', 'naïve café 🙂 x', '\u3000x\u00a0y\tz ', 'one']) {
      assert.deepEqual(countText(s), { chars: [...s].length, words: s.split(/\s+/).filter(Boolean).length });
    }
  });
  it('chips show bidi controls and invisible characters as marks', () => {
    assert.equal(visibleText('\u202Eevil'), '⟨RLO⟩evil');
    assert.equal(visibleText('a\u200Db\u200B\u2066c\u2069\u00AD\uFEFF\u061C\u200E\u200F'), 'a⟨ZWJ⟩b⟨ZWSP⟩⟨LRI⟩c⟨PDI⟩⟨SHY⟩⟨BOM⟩⟨ALM⟩⟨LRM⟩⟨RLM⟩');
    assert.equal(visibleText('x\n\t\r\u0001'), 'x↵⇥␍⟨U+0001⟩');
    assert.equal(visibleText('❤️ naïve'), '❤️ naïve'); // a variation selector stays
  });
});
