// The user's own text in the page link: UTF-8 -> deflate-raw (CompressionStream) -> base64url.
// Short texts (a paragraph, a poem) fit in a URL, so a shared link reproduces the whole view,
// data included; longer texts are kept out of the link (the page says so). Works in browsers
// and in Node >= 18 (tests/js/text-link.test.mjs). No DOM.
//
//   const s = await encodeText('Hello world');   // '80jNycnXUSjPL8pJAQA' (base64url, no padding)
//   await decodeText(s)                           // 'Hello world'
//   await decodeText('!!')                        // throws Error('link text: ...')

export const MAX_LINK_CHARS = 8000; // encoded length kept in a link

async function pipe(bytes, stream) {
  const out = new Response(new Blob([bytes]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}

function toBase64Url(bytes) {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(s) {
  if (!/^[A-Za-z0-9_-]*$/.test(s)) throw new Error('link text: not base64url');
  const bin = atob(s.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (s.length % 4)) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

// text -> base64url string, or null when it would be longer than MAX_LINK_CHARS.
export async function encodeText(text) {
  const packed = await pipe(new TextEncoder().encode(text), new CompressionStream('deflate-raw'));
  const s = toBase64Url(packed);
  return s.length <= MAX_LINK_CHARS ? s : null;
}

// base64url string -> text; throws Error('link text: ...') on anything that is not one.
export async function decodeText(s) {
  try {
    const bytes = await pipe(fromBase64Url(s), new DecompressionStream('deflate-raw'));
    return new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  } catch (err) {
    throw new Error(`link text: could not be read (${err.message.replace(/^link text: /, '')})`);
  }
}
