// What a training reply shows of a run (train-handler.js): the fingerprint of the input table,
// the table grid the heatmap draws, the learned position similarity and the PCA map (refitted,
// or on frozen axes). Runs inside the worker only; the handlers, the steps and the registry maps
// are train-handler.js's.
//
// Lean frames (issue 24): the page says which plots are on screen (`show`, FRAME_PARTS) and a
// part it does not show is neither computed nor copied. Per reply the input table is copied out
// of wasm once (Trainer.table copies the whole table) and that copy is shared by the checksum,
// the grid and the map; the position table is copied only when its similarity is shown, and the
// similarity is computed on the drawn positions only (at most POSITIONS_SIDE of T, k x k work:
// positions-handler.js sampledSimilarity), with the engine's numbers for every drawn entry.
//
//   const frames = makeTrainFrame(M);
//   const parts = frameParts(['table', 'map']);        // Set; undefined: every part
//   const t = run.tr.table('input');                    // the reply's one copy
//   {checksum: frames.checksum(t), table: frames.tableGrid(t), map: frames.pcaMap(run, t)}
//   frames.positions(run)                               // grid (k, k) | null
//   frames.wholeFrame(run)                              // every part (trainStart, trainReset)
// run: train-handler.js's record of a slot ({tr, model, pos, components, frozen, explained, lastMap}).
import { fnv1a, strideSample } from '../arrays.js';
import { sampledSimilarity } from './positions-handler.js';

export const MAX_TABLE_ROWS = 400; // rows of the table grid (train-handler.js labels them)
const MAX_TABLE_COLS = 128;
export const POSITIONS_SIDE = 256; // the learned position similarity: drawn on at most 256 x 256 positions
// The parts of a run a reply can carry, each drawn by one plot of the page: the table grid,
// the learned position similarity and the map (trainStep / trainFrame {show}).
export const FRAME_PARTS = ['table', 'positions', 'map'];

// show (FRAME_PARTS names; undefined: all of them) -> Set of the parts a reply carries
//   frameParts(['map']) -> Set {'map'};  frameParts(['loss']) throws naming 'loss' and the parts
export function frameParts(show) {
  if (show === undefined || show === null) return new Set(FRAME_PARTS);
  if (!Array.isArray(show)) throw new Error(`train: show must be a list of ${FRAME_PARTS.join(', ')}, got ${JSON.stringify(show)}`);
  for (const part of show) {
    if (!FRAME_PARTS.includes(part)) throw new Error(`train: show names ${JSON.stringify(part)}, expected some of ${FRAME_PARTS.join(', ')}`);
  }
  return new Set(show);
}

export function makeTrainFrame(M) {
  const kinds = M.positionalKinds(); // fixed for the module's life

  // FNV-1a of every float32 of the input table t (arrays.js fnv1a): the run's fingerprint, the
  // same in a page opened from a link that replays the same settings to the same step.
  const checksum = (t) => fnv1a(t.data);

  // t (rows, D) -> the heatmap's grid: at most MAX_TABLE_ROWS x MAX_TABLE_COLS sampled cells
  const tableGrid = (t) => strideSample(t.data, t.rows, t.cols, MAX_TABLE_ROWS, MAX_TABLE_COLS);

  // The learned position x position cosine similarity as drawn: grid (k, k) of the k =
  // min(T, POSITIONS_SIDE) sampled positions, strideSample of the full (T, T) matrix bit for bit.
  // null without a trained additive position table.
  function positions(run) {
    if (run.model !== 'next') return null;
    const kind = kinds.find((k) => k.name === run.pos);
    if (!kind || !kind.trainable || kind.provides !== 'additive') return null; // a trained (T, D) table only
    const t = run.tr.table('position');
    return sampledSimilarity(M, t.data, t.rows, t.cols, POSITIONS_SIDE, true, ['ctx']);
  }

  // 2-D PCA of the input table t (engine M.pca); component signs follow the previous frame so
  // the picture does not flip between updates. With frozen axes (freeze) the table is
  // projected on the basis and mean saved when freezing, so points move only because their
  // vectors do (their trails are then meaningful). null when the table is too narrow.
  function pcaMap(run, t) {
    if (t.cols < 2 || t.rows < 3) return null;
    run.lastMap = performance.now();
    if (run.frozen) return { ...project(t, run.frozen), frozen: true };
    const p = M.pca(t.data, t.rows, t.cols, run.components ? { k: 2, previous: run.components } : { k: 2 });
    run.components = p.components;
    run.explained = Array.from(p.explained);
    return { points: p.points, explained: run.explained, frozen: false };
  }

  // t (rows, D) -> {points (rows*2) = (x - mean) . c_k, explained} on a saved basis.
  function project(t, basis) {
    const D = t.cols;
    const points = new Float32Array(t.rows * 2);
    for (let r = 0; r < t.rows; r++) {
      for (let k = 0; k < 2; k++) {
        let s = 0;
        for (let c = 0; c < D; c++) s += (t.data[r * D + c] - basis.mean[c]) * basis.components[k * D + c];
        points[r * 2 + k] = s;
      }
    }
    return { points, explained: basis.explained };
  }

  // on -> map: freeze the current PCA axes (and the table mean) or go back to refitting.
  function freeze(run, on) {
    const t = run.tr.table('input');
    if (!on) {
      run.frozen = null;
      return pcaMap(run, t);
    }
    if (t.cols < 2 || t.rows < 3) return null;
    const p = M.pca(t.data, t.rows, t.cols, run.components ? { k: 2, previous: run.components } : { k: 2 });
    const mean = new Float64Array(t.cols);
    for (let r = 0; r < t.rows; r++) for (let c = 0; c < t.cols; c++) mean[c] += t.data[r * t.cols + c] / t.rows;
    run.components = p.components;
    run.frozen = { mean, components: p.components, explained: Array.from(p.explained) };
    return pcaMap(run, t);
  }

  // Every part of the run as it is now, from one copy of the input table (trainStart, trainReset).
  function wholeFrame(run) {
    const t = run.tr.table('input');
    return { table: tableGrid(t), checksum: checksum(t), positions: positions(run), map: pcaMap(run, t) };
  }

  return { checksum, tableGrid, positions, pcaMap, freeze, wholeFrame };
}
