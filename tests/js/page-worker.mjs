// The page worker's text and training handlers on a wasm module, in Node, for tests that drive
// a run as the page does: a dispatcher, an in-memory autosave store (records: key -> record,
// what IndexedDB would hold), and call(type, payload), which resolves with the reply's result
// and fails the test with the engine's message otherwise.
//
//   const w = pageWorker(M);
//   await w.call('setText', { text });  const start = await w.call('trainStart', {...});
//   w.records.get('train').state        // the autosaved checkpoint bytes
import assert from 'node:assert/strict';
import { makeDispatcher } from '../../web/src/protocol.js';
import { makeTextPipeline } from '../../web/src/handlers/text-handler.js';
import { makeTrainHandlers } from '../../web/src/handlers/train-handler.js';

export function pageWorker(M) {
  const records = new Map();
  const store = { getRecord: async (k) => records.get(k) ?? null, putRecord: async (k, v) => { records.set(k, v); } };
  const text = makeTextPipeline(M, async () => { throw new Error('no corpora in this test'); });
  const dispatch = makeDispatcher({ ...text.handlers, ...makeTrainHandlers(M, text.ensureTokens, store) });
  let id = 1;
  const call = async (type, payload) => {
    const r = await dispatch({ id: id++, type, payload });
    assert.equal(r.ok, true, r.message);
    return r.result;
  };
  return { records, call, dispatch };
}
