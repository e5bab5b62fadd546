// A minimal static file server for build/web on 127.0.0.1, with the MIME types the page
// needs (application/wasm for streaming compilation). Used by scripts/serve and the browser tests.
// Usage: node scripts/static-server.mjs [--no-isolation] DIR [PORT]   (PORT 0 picks a free port)
//
// Every response carries the page's Content-Security-Policy as a header, errors included: the
// policy is read from the <meta http-equiv="Content-Security-Policy"> of DIR/index.html, so
// header and page cannot drift apart, and the header also covers the worker script (a worker
// takes its policy from its own response, not from the page's meta tag). Nothing a client
// sends crashes the server: a malformed URL (/%ZZ) or a NUL byte is 400, a path outside DIR
// 403, a missing file (or a name too long for the file system) 404, a URL over MAX_URL_BYTES
// (2048) 414, any other failure 500. Requests Node's parser refuses before the handler runs
// (a malformed request line: 400, headers over Node's 16 KB: 431, a request that never ends:
// 408) are answered by the clientError handler with the same headers as every other answer
// (SECURITY_HEADERS + the CSP). It is not meant for the open internet.
//
// Compression: .html, .js, .mjs, .css, .wasm, .json, .map and .txt go out brotli- or
// gzip-compressed (Content-Encoding, Vary: Accept-Encoding) when the request's Accept-Encoding
// allows it (br preferred; q=0 refuses), otherwise as they are. Each file is compressed once
// and kept in memory while its size and mtime are unchanged. The wasm stays application/wasm,
// so browsers compile it while it streams in (WebAssembly.instantiateStreaming).
// Cross-origin use (docs/widgets.md): every file is sent with Access-Control-Allow-Origin: * and
// Cross-Origin-Resource-Policy: cross-origin, so an article on another site can load
// embedlab-element.js as a module script and its worker can fetch worker.js, embedlab.js, the
// wasm and the corpora (all CORS requests), also from a page that sets COEP.
// Threads (docs/page.md, "Threads"): every answer also carries Cross-Origin-Opener-Policy:
// same-origin and Cross-Origin-Embedder-Policy: require-corp (ISOLATION_HEADERS), so the page is
// cross-origin isolated, has SharedArrayBuffer, and its engine worker loads the threaded build.
// They change nothing for the widget on another site's page (a subresource's COOP/COEP are
// ignored; the CORP header above is what an isolated article needs) nor for the page in an
// iframe (not isolated there: the single-thread build). serve(dir, port, {isolation: false}), or
// --no-isolation on the command line, leaves them out (tests compare both builds with it).
// Tested in tests/js/static-server.test.mjs.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import crypto from 'node:crypto';
import { fileURLToPath } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.wasm': 'application/wasm', '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8', '.png': 'image/png', '.svg': 'image/svg+xml', '.md': 'text/plain; charset=utf-8',
  '.map': 'application/json',
};

const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.wasm', '.json', '.map', '.txt', '.svg', '.md']);

// Accept-Encoding header -> 'br' | 'gzip' | null (the server's preference among what is allowed).
export function pickEncoding(header) {
  const allowed = new Map();
  for (const part of String(header || '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)).find(Boolean);
    allowed.set(name, q ? Number(q[1]) : 1);
  }
  const ok = (name) => (allowed.has(name) ? allowed.get(name) > 0 : allowed.has('*') && allowed.get('*') > 0);
  if (ok('br')) return 'br';
  if (ok('gzip')) return 'gzip';
  return null;
}

// file -> {size, mtimeMs, br?, gzip?}: compressed bodies, made on first request.
const packed = new Map();
function compressed(file, stat, data, encoding) {
  let entry = packed.get(file);
  if (!entry || entry.size !== stat.size || entry.mtimeMs !== stat.mtimeMs) {
    entry = { size: stat.size, mtimeMs: stat.mtimeMs };
    packed.set(file, entry);
  }
  if (!entry[encoding]) {
    entry[encoding] = encoding === 'br'
      ? zlib.brotliCompressSync(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length } })
      : zlib.gzipSync(data, { level: 9 });
  }
  return entry[encoding];
}

// bytes -> their content version: the first 16 hex digits of their SHA-256. scripts/build-web.mjs
// puts it in the wasm's URL (embedlab.wasm?v=VERSION); this server caches such URLs for a year.
export function contentVersion(bytes) {
  return crypto.createHash('sha256').update(bytes).digest('hex').slice(0, 16);
}

// Caching: a URL whose ?v= is the content version of the file it names (the build's versioned
// wasm URL) may be kept a year without asking again (immutable): a new file is a new URL. Every
// other answer is 'no-cache' (asked again each time), also a ?v= that is not the file's version
// (an old URL after a rebuild), so the old wasm is never served from a cache under the new name
// nor the new one kept under the old name.
export const IMMUTABLE = 'public, max-age=31536000, immutable';
const versions = new Map(); // file -> {size, mtimeMs, version}
function fileVersion(file, stat, data) {
  let entry = versions.get(file);
  if (!entry || entry.size !== stat.size || entry.mtimeMs !== stat.mtimeMs) {
    entry = { size: stat.size, mtimeMs: stat.mtimeMs, version: contentVersion(data) };
    versions.set(file, entry);
  }
  return entry.version;
}

// Used when DIR/index.html has no CSP meta tag: same-origin everything, nothing inline.
export const FALLBACK_CSP = "default-src 'self'; object-src 'none'; base-uri 'none'";

