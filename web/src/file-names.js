// The name of every file the page downloads, from the page state (state.js) and what is being
// saved, so a file says where it came from: the model, the step and the seed. Pure (no DOM), so
// it is tested in Node (tests/js/file-names.test.mjs). Also the Embedding Projector's
// projector_config.json, which names the files it loads.
//
//   fileName(state, {subject, what, ext, step, kind, table})
//   subject  'train'     embedlab-<model>-step<step>-seed<seed>-<what>.<ext>
//                        (model: next-token-<pos> | word2vec-skipgram | word2vec-cbow)
//            'compare'   embedlab-compare-<cmpCorpus>-<cmpEnc>-steps<cmp>-seed<seed>-<what>.<ext>
//            'positions' embedlab-positions[-<kind>]-T<T>-D<pd>-seed<seed>-<what>.<ext>
//            'table'     embedlab-table-V<V>-D<D>-seed<seed>-<what>.<ext>
//            'bpe'       embedlab-bpe-V<bpeV>-<corpus>-<what>.<ext>
//            'import'    embedlab-<table>-<what>.<ext>  (table: {name, tensor, recognised}: GPT-2's
//                        token table is gpt2-wte, its position table gpt2-wpe, else the file's
//                        name without extension, then the tensor)
//            else        embedlab-<subject>-<what>.<ext>
//   Every part keeps only [A-Za-z0-9._+-] (anything else becomes '-'), so a name is safe on
//   every file system and in a Content-Disposition.
//
//   fileName({...DEFAULTS, model: 'skipgram', seed: 42}, {subject: 'train', step: 1200, what: 'vectors', ext: 'tsv'})
//     -> 'embedlab-word2vec-skipgram-step1200-seed42-vectors.tsv'
//   fileName({...DEFAULTS, T: 128, pd: 64, seed: 42}, {subject: 'positions', kind: 'sinusoidal', what: 'similarity', ext: 'svg'})
//     -> 'embedlab-positions-sinusoidal-T128-D64-seed42-similarity.svg'
//   fileName(state, {subject: 'import', table: {name: 'model.safetensors', recognised: 'gpt2 token table'}, what: 'pca2', ext: 'csv'})
//     -> 'embedlab-gpt2-wte-pca2.csv'

const KNOWN_TABLES = { 'gpt2 token table': 'gpt2-wte', 'gpt2 position table': 'gpt2-wpe' };

// One part of a name: runs of characters outside [A-Za-z0-9._+-] become one '-', no leading or
// trailing '-' or '.'. Example: safePart('my table (v2)') -> 'my-table-v2'.
export function safePart(s) {
  return String(s).replace(/[^A-Za-z0-9._+-]+/g, '-').replace(/^[-.]+|[-.]+$/g, '');
}

function trainModel(state) {
  return state.model === 'next' ? `next-token-${state.pos}` : `word2vec-${state.model}`;
}

function importName(table = {}) {
  if (KNOWN_TABLES[table.recognised]) return KNOWN_TABLES[table.recognised];
  const stem = String(table.name || 'table').replace(/\.[^.]*$/, '');
  return [stem, table.tensor].filter(Boolean).map(safePart).filter(Boolean).join('-') || 'table';
}

function subjectParts(state, { subject, step, kind, table }) {
  switch (subject) {
    case 'train':
      return [trainModel(state), `step${step ?? 0}`, `seed${state.seed}`];
    case 'compare':
      return ['compare', state.cmpCorpus, state.cmpEnc, `steps${state.cmp}`, `seed${state.seed}`];
    case 'positions':
      return ['positions', kind, `T${state.T}`, `D${state.pd}`, `seed${state.seed}`];
    case 'table':
      return ['table', `V${state.V}`, `D${state.D}`, `seed${state.seed}`];
    case 'bpe':
      return ['bpe', `V${state.bpeV}`, state.corpus];
    case 'import':
      return [importName(table)];
    default:
      return [subject || 'page'];
  }
}

export function fileName(state, opts) {
  const parts = ['embedlab', ...subjectParts(state, opts), opts.what].filter((p) => p !== undefined && p !== null && p !== '');
  return `${parts.map(safePart).filter(Boolean).join('-')}.${safePart(opts.ext)}`;
}

// The Embedding Projector's config for one tensor (projector.tensorflow.org, "Publish": the
// files are loaded relative to the config's URL):
//   {"embeddings": [{"tensorName", "tensorShape": [rows, dim], "tensorPath", "metadataPath"?}]}
// metadataPath is left out when the table has no labels. Two-space indent, '\n' at the end.
export function projectorConfig({ tensorName, rows, dim, tensorPath, metadataPath = null }) {
  const e = { tensorName: String(tensorName), tensorShape: [rows, dim], tensorPath: String(tensorPath) };
  if (metadataPath) e.metadataPath = String(metadataPath);
  return `${JSON.stringify({ embeddings: [e] }, null, 2)}\n`;
}
