// What the worker's next-token runs (train-handler.js, compare-handler.js) build their trainer
// from: the ids remapped to the rows that occur (the positional parameters of a payload:
// state.js positionParams).
//
//   remap([5, 9, 5]) -> {ids: [0, 1, 0], rowIds: Int32Array [5, 9]}   (rows in id order)

// Next-token on GPT-2 ids: only the ids that occur get rows (remapped to 0..R-1 in id order),
// so the output layer is R wide instead of 50,257 (1,416 rows for the-verdict).
export function remap(ids) {
  let max = 0;
  for (const id of ids) if (id > max) max = id;
  const dense = new Int32Array(max + 1).fill(-1);
  for (const id of ids) dense[id] = 0;
  const rowIds = [];
  for (let id = 0; id <= max; id++) if (dense[id] === 0) dense[id] = rowIds.push(id) - 1;
  return { ids: ids.map((id) => dense[id]), rowIds: Int32Array.from(rowIds) };
}
