// The user's own text in the page link (URL key `txt`): UTF-8 -> raw deflate (fflate, level 9)
// -> base64url without padding. Short texts (a paragraph, a poem) fit in a URL, so a shared
// link reproduces the whole view, data included. A text whose encoding would be longer than
// MAX_LINK_CHARS stays out of the link: the page says so and offers it as a file to download
// (and keeps it in this browser's IndexedDB, key `txtdb`). Works in browsers and in Node
// (tests/js/text-link.test.mjs). No DOM.
//
// subtle: the format is raw deflate (RFC 1951), the same bytes CompressionStream('deflate-raw')
// reads and writes, so links made before fflate (CompressionStream) still open. fflate makes the
// encoding synchronous and identical in every browser (one compressor, not each engine's zlib).
//
//   encodeText('Hello world')         // '80jNyclXKM8vykkBAA' (base64url, no padding)
//   decodeText('80jNyclXKM8vykkBAA')  // 'Hello world'
//   decodeText('!!')                  // throws Error('txt: could not be read (not base64url); ...')
import { deflateSync, inflateSync } from 'fflate';

export const MAX_LINK_CHARS = 8000; // encoded length kept in a link (state.js `txt` max)

function toBase64Url(bytes) {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(s) {
  if (!/^[A-Za-z0-9_-]*$/.test(s)) throw new Error('not base64url');
  if (s.length % 4 === 1) throw new Error('not base64url: cut short');
  const bin = atob(s.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (s.length % 4)) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

// text -> {encoded: base64url string} | {encoded: null, chars}: the length it would have needed.
export function encodeTextInfo(text) {
  const s = toBase64Url(deflateSync(new TextEncoder().encode(text), { level: 9 }));
  return s.length <= MAX_LINK_CHARS ? { encoded: s, chars: s.length } : { encoded: null, chars: s.length };
}

// text -> base64url string, or null when it would be longer than MAX_LINK_CHARS.
export function encodeText(text) {
  return encodeTextInfo(text).encoded;
}

// One sentence for the page when a text is too long for the link.
//   tooLongMessage(12345) -> 'compressed, this text takes 12,345 characters; a link holds at most 8,000'
export function tooLongMessage(chars) {
  return `compressed, this text takes ${chars.toLocaleString('en')} characters; a link holds at most ${MAX_LINK_CHARS.toLocaleString('en')}`;
}

// base64url string -> text; throws Error('txt: could not be read (...); ...') on anything that
// is not one (bad characters, truncated or corrupted deflate data). Invalid UTF-8 is replaced.
export function decodeText(s) {
  try {
    if (s.length > MAX_LINK_CHARS) throw new Error(`longer than ${MAX_LINK_CHARS} characters`);
    const bytes = inflateSync(fromBase64Url(s));
    return new TextDecoder('utf-8', { fatal: false, ignoreBOM: true }).decode(bytes);
  } catch (err) {
    throw new Error(`txt: could not be read (${err.message}); it must be deflated UTF-8 text in base64url, at most ${MAX_LINK_CHARS.toLocaleString('en')} characters`);
  }
}
