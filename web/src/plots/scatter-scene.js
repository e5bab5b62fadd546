// The point map's scene, in one place for every way it is drawn: which layers of discs a view
// of the map holds (sceneLayers), and a CPU rasteriser that draws them into RGBA pixels
// (rasterise). The map's worker (scatter-worker.js) draws the scene with WebGL2 (scatter-gl.js)
// or, without a usable GPU, with rasterise; the exported figure (gl-scatter-paint.js) paints
// the same layers on a 2-D context. Pure: no DOM, no worker, no WebGL (tests/js/scatter-scene.test.mjs).
//
// A layer is {rows: 'matches' | 'selection' | null (every row), radius (CSS px), alpha (0..1),
// colour: [r, g, b, a] | null}. colour null: each row in its column colour (colours, n x 4
// RGBA) or, without colours, the theme's base colour, with its own alpha times the layer's.
//
//   const layers = sceneLayers({ radius: 1.5, matches: true, selection: false });
//   rasterise(pixels /* Uint8ClampedArray W*H*4 */, W, H, dpr, view, { points, colours, rows, base, background, layers });
//     view: {target: [x, y], zoom}  (2^zoom CSS px per data unit, y up, the target at the centre)
//     rows: {matches: Int32Array | null, selection: Int32Array | null}
//     -> the number of discs drawn (at least one pixel inside the frame)

// The layers of a view: every row (dimmed when some rows are picked out), the lasso's selection
// over them, then the search matches with an outline (a bigger disc in the outline colour under
// each match). matchLine: the outline's RGBA.
export function sceneLayers({ radius, matches, selection, matchLine }) {
  const dim = matches || selection ? 0.18 : 1;
  const layers = [{ rows: null, radius, alpha: dim, colour: null }];
  if (selection) layers.push({ rows: 'selection', radius: radius + 0.5, alpha: matches ? 0.45 : 0.75, colour: null });
  if (matches) {
    layers.push({ rows: 'matches', radius: radius + 2.5, alpha: 1, colour: matchLine });
    layers.push({ rows: 'matches', radius: radius + 1.5, alpha: 1, colour: null });
  }
  return layers;
}

// Pixel offsets (dx, dy) of a disc of radius r device pixels around a pixel centre: the pixels
// whose centres lie within r, and at least the centre one. Kept per radius.
const discs = new Map();
function disc(r) {
  const key = r;
  let d = discs.get(key);
  if (!d) {
    const R = Math.max(0.5, key);
    const k = Math.ceil(R);
    const out = [];
    for (let dy = -k; dy <= k; dy++) for (let dx = -k; dx <= k; dx++) if (dx * dx + dy * dy <= R * R) out.push(dx, dy);
    d = { offsets: Int32Array.from(out), reach: k };
    discs.set(key, d);
  }
  return d;
}

// Draws the layers over an opaque background into pixels (RGBA, row 0 at the top), each disc
// blended over what is there: out = src a + dst (1 - a), rounded to the nearest
// integer (a Uint8ClampedArray rounds).
export function rasterise(pixels, W, H, dpr, view, { points, colours = null, rows = {}, base, background, layers }) {
  const need = W * H * 4;
  if (pixels.length < need) throw new RangeError(`pixel buffer of ${pixels.length} bytes is smaller than ${W} x ${H} x 4 = ${need}`);
  const bg = ((255 << 24) | (background[2] << 16) | (background[1] << 8) | background[0]) >>> 0;
  new Uint32Array(pixels.buffer, pixels.byteOffset, W * H).fill(bg); // little-endian RGBA
  const n = points.length >> 1;
  const s = 2 ** view.zoom * dpr;
  const [tx, ty] = view.target;
  const cx = W / 2;
  const cy = H / 2;
  let drawn = 0;
  for (const layer of layers) {
    const list = layer.rows ? rows[layer.rows] : null;
    if (layer.rows && !list) continue;
    const count = list ? list.length : n;
    const { offsets, reach } = disc(layer.radius * dpr);
    const m = offsets.length;
    const fixed = layer.colour;
    for (let k = 0; k < count; k++) {
      const i = list ? list[k] : k;
      const px = Math.floor(cx + (points[2 * i] - tx) * s);
      const py = Math.floor(cy - (points[2 * i + 1] - ty) * s);
      if (px < -reach || py < -reach || px >= W + reach || py >= H + reach) continue;
      const c = fixed || colours || base;
      const o4 = fixed || !colours ? 0 : 4 * i;
      const r = c[o4];
      const g = c[o4 + 1];
      const b = c[o4 + 2];
      const a = fixed ? Math.round(layer.alpha * 255) : Math.round(c[o4 + 3] * layer.alpha);
      if (a <= 0) continue;
      const na = 255 - a;
      const inside = px >= reach && py >= reach && px < W - reach && py < H - reach;
      let any = false;
      for (let j = 0; j < m; j += 2) {
        const x = px + offsets[j];
        const y = py + offsets[j + 1];
        if (!inside && (x < 0 || y < 0 || x >= W || y >= H)) continue;
        const o = 4 * (y * W + x);
        pixels[o] = (r * a + pixels[o] * na) / 255;
        pixels[o + 1] = (g * a + pixels[o + 1] * na) / 255;
        pixels[o + 2] = (b * a + pixels[o + 2] * na) / 255;
        any = true;
      }
      if (any) drawn++;
    }
  }
  return drawn;
}