// html text -> the content of its <meta http-equiv="Content-Security-Policy">, or null.
export function metaCsp(html) {
  const m = /<meta\s+http-equiv=["']Content-Security-Policy["']\s+content="([^"]*)"/i.exec(html);
  return m ? m[1] : null;
}

function pageCsp(root) {
  try {
    return metaCsp(fs.readFileSync(path.join(root, 'index.html'), 'utf8')) || FALLBACK_CSP;
  } catch {
    return FALLBACK_CSP;
  }
}

// Longest request target served; longer ones get 414 (browsers' own limits are far higher,
// but no file of the site has a path near this).
export const MAX_URL_BYTES = 2048;

// Headers of every answer, errors included, besides the CSP (read from the page).
const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff', 'cache-control': 'no-cache',
  'access-control-allow-origin': '*', 'cross-origin-resource-policy': 'cross-origin',
};

// Cross-origin isolation (see the header): sent with every answer unless serve(..., {isolation: false}).
export const ISOLATION_HEADERS = {
  'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp',
};

// Node's parser error code -> the status the client gets.
const CLIENT_ERROR_STATUS = { HPE_HEADER_OVERFLOW: 431, HPE_URI_TOO_LONG: 414, ERR_HTTP_REQUEST_TIMEOUT: 408 };
const REASONS = { 400: 'Bad Request', 408: 'Request Timeout', 414: 'URI Too Long', 431: 'Request Header Fields Too Large' };

// req.url -> {status, rel} | {status: 200, file, rel}
function resolve(root, url) {
  const bytes = Buffer.byteLength(url);
  if (bytes > MAX_URL_BYTES) return { status: 414, text: `URI too long: ${bytes} bytes, the limit is ${MAX_URL_BYTES}` };
  let rel;
  try {
    rel = decodeURIComponent(new URL(url, 'http://x').pathname);
  } catch {
    return { status: 400, text: 'bad request: malformed URL' };
  }
  if (rel.includes('\0')) return { status: 400, text: 'bad request: NUL byte in the path' };
  if (rel.endsWith('/')) rel += 'index.html';
  const file = path.join(root, path.normalize(rel));
  if (!file.startsWith(root + path.sep)) return { status: 403, text: 'forbidden' };
  return { status: 200, file, rel, version: new URL(url, 'http://x').searchParams.get('v') };
}

export function serve(root, port = 0, { isolation = true } = {}) {
  root = path.resolve(root);
  const csp = pageCsp(root);
  const always = { 'content-security-policy': csp, ...SECURITY_HEADERS, ...(isolation ? ISOLATION_HEADERS : {}) };
  const send = (res, status, headers, body) => {
    res.writeHead(status, { ...always, ...headers });
    res.end(body);
  };
  const text = (res, status, body, headers = {}) => send(res, status, { 'content-type': 'text/plain; charset=utf-8', ...headers }, body);
  const server = http.createServer((req, res) => {
    try {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        text(res, 405, `method ${req.method} not allowed`, { allow: 'GET, HEAD' });
        return;
      }
      const r = resolve(root, req.url);
      if (r.status !== 200) {
        text(res, r.status, r.text);
        return;
      }
      fs.readFile(r.file, (err, data) => {
        if (err) {
          const missing = ['ENOENT', 'EISDIR', 'ENOTDIR', 'ENAMETOOLONG'].includes(err.code);
          text(res, missing ? 404 : 500, missing ? `not found: ${r.rel}` : 'could not read the file');
          return;
        }
        const ext = path.extname(r.file);
        const headers = { 'content-type': TYPES[ext] || 'application/octet-stream' };
        try {
          if (r.version && r.version === fileVersion(r.file, fs.statSync(r.file), data)) headers['cache-control'] = IMMUTABLE;
        } catch {
          // the file changed under us: no-cache (SECURITY_HEADERS)
        }
        let body = data;
        if (COMPRESSIBLE.has(ext)) {
          headers.vary = 'Accept-Encoding';
          const encoding = data.length > 256 ? pickEncoding(req.headers['accept-encoding']) : null;
          if (encoding) {
            try {
              body = compressed(r.file, fs.statSync(r.file), data, encoding);
              headers['content-encoding'] = encoding;
            } catch {
              body = data; // the file changed under us: send it as read
            }
          }
        }
        headers['content-length'] = body.length;
        send(res, 200, headers, req.method === 'HEAD' ? undefined : body);
      });
    } catch {
      if (!res.headersSent) text(res, 500, 'internal error');
      else res.destroy();
    }
  });
  // subtle: Node answers these itself with a bare 'HTTP/1.1 400 Bad Request' (no headers) unless
  // a clientError listener writes the answer; the socket has no ServerResponse, so write it raw.
  server.on('clientError', (err, socket) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const status = CLIENT_ERROR_STATUS[err.code] || 400;
    const body = `${REASONS[status].toLowerCase()}\n`;
    const headers = { ...always, 'content-type': 'text/plain; charset=utf-8',
      'content-length': Buffer.byteLength(body), connection: 'close' };
    const head = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('');
    socket.end(`HTTP/1.1 ${status} ${REASONS[status]}\r\n${head}\r\n${body}`);
  });
  return new Promise((resolveListen) => server.listen(port, '127.0.0.1', () => resolveListen(server)));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const isolation = !args.includes('--no-isolation');
  const [dir = 'build/web', port = '8000'] = args.filter((a) => a !== '--no-isolation');
  if (!fs.existsSync(path.join(dir, 'index.html'))) {
    console.error(`static-server: ${dir}/index.html not found. HINT: run scripts/build first.`);
    process.exit(2);
  }
  const server = await serve(dir, Number(port), { isolation });
  console.log(`static-server: serving ${dir} on http://127.0.0.1:${server.address().port}/${isolation ? ' (cross-origin isolated: threads)' : ' (not isolated: one thread)'}`);
}
