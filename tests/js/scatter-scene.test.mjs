// The point map's scene (web/src/plots/scatter-scene.js): the layers a view holds and the CPU
// rasteriser the map's worker draws them with when it has no GPU. Checked against a slow
// per-pixel model written here: a pixel takes a disc's colour when its centre is within the
// disc's radius of the disc's pixel centre, blended src a + dst (1 - a), layer after layer.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rasterise, sceneLayers } from '../../web/src/plots/scatter-scene.js';

const BG = [250, 251, 252];
const BASE = [0, 114, 178, 110];
const LINE = [20, 25, 35, 255];

// The model: every pixel of every disc, in floats, rounded after each blend as a byte store does
function model(W, H, dpr, view, { points, colours = null, rows = {}, base, background, layers }) {
  const px = new Float64Array(W * H * 3);
  for (let i = 0; i < W * H; i++) px.set(background, 3 * i);
  const s = 2 ** view.zoom * dpr;
  for (const layer of layers) {
    const list = layer.rows ? rows[layer.rows] : null;
    if (layer.rows && !list) continue;
    const R = Math.max(0.5, layer.radius * dpr);
    for (let k = 0; k < (list ? list.length : points.length / 2); k++) {
      const i = list ? list[k] : k;
      const cx = Math.floor(W / 2 + (points[2 * i] - view.target[0]) * s);
      const cy = Math.floor(H / 2 - (points[2 * i + 1] - view.target[1]) * s);
      const c = layer.colour ? [...layer.colour.slice(0, 3), 255 * layer.alpha] : colours ? [...colours.slice(4 * i, 4 * i + 3), colours[4 * i + 3] * layer.alpha] : [...base.slice(0, 3), base[3] * layer.alpha];
      const a = Math.round(c[3]);
      for (let y = 0; y < H; y++) {
        for (let x = 0; x < W; x++) {
          if ((x - cx) ** 2 + (y - cy) ** 2 > R * R) continue;
          for (let ch = 0; ch < 3; ch++) px[3 * (y * W + x) + ch] = Math.round((c[ch] * a + px[3 * (y * W + x) + ch] * (255 - a)) / 255);
        }
      }
    }
  }
  return px;
}

function draw(W, H, dpr, view, scene) {
  const pixels = new Uint8ClampedArray(W * H * 4);
  const discs = rasterise(pixels, W, H, dpr, view, scene);
  return { pixels, discs };
}

const sameAsModel = (W, H, dpr, view, scene) => {
  const { pixels, discs } = draw(W, H, dpr, view, scene);
  const want = model(W, H, dpr, view, scene);
  for (let i = 0; i < W * H; i++) {
    for (let ch = 0; ch < 3; ch++) assert.equal(pixels[4 * i + ch], want[3 * i + ch], `pixel (${i % W}, ${Math.floor(i / W)}) channel ${ch}`);
    assert.equal(pixels[4 * i + 3], 255, 'opaque');
  }
  return discs;
};

describe('scatter-scene.sceneLayers', () => {
  it('every row, then the selection, then the matches over an outline; dimmed when rows are picked out', () => {
    assert.deepEqual(sceneLayers({ radius: 1.5, matches: false, selection: false, matchLine: LINE }), [{ rows: null, radius: 1.5, alpha: 1, colour: null }]);
    const both = sceneLayers({ radius: 2, matches: true, selection: true, matchLine: LINE });
    assert.deepEqual(both.map((l) => [l.rows, l.radius, l.alpha, l.colour]), [
      [null, 2, 0.18, null], ['selection', 2.5, 0.45, null], ['matches', 4.5, 1, LINE], ['matches', 3.5, 1, null]]);
    assert.equal(sceneLayers({ radius: 2, matches: false, selection: true, matchLine: LINE })[1].alpha, 0.75);
  });
});

describe('scatter-scene.rasterise', () => {
  const points = Float32Array.from([0, 0, 1, 0.5, -1.2, -0.4, 3, 3, 10, -10, 0.05, 0.02]);
  const view = { target: [0.2, 0.1], zoom: 3 };

  it('draws discs blended over the background as the per-pixel model does, at dpr 1 and 2', () => {
    const scene = { points, base: BASE, background: BG, layers: sceneLayers({ radius: 1.5, matches: false, selection: false, matchLine: LINE }) };
    assert.equal(sameAsModel(40, 30, 1, view, scene), 4); // (3, 3) and (10, -10) are outside the frame
    assert.equal(sameAsModel(40, 30, 2, view, { ...scene, layers: sceneLayers({ radius: 2.25, matches: false, selection: false, matchLine: LINE }) }), 4);
  });

  it('per-row colours, the selection and the matches with their outline, in layer order', () => {
    const colours = new Uint8Array(4 * 6).map((_, k) => (k % 4 === 3 ? 200 : (37 * k) % 256));
    const rows = { matches: Int32Array.from([1, 5]), selection: [2, 0] };
    const scene = { points, colours, rows, base: BASE, background: BG, layers: sceneLayers({ radius: 1.5, matches: true, selection: true, matchLine: LINE }) };
    const discs = sameAsModel(48, 32, 1, view, scene);
    assert.equal(discs, 4 + 2 + 2 + 2);
    // the last layer wins at a match's centre: the row's own colour at full layer alpha over the outline
    const { pixels } = draw(48, 32, 1, view, scene);
    const cx = Math.floor(24 + (points[2] - 0.2) * 8);
    const cy = Math.floor(16 - (points[3] - 0.1) * 8);
    const o = 4 * (cy * 48 + cx);
    assert.notDeepEqual([...pixels.slice(o, o + 3)], BG);
  });

  it('clips discs at the frame\'s edges and skips layers whose rows are not given', () => {
    const edge = Float32Array.from([-2.5, 0, 2.5, 0, 0, 1.9]); // centres on and just beyond the borders
    const scene = { points: edge, rows: {}, base: BASE, background: BG, layers: [{ rows: null, radius: 3, alpha: 1, colour: null }, { rows: 'matches', radius: 5, alpha: 1, colour: LINE }] };
    assert.equal(sameAsModel(20, 16, 1, { target: [0, 0], zoom: 2 }, scene), 3);
  });

  it('a pixel buffer too small for W x H is refused with both sizes named', () => {
    assert.throws(() => rasterise(new Uint8ClampedArray(10), 4, 4, 1, view, { points, base: BASE, background: BG, layers: [] }),
      /pixel buffer of 10 bytes is smaller than 4 x 4 x 4 = 64/);
  });
});
