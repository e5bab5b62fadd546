// The point map's drawing thread (issue 24, "Never block, even without a GPU"): a worker that
// owns the map's canvas (an OffscreenCanvas from transferControlToOffscreen) and draws the scene
// of scatter-scene.js on it, so no frame of the map is drawn, composited or read back on the
// page's main thread. The page (gl-scatter.js) keeps the data for hover, lasso, keys and exports
// and sends what a frame needs; this worker keeps a copy of the points and colours.
//
// Which renderer: WebGL2 (scatter-gl.js) when the worker gets a WebGL2 context on a GPU; the
// CPU rasteriser (rasterise() in scatter-scene.js, on a 2-D context) when it gets none, or when
// the only WebGL2 is a software one (SwiftShader, llvmpipe: Chromium with --disable-gpu, most
// VMs and CI). Software GL is not used because the rasteriser is several times faster there
// (scripts/bench page measures both: docs/benchmarks.md). backend
// 'webgl2' or 'canvas' in init forces one (the browser tests draw with both).
//
// Messages in (postMessage from gl-scatter.js):
//   {type: 'init', canvas: OffscreenCanvas, backend: 'auto' | 'webgl2' | 'canvas'}
//   {type: 'points', points: Float32Array n*2}   {type: 'colours', colours: Uint8Array n*4 | null}
//   {type: 'rows', name: 'matches' | 'selection', rows: Int32Array | null}
//   {type: 'frame', seq, W, H, dpr, view: {target, zoom}, base, background, layers, probe?: [[x, y]...] (CSS px)}
// Messages out:
//   {type: 'ready', backend: 'webgl2' | 'canvas', renderer, reason}
//   {type: 'drawn', seq, ms, discs, probe?: {pixels: [[r, g, b]...], covered}}   once per drawn frame
//   {type: 'error', message}
// Frames are coalesced: the newest one is drawn at the worker's next animation frame, so a
// burst of views (a drag) never queues up behind a slow draw.
import { rasterise } from './scatter-scene.js';
import { GlRenderer } from './scatter-gl.js';

const SOFTWARE_GL = /SwiftShader|llvmpipe|softpipe|Software/i;
let canvas = null;
let gl = null; // GlRenderer
let ctx = null; // 2-D context (the CPU rasteriser's)
let image = null;
let points = new Float32Array(0);
let colours = null;
const rows = {};
let next = null;
let scheduled = false;

// This worker's WebGL2 on a canvas of its own, with the map's shaders compiled (a canvas keeps
// the first kind of context it gave out, so the map's canvas is asked only once the choice is
// made) -> {renderer: string | null, error: string | null}
function probeGl() {
  let g = null;
  try {
    g = new OffscreenCanvas(1, 1).getContext('webgl2');
    if (!g) return { renderer: null, error: null };
    const info = g.getExtension('WEBGL_debug_renderer_info');
    const renderer = String(g.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : g.RENDERER));
    new GlRenderer(g); // throws when a shader does not compile
    return { renderer, error: null };
  } catch (err) {
    return { renderer: null, error: err.message };
  } finally {
    g?.getExtension('WEBGL_lose_context')?.loseContext();
  }
}

function init(msg) {
  canvas = msg.canvas;
  const { renderer, error } = probeGl();
  let reason;
  if (msg.backend === 'canvas') reason = 'asked for the canvas renderer';
  else if (!renderer) reason = error ? `WebGL2 failed in this worker: ${error}` : 'no WebGL2 in this worker';
  else if (SOFTWARE_GL.test(renderer) && msg.backend !== 'webgl2') reason = `software WebGL (${renderer.slice(0, 60)}) is slower than the CPU rasteriser`;
  else {
    const context = canvas.getContext('webgl2', { alpha: false, antialias: false, depth: false, premultipliedAlpha: false, preserveDrawingBuffer: false });
    if (context) {
      gl = new GlRenderer(context);
      postMessage({ type: 'ready', backend: 'webgl2', renderer, reason: msg.backend === 'webgl2' ? 'asked for WebGL2' : 'a GPU' });
      return;
    }
    reason = 'the map canvas gave no WebGL2 context';
  }
  ctx = canvas.getContext('2d', { alpha: false });
  postMessage({ type: 'ready', backend: 'canvas', renderer: renderer || 'none', reason });
}

function draw(f) {
  if (!gl && !ctx) throw new Error('the map canvas gave neither a WebGL2 nor a 2-D context');
  const t0 = performance.now();
  if (canvas.width !== f.W) canvas.width = f.W;
  if (canvas.height !== f.H) canvas.height = f.H;
  const scene = { points, colours, rows, base: f.base, background: f.background, layers: f.layers };
  let discs;
  let probe;
  if (gl) {
    discs = gl.draw(f.W, f.H, f.dpr, f.view, scene);
    if (f.probe) {
      const px = gl.read(0, 0, f.W, f.H);
      probe = probePixels(px, f);
    }
  } else {
    if (!image || image.width !== f.W || image.height !== f.H) image = new ImageData(f.W, f.H);
    discs = rasterise(image.data, f.W, f.H, f.dpr, f.view, scene);
    ctx.putImageData(image, 0, 0);
    if (f.probe) probe = probePixels(image.data, f);
  }
  postMessage({ type: 'drawn', seq: f.seq, ms: performance.now() - t0, discs, ...(probe && { probe }) });
}

// The colours at the probe's CSS pixels, and how many device pixels differ from the background.
function probePixels(px, f) {
  let covered = 0;
  const [r0, g0, b0] = f.background;
  for (let o = 0; o < f.W * f.H * 4; o += 4) if (px[o] !== r0 || px[o + 1] !== g0 || px[o + 2] !== b0) covered++;
  const pixels = f.probe.map(([x, y]) => {
    const o = 4 * (Math.floor(y * f.dpr) * f.W + Math.floor(x * f.dpr));
    return [px[o], px[o + 1], px[o + 2]];
  });
  return { pixels, covered };
}

const frame = typeof requestAnimationFrame === 'function' ? requestAnimationFrame : (fn) => setTimeout(fn, 0);

function drawNext() {
  scheduled = false;
  const f = next;
  next = null;
  if (!f) return;
  try {
    draw(f);
  } catch (err) {
    postMessage({ type: 'error', message: err.message });
  }
}

onmessage = (e) => {
  const msg = e.data;
  try {
    if (msg.type === 'init') init(msg);
    else if (msg.type === 'points') {
      points = msg.points;
      gl?.setPoints(points);
    } else if (msg.type === 'colours') {
      colours = msg.colours;
      gl?.setColours(colours);
    } else if (msg.type === 'rows') {
      rows[msg.name] = msg.rows;
      gl?.setRows(msg.name, msg.rows);
    } else if (msg.type === 'frame') {
      next = msg;
      if (!scheduled) {
        scheduled = true;
        frame(drawNext);
      }
    } else throw new Error(`unknown message type '${msg.type}' (expected init, points, colours, rows or frame)`);
  } catch (err) {
    postMessage({ type: 'error', message: err.message });
  }
};
