// scripts/static-server.mjs: answers bad requests instead of crashing, never serves files
// outside its directory, and sends the page's Content-Security-Policy (the one in
// web/index.html's meta tag) on every response, so the worker script is covered too.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import zlib from 'node:zlib';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FALLBACK_CSP, ISOLATION_HEADERS, metaCsp, pickEncoding, serve } from '../../scripts/static-server.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const pageHtml = fs.readFileSync(path.join(repo, 'web', 'index.html'), 'utf8');
const PAGE_CSP = metaCsp(pageHtml);

// raw GET (the path is sent exactly as given, no URL normalisation) -> {status, headers, body}
function get(port, rawPath, method = 'GET', headers = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: rawPath, method, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString('latin1'), raw: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

// A request line no URL class would produce, written to the socket as is.
function rawRequest(port, line) {
  return new Promise((resolve, reject) => {
    const sock = net.connect(port, '127.0.0.1', () => sock.write(`${line}\r\nHost: x\r\nConnection: close\r\n\r\n`));
    let data = '';
    sock.on('data', (c) => (data += c.toString('latin1')));
    sock.on('end', () => resolve(data));
    sock.on('error', reject);
  });
}

describe('static server', () => {
  let tmp;
  let site;
  let server;
  let port;
  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'embedlab-static-'));
    site = path.join(tmp, 'site');
    fs.mkdirSync(path.join(site, 'corpora'), { recursive: true });
    fs.writeFileSync(path.join(site, 'index.html'), pageHtml);
    fs.writeFileSync(path.join(site, 'worker.js'), 'self.onmessage = () => {};\n');
    fs.writeFileSync(path.join(site, 'embedlab.wasm'), Buffer.from([0, 97, 115, 109, 1, 0, 0, 0]));
    fs.writeFileSync(path.join(site, 'app.js'), `// ${'x'.repeat(50)}\n${'console.log(1);\n'.repeat(400)}`);
    fs.writeFileSync(path.join(site, 'big.wasm'), Buffer.concat([Buffer.from([0, 97, 115, 109, 1, 0, 0, 0]), Buffer.alloc(4000, 7)]));
    fs.writeFileSync(path.join(site, 'corpora', 'a b.txt'), 'hello');
    fs.writeFileSync(path.join(tmp, 'secret.txt'), 'TOP-SECRET');
    server = await serve(site, 0);
    port = server.address().port;
  });
  after(async () => {
    await new Promise((r) => server.close(r));
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('reads the policy from the page: web/index.html has a CSP meta tag that allows wasm and workers', () => {
    assert.ok(PAGE_CSP, 'no CSP meta tag in web/index.html');
    assert.match(PAGE_CSP, /script-src 'self' 'wasm-unsafe-eval'/);
    assert.match(PAGE_CSP, /worker-src 'self'/);
    assert.equal(metaCsp('<html><head></head></html>'), null);
  });

  it('serves html, the worker script and wasm with their types and the page CSP header', async () => {
    for (const [p, type] of [['/', 'text/html; charset=utf-8'], ['/index.html', 'text/html; charset=utf-8'],
      ['/worker.js', 'text/javascript; charset=utf-8'], ['/embedlab.wasm', 'application/wasm'], ['/corpora/a%20b.txt', 'text/plain; charset=utf-8']]) {
      const r = await get(port, p);
      assert.equal(r.status, 200, p);
      assert.equal(r.headers['content-type'], type, p);
      assert.equal(r.headers['content-security-policy'], PAGE_CSP, p);
      assert.equal(r.headers['x-content-type-options'], 'nosniff', p);
      // an article on another site loads the element, the worker, the wasm and the corpora through CORS
      assert.equal(r.headers['access-control-allow-origin'], '*', p);
      assert.equal(r.headers['cross-origin-resource-policy'], 'cross-origin', p);
    }
    assert.equal((await get(port, '/corpora/a%20b.txt')).body, 'hello');
  });

  it('answers a malformed URL with 400 and keeps serving', async () => {
    for (const p of ['/%ZZ', '/%', '/index.html%E0%A4%A', '/%C0%AF']) {
      const r = await get(port, p);
      assert.equal(r.status, 400, p);
      assert.equal(r.body, 'bad request: malformed URL', p);
      assert.equal(r.headers['content-security-policy'], PAGE_CSP, p);
    }
    assert.equal((await get(port, '/%00')).status, 400);
    const again = await get(port, '/index.html');
    assert.equal(again.status, 200);
    assert.match(again.body, /<title>embedlab/);
  });

  it('never serves a file outside its directory', async () => {
    const tries = ['/../secret.txt', '/%2e%2e/secret.txt', '/..%2fsecret.txt', '/corpora/..%2f..%2fsecret.txt', '/%2e%2e%2fsecret.txt'];
    for (const p of tries) {
      const r = await get(port, p);
      assert.ok(r.status === 403 || r.status === 404, `${p}: ${r.status}`);
      assert.ok(!r.body.includes('TOP-SECRET'), p);
      assert.equal(r.headers['content-security-policy'], PAGE_CSP, p);
    }
    const raw = await rawRequest(port, 'GET ../secret.txt HTTP/1.1');
    assert.ok(!raw.includes('TOP-SECRET'), raw.slice(0, 80));
    assert.equal((await get(port, '/index.html')).status, 200);
  });

  it('404, 405 and directories carry the CSP header too', async () => {
    const missing = await get(port, '/nope.js');
    assert.equal(missing.status, 404);
    assert.equal(missing.body, 'not found: /nope.js');
    assert.equal(missing.headers['content-security-policy'], PAGE_CSP);
    assert.equal((await get(port, '/corpora')).status, 404);
    const post = await get(port, '/index.html', 'POST');
    assert.equal(post.status, 405);
    assert.equal(post.headers.allow, 'GET, HEAD');
    assert.equal(post.headers['content-security-policy'], PAGE_CSP);
    const head = await get(port, '/worker.js', 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.body, '');
  });

  it('compresses js, wasm, css and html with br or gzip when the request accepts it, keeping type and CSP', async () => {
    const js = fs.readFileSync(path.join(site, 'app.js'));
    const wasm = fs.readFileSync(path.join(site, 'big.wasm'));
    for (const [accept, enc] of [['gzip, deflate, br', 'br'], ['gzip', 'gzip'], ['br;q=0, gzip', 'gzip'], ['*', 'br'], ['identity', undefined], [undefined, undefined]]) {
      const r = await get(port, '/app.js', 'GET', accept === undefined ? {} : { 'accept-encoding': accept });
      assert.equal(r.status, 200, accept);
      assert.equal(r.headers['content-encoding'], enc, accept);
      assert.equal(r.headers['content-type'], 'text/javascript; charset=utf-8', accept);
      assert.equal(r.headers['content-security-policy'], PAGE_CSP, accept);
      assert.equal(r.headers.vary, 'Accept-Encoding', accept);
      assert.equal(Number(r.headers['content-length']), r.raw.length, accept);
      const plain = enc === 'br' ? zlib.brotliDecompressSync(r.raw) : enc === 'gzip' ? zlib.gunzipSync(r.raw) : r.raw;
      assert.deepEqual(plain, js, accept);
      if (enc) assert.ok(r.raw.length < js.length / 4, `${accept}: ${r.raw.length} of ${js.length} bytes`);
    }
    const w = await get(port, '/big.wasm', 'GET', { 'accept-encoding': 'br, gzip' });
    assert.equal(w.headers['content-type'], 'application/wasm');
    assert.equal(w.headers['content-encoding'], 'br');
    assert.deepEqual(zlib.brotliDecompressSync(w.raw), wasm);
    const html = await get(port, '/', 'GET', { 'accept-encoding': 'gzip' });
    assert.equal(html.headers['content-encoding'], 'gzip');
    assert.match(zlib.gunzipSync(html.raw).toString(), /<title>embedlab/);
    // a changed file is compressed again, not served from the old copy
    fs.writeFileSync(path.join(site, 'app.js'), `${'let changed = 2;\n'.repeat(300)}`);
    const again = await get(port, '/app.js', 'GET', { 'accept-encoding': 'br' });
    assert.match(zlib.brotliDecompressSync(again.raw).toString(), /^let changed = 2;/);
    fs.writeFileSync(path.join(site, 'app.js'), js);
    // HEAD: the headers of the compressed answer, no body; tiny files and errors stay plain
    const head = await get(port, '/app.js', 'HEAD', { 'accept-encoding': 'gzip' });
    assert.equal(head.headers['content-encoding'], 'gzip');
    assert.equal(head.body, '');
    assert.equal((await get(port, '/worker.js', 'GET', { 'accept-encoding': 'br' })).headers['content-encoding'], undefined);
    assert.equal((await get(port, '/nope.js', 'GET', { 'accept-encoding': 'br' })).headers['content-encoding'], undefined);
    assert.equal(pickEncoding('gzip;q=0.5, br;q=0'), 'gzip');
    assert.equal(pickEncoding('*;q=0'), null);
    assert.equal(pickEncoding(''), null);
  });

  it('every answer makes the page cross-origin isolated (COOP same-origin, COEP require-corp); {isolation: false} leaves both out', async () => {
    assert.deepEqual(ISOLATION_HEADERS, { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' });
    for (const p of ['/index.html', '/worker.js', '/embedlab.wasm', '/nope']) {
      const r = await get(port, p);
      assert.equal(r.headers['cross-origin-opener-policy'], 'same-origin', p);
      assert.equal(r.headers['cross-origin-embedder-policy'], 'require-corp', p);
    }
    const plain = await serve(site, 0, { isolation: false });
    try {
      for (const p of ['/index.html', '/nope']) {
        const r = await get(plain.address().port, p);
        assert.equal(r.headers['cross-origin-opener-policy'], undefined, p);
        assert.equal(r.headers['cross-origin-embedder-policy'], undefined, p);
        assert.equal(r.headers['cross-origin-resource-policy'], 'cross-origin', p); // the widgets' CORP stays
      }
    } finally {
      await new Promise((res) => plain.close(res));
    }
  });

  it('a directory without a CSP meta tag gets the strict fallback policy', async () => {
    const bare = path.join(tmp, 'bare');
    fs.mkdirSync(bare);
    fs.writeFileSync(path.join(bare, 'index.html'), '<!doctype html><title>x</title>');
    const s = await serve(bare, 0);
    try {
      const r = await get(s.address().port, '/');
      assert.equal(r.headers['content-security-policy'], FALLBACK_CSP);
    } finally {
      await new Promise((res) => s.close(res));
    }
  });
});

// Bytes written to the socket as is (a request Node's own parser refuses before the handler
// runs) -> the raw answer up to the server's close.
function rawBytes(port, text) {
  return new Promise((resolve, reject) => {
    const sock = net.connect(port, '127.0.0.1', () => sock.write(text));
    let data = '';
    sock.on('data', (c) => (data += c.toString('latin1')));
    sock.on('end', () => resolve(data));
    sock.on('error', (e) => (e.code === 'ECONNRESET' ? resolve(data) : reject(e)));
  });
}

// raw answer "HTTP/1.1 431 ...\r\nname: value..." -> {status, headers (lower-case names)}
function parseRaw(raw) {
  const [head] = raw.split('\r\n\r\n');
  const [statusLine, ...lines] = head.split('\r\n');
  const headers = {};
  for (const l of lines) {
    const i = l.indexOf(':');
    if (i > 0) headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), headers };
}

describe('static server: errors of its own carry the same security headers', () => {
  let tmp;
  let server;
  let port;
  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'embedlab-static-err-'));
    fs.writeFileSync(path.join(tmp, 'index.html'), pageHtml);
    server = await serve(tmp, 0);
    port = server.address().port;
  });
  after(async () => {
    await new Promise((r) => server.close(r));
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  // the headers a 200 carries that every answer must carry as well
  const SECURITY = { 'content-security-policy': PAGE_CSP, 'x-content-type-options': 'nosniff',
    'access-control-allow-origin': '*', 'cross-origin-resource-policy': 'cross-origin', 'cache-control': 'no-cache',
    'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' };
  const checkHeaders = (headers, what) => {
    for (const [name, value] of Object.entries(SECURITY)) assert.equal(headers[name], value, `${what}: ${name}`);
  };

  it('a 200 and a 404 carry the security headers', async () => {
    checkHeaders((await get(port, '/index.html')).headers, '200');
    checkHeaders((await get(port, '/nope')).headers, '404');
  });

  it('a malformed request line gets 400 with the headers, and the server keeps serving', async () => {
    const r = parseRaw(await rawBytes(port, 'GET / HTTP/1.1 junk\r\n\r\n'));
    assert.equal(r.status, 400);
    checkHeaders(r.headers, 'malformed request line');
    const bad = parseRaw(await rawBytes(port, 'NOT A REQUEST\r\n\r\n'));
    assert.equal(bad.status, 400);
    checkHeaders(bad.headers, 'garbage');
    assert.equal((await get(port, '/index.html')).status, 200);
  });

  it('huge headers get 431 with the headers', async () => {
    const r = parseRaw(await rawBytes(port, `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`));
    assert.equal(r.status, 431);
    checkHeaders(r.headers, 'huge headers');
    assert.equal((await get(port, '/index.html')).status, 200);
  });

  it('an 8 KB path gets 414 with the headers and a message naming the limit, not 500', async () => {
    const r = await get(port, `/${'a'.repeat(8 * 1024)}`);
    assert.equal(r.status, 414);
    assert.match(r.body, /^URI too long: 8193 bytes, the limit is 2048$/);
    checkHeaders(r.headers, '414');
    // a long name that is still under the limit but over the file system's own limit is 404, not 500
    const name = await get(port, `/${'b'.repeat(1500)}`);
    assert.equal(name.status, 404);
    checkHeaders(name.headers, 'long name');
  });
});
