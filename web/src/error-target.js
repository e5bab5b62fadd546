// Which control should show an engine error? Pure; tested in tests/js/protocol.test.mjs.
//
// failedField(err, keys, lastChanged): the worker names the fields a failure concerns
// (err.fields, from the request arguments it blamed, protocol.js); errorTarget picks among
// those that belong to the view (keys), else among all the view's keys:
//   failedField({message: 'positions: similarity matrix 65536 x 65536 float32 need 16.0 GiB; ...', fields: ['T']},
//               ['seed', 'T', 'pd', 'sim'], null) -> 'T'   (a value from the link, nothing changed yet)
//
// errorTarget(message, candidates, lastChanged) -> one key of `candidates`:
//   1. a key whose pattern matches the message ("padding_idx 9 out of range" -> 'pad'),
//   2. else the control the user changed last, if it fed this request,
//   3. else the first candidate.
//   errorTarget('Embedding: embeddingDim 0 must be an integer in [1, 2147483647]', ['seed', 'V', 'D'], 'seed') -> 'D'
//   errorTarget('Embedding: a table of 2000000000 x 1000 values needs ...', ['V', 'D'], 'D') -> 'D'

// key -> pattern naming it in engine messages (src/embed/*.cpp, src/bindings/*).
const PATTERNS = [
  ['pad', /padding_idx|paddingIdx/],
  ['maxn', /max_norm|maxNorm/],
  ['tok', /token id/],
  ['seed', /\bseed\b/],
  ['V', /numEmbeddings|num_embeddings/],
  ['D', /embeddingDim|embedding_dim/],
  ['T', /context_length|\bpositions? -?\d/],
  ['pd', /\bdim\b/],
  ['L', /max_length|maxLength/],
  ['stride', /\bstride\b/],
  ['B', /batch_size|batchSize/],
  ['bpeV', /vocab_size|vocabSize/],
  ['corpus', /^text:|corpus/],
  ['lr', /learning rate/],
  ['alpha', /alpha/],
  ['tD', /dimension|vector_size|vectorSize/],
  ['ctx', /context/],
  ['minc', /min_count|minCount/],
];

export function errorTarget(message, candidates, lastChanged) {
  const text = String(message);
  for (const [key, re] of PATTERNS) {
    if (candidates.includes(key) && re.test(text)) return key;
  }
  if (lastChanged && candidates.includes(lastChanged)) return lastChanged;
  return candidates[0];
}

export function failedField(err, keys, lastChanged) {
  const named = ((err && err.fields) || []).filter((f) => keys.includes(f));
  return errorTarget(err && err.message, named.length ? named : keys, lastChanged);
}
