// Types of the embedlab wasm module's public JS API (src/bindings/api/*.post.js), written by hand:
// Emscripten 3.1.6 has no --embind-emit-tsd. Only the public API is declared; the raw embind
// bindings (M._Embedding, M._pca, M._api, ...) are private and left out on purpose.
//
// Intended usage:
//   import { createEmbedlab } from 'embedlab';        // the package (build/web/package.json)
//   const M = await createEmbedlab();
//   M.manualSeed(123);
//   const emb = new M.Embedding(4, 5);
//   emb.forward([2, 3, 1]);                          // Float32Array (3 * 5)
//   emb.delete();
//
// Shape letters as in the C++ headers: V vocab, D width, T positions, H heads, n rows asked for.
// Every failure is a plain JS Error whose message is the engine's, e.g.
// "lookup: token id 10 out of range [0, 10)" (see EmbedlabError).

/** Options of the Emscripten module factory (a subset; all optional). */
export interface EmbedlabOptions {
  /** The .wasm bytes, when the module cannot fetch embedlab.wasm itself (Node, custom hosting). */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /** Where to find a file the module asks for ('embedlab.wasm', 'embedlab-mt.worker.js'), given the script's directory. */
  locateFile?: (path: string, scriptDirectory: string) => string;
  print?: (text: string) => void;
  printErr?: (text: string) => void;
}

/** Every API failure: a plain Error carrying the engine's message ("where: what, value, expected"). */
export type EmbedlabError = Error;

/** Token ids: a typed or plain array of integers, or a [B][T] nested array (flattened row-major). */
export type Ids = Int32Array | ArrayLike<number> | ReadonlyArray<ArrayLike<number>>;
/** Numbers handed to the engine (copied to a Float32Array unless already one). */
export type Floats = Float32Array | ArrayLike<number>;
/** A file's bytes. */
export type Bytes = Uint8Array | ArrayBuffer | ArrayBufferView;

// ---- embedding tables and linear layers --------------------------------------------------------

export interface EmbeddingOptions {
  /** Row that stays zero and gets no gradient; negative counts from the end (torch); null: none. */
  paddingIdx?: number | null;
  /** Renormalise looked-up rows to at most this L2 norm (0: off). */
  maxNorm?: number;
  /** Multiply looked-up rows by √D (the Transformer's Embeddings module). */
  scale?: boolean;
}
export interface PretrainedOptions extends EmbeddingOptions {
  /** true (default): backward gives no update (torch's freeze). */
  freeze?: boolean;
}
export interface SparseGradient {
  /** The distinct ids, ascending. */
  rows: Int32Array;
  /** (rows.length * D): repeated ids summed. */
  values: Float32Array;
}

/** torch.nn.Embedding(V, D) drawn from the module's generator (manualSeed). */
export declare class Embedding {
  constructor(numEmbeddings: number, embeddingDim: number, opts?: EmbeddingOptions);
  /** weights (V * D) row-major. */
  static fromPretrained(weights: Floats, numEmbeddings: number, embeddingDim: number, opts?: PretrainedOptions): Embedding;
  readonly numEmbeddings: number;
  readonly embeddingDim: number;
  readonly paddingIdx: number | null;
  /** √D with scale, else 1. */
  readonly scaleFactor: number;
  /** A copy of the table, (V * D). */
  weight(): Float32Array;
  /** ids (n) -> (n * D); an id outside [0, V) throws "lookup: token id 10 out of range [0, 10)". */
  forward(ids: Ids): Float32Array;
  /** ids (n), positions (T * D) -> (n * D) = W[ids] * scale + positions[i % T]. */
  forwardWithPositions(ids: Ids, positions: Floats, T: number): Float32Array;
  /** The same lookup computed as one_hot(ids, V) @ W: the same bits as forward. */
  oneHotForward(ids: Ids): Float32Array;
  /** Gradient of sum(forward(ids) * dout), dout (n * D), w.r.t. the table. */
  backward(ids: Ids, dout: Floats): SparseGradient;
  backward(ids: Ids, dout: Floats, opts: { sparse: true }): SparseGradient;
  /** {sparse: false} -> dense (V * D). */
  backward(ids: Ids, dout: Floats, opts: { sparse: false }): Float32Array;
  backward(ids: Ids, dout: Floats, opts?: { sparse?: boolean }): SparseGradient | Float32Array;
  /** Frees the C++ table; later calls throw "...: this Embedding was deleted". */
  delete(): void;
}

/** torch.nn.Linear(in, out, bias=False) drawn from the module's generator. */
export declare class Linear {
  constructor(inFeatures: number, outFeatures: number);
  readonly inFeatures: number;
  readonly outFeatures: number;
  /** (out * in), row-major like torch's weight. */
  weight(): Float32Array;
  /** x (n * in) -> (n * out). */
  forward(x: Floats, n: number): Float32Array;
  delete(): void;
}

// ---- positional encodings ------------------------------------------------------------------------

export interface PositionalParam {
  name: string;
  default: number;
  min: number;
  max: number;
  integer: boolean;
  help: string;
  /** The flat option name of Trainer.nextToken (e.g. 'ropeBase'). */
  option: string;
}
/** One entry of the engine's registry of positional-encoding kinds (src/embed/positions/registry.hpp). */
export interface PositionalKind {
  /** 'none' | 'sinusoidal' | 'learned' | 'rope' | 'alibi' | 't5' (today); the URL value too. */
  name: string;
  label: string;
  description: string;
  provides: 'none' | 'additive' | 'rotation' | 'bias';
  trainable: boolean;
  evenDim: boolean;
  /** Runs on windows longer than the trained T. */
  extrapolates: boolean;
  params: PositionalParam[];
}
export interface PositionTableOptions {
  positions: number;
  dim?: number;
  heads?: number;
  /** Draw learned tables from this seed; undefined: from the module's generator. */
  seed?: number;
  params?: Record<string, number>;
}
/** M.ropeApply's kind: a rotation kind of the registry (provides 'rotation') and its parameters. */
export interface RopeApplyOptions {
  kind: string;
  params?: Record<string, number>;
}
export interface PositionTable {
  /** [T, D], or [H, T, T] for bias kinds. */
  shape: number[];
  data: Float32Array;
  /** Rotation kinds: each pair's effective frequency (D/2; 0 = not rotated). */
  invFreq?: Float64Array;
  /** Rotation kinds: the factor on the attention logits q.k (1 except rope-yarn). */
  attentionScale?: number;
}

// ---- text: tokenizers, windows, BPE training -------------------------------------------------------

export type CorpusKind = 'whitespace' | 'word' | 'char';
export type TokenizerKind = 'gpt2' | CorpusKind | 'bpe';
export type Text = string | Uint8Array;
export interface CorpusOptions {
  lowercase?: boolean;
  minCount?: number;
  /** 0: no limit. */
  maxSize?: number;
}
export interface MakeOptions extends CorpusOptions {
  /** 'bpe': train on the corpus to this many ids. */
  vocabSize?: number;
  /** 'bpe': a merge file's text (BpeTrainer.save()). */
  merges?: Text;
}
export interface Sentences {
  /** Every sentence's ids concatenated, (n). */
  ids: Int32Array;
  /** S+1 offsets [0, ..., n]. */
  sentenceStarts: Float64Array;
}

export declare class Tokenizer {
  private constructor();
  /** GPT-2 byte-level BPE, the same ids as tiktoken's gpt2 encoding (50257 ids). */
  static gpt2(): Tokenizer;
  static fromCorpus(kind: CorpusKind, corpus: Text, opts?: CorpusOptions): Tokenizer;
  static fromBpe(mergeFile: Text): Tokenizer;
  /** Any kind through the engine's one factory (the CLI's --encoding). */
  static make(kind: TokenizerKind, corpus?: Text | null, opts?: MakeOptions): Tokenizer;
  readonly kind: string;
  readonly vocabSize: number;
  /** {allowSpecial: true} maps '<|endoftext|>' to 50256 (gpt2). */
  encode(text: Text, opts?: { allowSpecial?: boolean }): Int32Array;
  /** Invalid UTF-8 becomes U+FFFD, never an error. */
  decode(ids: Ids): string;
  tokenBytes(id: number): Uint8Array;
  tokenString(id: number): string;
  tokenStrings(ids: Ids): string[];
  sentences(text: Text): Sentences;
  /** (vocabSize) corpus counts for word/char vocabularies; null for BPE kinds. */
  counts(): Float64Array | null;
  delete(): void;
}

export interface BpeMerge {
  left: number;
  right: number;
  id: number;
  /** Occurrences of the pair when merged. */
  count: number;
  token: string;
  /** The training text's token count after this merge. */
  tokens: number;
}
export declare class BpeTrainer {
  /** vocabSize >= 256. */
  constructor(corpus: Text, vocabSize: number);
  /** Up to n merges (default 1); [] when done. */
  step(n?: number): BpeMerge[];
  readonly done: boolean;
  readonly vocabSize: number;
  readonly tokenCount: number;
  /** The merge file's text (src/tokenizer/bpe.hpp). */
  save(): string;
  tokenizer(): Tokenizer;
  delete(): void;
}

export interface WindowOptions {
  maxLength?: number;
  stride?: number;
  batchSize?: number;
  shuffle?: boolean;
  seed?: number;
  dropLast?: boolean;
}
export interface WindowBatch {
  rows: number;
  /** (rows * maxLength). */
  inputs: Int32Array;
  /** inputs shifted by one. */
  targets: Int32Array;
}
export interface WindowSamples extends WindowBatch {
  starts: Int32Array;
}
/** LLMs-from-scratch's create_dataloader_v1 over ids. */
export interface SlidingWindows {
  numSamples: number;
  numBatches: number;
  inputTokens: number;
  /** Sample starts in batch order. */
  starts: Int32Array;
  maxLength: number;
  batchSize: number;
  batch(b: number): WindowBatch;
  /** Samples first..first+count-1, each cut to its first maxIds ids. */
  samples(first: number, count: number, maxIds?: number): WindowSamples;
}

// ---- training ----------------------------------------------------------------------------------------

/** gensim's Word2Vec parameters, camelCased. */
export interface Word2VecOptions {
  sg?: boolean;
  vectorSize?: number;
  window?: number;
  negative?: number;
  minCount?: number;
  sample?: number;
  alpha?: number;
  minAlpha?: number;
  epochs?: number;
  cbowMean?: boolean;
  batchWords?: number;
  seed?: number;
  /** Per-id corpus counts (Tokenizer.counts()). */
  counts?: ArrayLike<number> | null;
}
export interface NextTokenOptions {
  vocabSize: number;
  vectorSize?: number;
  context?: number;
  batchSize?: number;
  stride?: number;
  /** A name of M.positionalKinds(). */
  pos?: string;
  posParams?: Record<string, number>;
  scale?: boolean;
  tie?: boolean;
  optimizer?: 'sgd' | 'adam' | 'adamw';
  lr?: number;
  weightDecay?: number;
  seed?: number;
  /** The run's tokenizer: saveState() then carries it, for M.generate and `embedlab generate`. */
  tokenizer?: Tokenizer;
  /** With tokenizer: the token id of each row, ascending (rows = the ids that occur); default row = id. */
  rowIds?: Ids;
  /** Flat positional options (PositionalParam.option), e.g. ropeBase. */
  [flatPositionOption: string]: unknown;
}
export interface GenerateOptions {
  /** The text to continue (at least one token). */
  prompt: string;
  /** New tokens, 0..4096 (default 100). */
  tokens?: number;
  /** Finite, >= 0 (default 1); 0 takes the most likely token. */
  temperature?: number;
  seed?: number;
}
export interface Generated {
  /** The continuation of the prompt (prompt + text reads as one passage). */
  text: string;
  /** The generated token ids (not the prompt's). */
  ids: Int32Array;
}
/** M.nextTokenRows: the token ids remapped to the rows of the output layer. */
export interface NextTokenRows {
  /** (n) the model rows of the ids. */
  ids: Int32Array;
  /** (R) row -> token id. */
  rowIds: Int32Array;
  /** false when row r is id r. */
  remapped: boolean;
}
export interface StepStats {
  /** Mean loss of these steps; null when no word was trained on. */
  loss: number | null;
  lastLoss: number;
  steps: number;
  totalSteps: number;
  tokens: number;
  rawTokens: number;
  elapsedMs: number;
  tokensPerSecond: number;
  rawTokensPerSecond: number;
  learningRate: number;
  finished: boolean;
}
export interface TrainedTable {
  rows: number;
  cols: number;
  data: Float32Array;
}
export interface EvaluateAt {
  loss: number;
  length: number;
  at: number;
  /** (length): the attention weights of position `at` in the first window. */
  attention: Float32Array;
}
export interface TrainerPhase {
  context: number;
  finetune: null | { context: number; step: number };
}
export declare class Trainer {
  private constructor();
  /** ids: all sentences' ids concatenated; sentenceStarts: S+1 offsets. */
  static word2vec(ids: Ids, sentenceStarts: ArrayLike<number>, opts?: Word2VecOptions): Trainer;
  static nextToken(ids: Ids, opts: NextTokenOptions): Trainer;
  /** The settings in effect, defaults filled in. */
  readonly settings: Record<string, unknown> & { model: string };
  /** n steps (default 1); a non-finite loss throws "train: loss became nan at step 37 with learning rate 10; ...". */
  step(n?: number): StepStats;
  /** Steps taken since the start (or reset) of the run, a loaded checkpoint's included. */
  stepsDone(): number;
  /** The whole run (parameters, optimizer state, batch position, generator) as checkpoint bytes: the CLI's `--save-state` file. */
  saveState(): Uint8Array;
  /**
   * Continues from saveState() bytes of a trainer made with the same settings and ids: later steps give the saved run's
   * tables bit for bit. Returns the step. Other settings, another text or damaged bytes throw, naming the difference
   * ("checkpoint: saved with lr=0.01, this run has lr=0.001"), and leave the trainer as it was.
   */
  loadState(bytes: Uint8Array): number;
  reset(): void;
  table(name?: 'input' | 'output' | 'position'): TrainedTable;
  /** word2vec: the token id of each row; next-token: null (row = id). */
  vocabIds(): Int32Array | null;
  /** next-token: mean loss over the windows of ids. */
  evaluate(ids: Ids): number;
  evaluateAt(ids: Ids, opts: { length: number; at?: number }): EvaluateAt;
  /**
   * next-token: continue the run at a longer context (parameters, optimizer state and batch stream carry on).
   * Throws for a context <= the training context, learned positions, a second fine-tune or buffers over the limit.
   */
  startFinetune(context: number): void;
  /** next-token: the windows' length now, and the fine-tune (null before startFinetune). */
  phase(): TrainerPhase;
  delete(): void;
}

// ---- projection: PCA, neighbours, analogies ---------------------------------------------------

export interface PcaOptions {
  k?: number;
  /** Rows to project (default all). */
  ids?: Ids;
  /** (k * D) components of the last frame: signs follow them. */
  previous?: Floats;
}
export interface Pca {
  n: number;
  k: number;
  dim: number;
  /** (n * k). */
  points: Float32Array;
  /** (k * D). */
  components: Float32Array;
  /** (k) fractions of the total variance. */
  explained: Float64Array;
  variance: Float64Array;
  solver: string;
}
export type Metric = 'cosine' | 'euclidean';
export interface NearestOptions {
  id?: number;
  vector?: Floats;
  k?: number;
  metric?: Metric;
}
export interface Neighbours {
  ids: Int32Array;
  /** Cosine similarity (best first) or euclidean distance (nearest first). */
  scores: Float32Array;
}
export interface AnalogyOptions {
  positive?: Ids;
  negative?: Ids;
  k?: number;
}

// ---- t-SNE (maps/tsne/tsne.hpp) -----------------------------------------------------------------------

export interface TsneOptions {
  /** 30; below (rows - 1) / 3. */
  perplexity?: number;
  /** 1000 gradient-descent iterations (the first 250 with early exaggeration). */
  iterations?: number;
  /** 0.5; 0: exact gradients (also used at rows <= 1000). */
  theta?: number;
  /** 200, or 'auto' = max(rows / earlyExaggeration / 4, 50) (sklearn's). */
  learningRate?: number | 'auto';
  earlyExaggeration?: number;
  seed?: number;
  metric?: 'euclidean' | 'cosine';
  /** 'random' (N(0, 1e-4^2)), 'pca', or a (rows * 2) layout such as the last frame. */
  init?: 'random' | 'pca' | Floats;
}
export interface TsneInfo {
  rows: number;
  exact: boolean;
  learningRate: number;
  seconds: { neighbours: number; affinities: number; layout: number };
}
export type TsnePhase = 'neighbours' | 'affinities' | 'init' | 'iteration';
export declare class Tsne {
  constructor(table: Floats, rows: number, dim: number, opts?: TsneOptions);
  constructor(table: Table, opts?: TsneOptions);
  /** Checks the options and the table and plans the memory now (failing as the constructor does);
   *  the neighbours, P and the initial layout run in prepare() or the first step(). Copies the table. */
  static start(table: Floats, rows: number, dim: number, opts?: TsneOptions): Tsne;
  static start(table: Table, opts?: TsneOptions): Tsne;
  /** Slices of the construction until maxMs (default 35) have passed, at least one -> prepared().
   *  The same bits as the constructor's, whatever the budgets. */
  prepare(maxMs?: number): boolean;
  prepared(): boolean;
  /** 'neighbours' | 'affinities' | 'init' while preparing, then 'iteration'. */
  phase(): TsnePhase;
  /** The share of the phase done, in [0, 1]. */
  progress(): number;
  /** n more iterations (at most what is left; after the rest of the construction) -> iteration(). */
  step(n?: number): number;
  /** The map (rows * 2), a copy; empty before the initial layout. */
  coordinates(): Float32Array;
  iteration(): number;
  totalIterations(): number;
  /** KL(P || Q) at the current map (the Barnes-Hut estimate above 1000 rows); fails before prepared. */
  kl(): number;
  info(): TsneInfo;
  delete(): void;
}

// ---- resident tables ---------------------------------------------------------------------------------

/** The names of src/io/formats.hpp's registry (tests/js/table-formats.test.mjs checks it against M.tableFormats()). */
export type TableFormatName = 'npy' | 'safetensors' | 'tsv' | 'word2vec-text' | 'word2vec-binary' | 'glove' | 'savetxt';
/** The names of the registry's formats that can be written (canWrite), and the labels file. */
export type ExportFormat = 'npy' | 'tsv' | 'word2vec-text' | 'word2vec-binary' | 'metadata';
/** One entry of M.tableFormats(). */
export interface TableFormatInfo {
  name: TableFormatName;
  label: string;
  /** Lower-case, no dot: file names that select the format on import ("vec"). */
  extensions: string[];
  /** The extension `convert` gives the format's files ("txt"), "" for a read-only one. */
  outExtension: string;
  canRead: boolean;
  canWrite: boolean;
  /** Files hold named tensors (Table.fromBytes' tensor picks one). */
  tensors: boolean;
}
export interface TensorInfo {
  name: string;
  dtype: string;
  shape: number[];
  begin: number;
  end: number;
}
export declare class Table {
  private constructor();
  /** data (rows * dim), copied into the engine once. */
  static fromArray(data: Floats, rows: number, dim: number, opts?: { labels?: string[] }): Table;
  /** .npy, .safetensors, Projector TSV, word2vec text/binary, GloVe, numpy savetxt; format '': the one name's extension names, else detected. */
  static fromBytes(bytes: Bytes, opts?: { format?: string; tensor?: string; metadata?: string | Bytes; name?: string }): Table;
  static fromTensor(bytes: Bytes, opts: { dtype: string; shape: ArrayLike<number>; name?: string }): Table;
  /** The first 8 bytes of a .safetensors file -> 8 + header length. */
  static safetensorsHeaderSize(first8: Bytes): number;
  /** fileSize: the file's size, so that a file cut short (or with bytes after the data) is refused. */
  static safetensorsHeader(head: Bytes, opts?: { fileSize?: number }): TensorInfo[];
  static inspect(bytes: Bytes, opts?: { format?: string }): TensorInfo[];
  readonly rows: number;
  readonly dim: number;
  readonly format: string;
  /** 'gpt2 token table' | 'gpt2 position table' | ''. */
  readonly recognised: string;
  readonly tensor: string;
  readonly labels: string[] | null;
  readonly metadata: { header: string[]; columns: string[][] } | null;
  setLabels(labels: Iterable<string> | ArrayLike<string>): void;
  attachMetadata(text: string | Bytes): void;
  attachVocab(text: string | Bytes): void;
  /** (dim), a copy. */
  row(i: number): Float32Array;
  /** (rows). */
  norms(): Float32Array;
  /** (n * n) of the ids' rows. */
  similarity(ids: Ids, opts?: { cosine?: boolean }): Float32Array;
  neighbours(opts: NearestOptions): Neighbours;
  analogy(opts: AnalogyOptions): Neighbours;
  pca(opts?: PcaOptions): Pca;
  /** A new Table of unit rows (delete it too). */
  normalised(): Table;
  export(format: ExportFormat): Uint8Array;
  delete(): void;
}

// ---- UMAP ------------------------------------------------------------------------------------------

/** umap-learn's options, camelCased, with its defaults (src/maps/umap/umap.hpp). */
export interface UmapOptions {
  nNeighbors?: number;          // 15, in [2, rows - 1]
  minDist?: number;             // 0.1, in [0, spread]
  spread?: number;              // 1
  nEpochs?: number | null;      // null: 500 for rows <= 10000, else 200
  metric?: 'euclidean' | 'cosine';
  seed?: number;                // 0: the same seed gives the same bits, in wasm and natively
  /** 'spectral' (default), 'pca', or a layout to start from (rows * 2). */
  init?: 'spectral' | 'pca' | Floats;
  learningRate?: number;        // 1
  negativeSampleRate?: number;  // 5
  repulsionStrength?: number;   // 1
  localConnectivity?: number;   // 1
  setOpMixRatio?: number;       // 1
  knn?: 'auto' | 'exact' | 'nn-descent';  // auto: exact below 4096 rows
}
export interface UmapInfo {
  rows: number; dim: number; a: number; b: number; nEpochs: number;
  knn: 'exact' | 'nn-descent'; knnRounds: number; knnDistances: number;
  init: 'spectral' | 'pca' | 'given'; initNote: string; components: number; edges: number;
  seconds: { knn: number; graph: number; init: number; layout: number; total: number };
}
export type UmapPhase = 'knn' | 'graph' | 'init' | 'layout';
export declare class Umap {
  /** Runs the neighbour search, the fuzzy graph and the initial layout; epochs run in step(). */
  constructor(table: Floats, rows: number, dim: number, opts?: UmapOptions);
  constructor(table: Table, opts?: UmapOptions);
  /** Checks the options and the table, plans the memory and copies the rows now (failing as the
   *  constructor does); the neighbour search, graph and initial layout run in prepare() or the first step(). */
  static start(table: Floats, rows: number, dim: number, opts?: UmapOptions): Umap;
  static start(table: Table, opts?: UmapOptions): Umap;
  /** Slices of the construction until maxMs (default 35) have passed, at least one -> prepared().
   *  The same bits as the constructor's, whatever the budgets. */
  prepare(maxMs?: number): boolean;
  prepared(): boolean;
  /** 'knn' | 'graph' | 'init' while preparing, then 'layout'. */
  phase(): UmapPhase;
  /** The share of the phase done, in [0, 1] (an estimate for NN-descent; 0 during 'init'). */
  progress(): number;
  /** Runs up to n more epochs (default 1; after the rest of the construction) and returns the epoch reached. */
  step(n?: number): number;
  /** The current map (rows * 2), a copy; empty before the initial layout. */
  coordinates(): Float32Array;
  epoch(): number;
  totalEpochs(): number;
  info(): UmapInfo;
  /** New rows (m * dim) -> their places in the fitted map (m * 2); the map does not move. Fails before prepared. */
  transform(rows: Floats): Float32Array;
  delete(): void;
}

// ---- maps: every 2-D map algorithm behind one interface (M.mapAlgorithms, M.MapRun) ------------

export interface MapParam {
  /** snake_case, as the engine and the CLI's JSON name it: 'n_neighbors'. */
  name: string;
  /** The JS option, the same as M.Umap's / M.Tsne's: 'nNeighbors'. */
  option: string;
  /** The CLI flag: '--n-neighbors'. */
  flag: string;
  type: 'number' | 'integer' | 'choice';
  /** A number, a choice, or the word (e.g. 'auto') when the default is computed. */
  default: number | string;
  /** The accepted range (null for choices); minExclusive: min itself is refused. */
  min: number | null;
  max: number | null;
  minExclusive: boolean;
  /** The accepted words of a choice, the default first; null otherwise. */
  choices: string[] | null;
  /** A word a number parameter also takes (learning_rate 'auto', n_epochs 'auto'), or null. */
  word: string | null;
  help: string;
}
export interface MapNeeds {
  minRows: number;
  /** Takes metric 'cosine' besides 'euclidean'. */
  cosine: boolean;
  /** Can start from given coordinates (init: Float32Array (rows * components)). */
  givenInit: boolean;
  /** The unit of step(): 'epoch' | 'iteration' | 'step'. */
  stepName: string;
}
export interface MapAlgorithm {
  name: string;
  label: string;
  description: string;
  components: number;
  stepName: string;
  needs: MapNeeds;
  params: MapParam[];
}
/** Options by the params' `option` names; init may be a Float32Array when needs.givenInit. */
export type MapOptions = Record<string, number | string | Floats | null | undefined>;
export declare class MapRun {
  /** The whole construction now; the steps run in step(). */
  constructor(name: string, table: Floats, rows: number, dim: number, opts?: MapOptions);
  constructor(name: string, table: Table, opts?: MapOptions);
  /** Checks and plans now; the construction runs in prepare() (or the first step()). */
  static start(name: string, table: Floats, rows: number, dim: number, opts?: MapOptions): MapRun;
  static start(name: string, table: Table, opts?: MapOptions): MapRun;
  readonly algorithm: string;
  readonly stepName: string;
  /** Slices of the construction until maxMs (default 35) have passed; -> prepared. */
  prepare(maxMs?: number): boolean;
  phase(): string;
  progress(): number;
  /** Up to n (default 1) more steps; -> the step reached. */
  step(n?: number): number;
  steps(): number;
  total(): number;
  done(): boolean;
  rows(): number;
  components(): number;
  /** (rows * components); empty before the initial layout. */
  coordinates(): Float32Array;
  info(): Record<string, unknown>;
  delete(): void;
}

// ---- the module -----------------------------------------------------------------------------------

/** What createEmbedlab() resolves to. */
export interface EmbedlabModule {
  /** torch.manual_seed(seed): the generator Embedding, Linear and learned tables draw from. */
  manualSeed(seed: number): void;
  /** The instruction set the module was built for, e.g. 'wasm_simd128'. */
  isa(): string;
  /**
   * The number of threads the engine uses: 1 in the single-thread build (embedlab.js: pages that
   * are not cross-origin isolated), up to the logical cores in the threaded one (embedlab-mt.js:
   * Node, and pages with COOP/COEP). Results are the same bits whatever the count.
   */
  threads(): number;
  /**
   * Asks for n threads, an integer in [1, 64]; returns the count in use, min(n, the cores this
   * build can use). Throws "setThreads: threads 0 out of range [1, 64]" for n outside that range.
   */
  setThreads(n: number): number;
  Embedding: typeof Embedding;
  Linear: typeof Linear;

  /** (T * D), Vaswani et al. 2017 §3.5. */
  sinusoidal(positions: number, dim: number): Float32Array;
  /** (T * D) drawn like nn.Embedding(T, D). */
  learnedPositions(contextLength: number, dim: number): Float32Array;
  /** (T * D) rotary angles' cos/sin table. */
  ropeTable(positions: number, dim: number): Float32Array;
  /** x (T * D) rotated by position (+ offset); opts: a rotation kind of the registry and its parameters (its invFreq), else plain RoPE. */
  ropeApply(x: Floats, positions: number, dim: number, offset?: number, opts?: RopeApplyOptions): Float32Array;
  /** (H * T * T) ALiBi biases. */
  alibi(heads: number, positions: number): Float32Array;
  /** The registry, in the engine's order (a fresh copy each call). */
  positionalKinds(): PositionalKind[];
  positionTable(kind: string, opts: PositionTableOptions): PositionTable;
  /** table (T * D) -> (T * T) dot products (or cosines). */
  positionSimilarity(table: Floats, positions: number, dim: number, opts?: { cosine?: boolean }): Float32Array;

  Tokenizer: typeof Tokenizer;
  BpeTrainer: typeof BpeTrainer;
  sentences(tokenizer: Tokenizer, text: Text): Sentences;
  slidingWindows(ids: Ids, opts?: WindowOptions): SlidingWindows;
  /** -> (pairs * 2) (center, context) within `window` positions. */
  skipgramPairs(ids: Ids, window: number): Int32Array;

  Trainer: typeof Trainer;
  /** Text sampled from next-token checkpoint bytes (Trainer.saveState of a trainer given its tokenizer, or `train --save-state`): the same text and ids as `embedlab generate`. */
  generate(state: Uint8Array, opts: GenerateOptions): Generated;
  /** The rows of a next-token run (the CLI's): ids (n) -> model rows; fullVocab keeps every id of the tokenizer (row r = id r).
   *  nextTokenRows([5, 9, 5], Tokenizer.gpt2()) -> {ids: [0, 1, 0], rowIds: [5, 9], remapped: true};
   *  give Trainer.nextToken {vocabSize: rowIds.length, tokenizer, rowIds} when remapped. */
  nextTokenRows(ids: Ids, tokenizer: Tokenizer, opts?: { fullVocab?: boolean }): NextTokenRows;

  pca(table: Floats, rows: number, dim: number, opts?: PcaOptions): Pca;
  nearest(table: Floats, rows: number, dim: number, opts: NearestOptions): Neighbours;
  analogy(table: Floats, rows: number, dim: number, opts: AnalogyOptions): Neighbours;
  Table: typeof Table;
  /** A UMAP map of the rows in one call: (rows * 2). */
  umap(table: Floats, rows: number, dim: number, opts?: UmapOptions): Float32Array;
  umap(table: Table, opts?: UmapOptions): Float32Array;
  Umap: typeof Umap;
  Tsne: typeof Tsne;
  /** The map registry, in the engine's order (a fresh copy each call). */
  mapAlgorithms(): MapAlgorithm[];
  /** A run of any map algorithm by name. */
  MapRun: typeof MapRun;
  /** The whole run: -> the map (rows * 2). */
  tsne(table: Floats, rows: number, dim: number, opts?: TsneOptions): Float32Array;
  tsne(table: Table, opts?: TsneOptions): Float32Array;

  /** The text of the CLI's --out-tsv files. */
  projectorTsv(table: Floats, rows: number, cols: number, labels: string[]): { vectors: string; metadata: string };
  /** The bytes of a float32 .npy file of shape (rows, cols). */
  npyBytes(table: Floats, rows: number, cols: number): Uint8Array;
  /** CSV "row,label,x,y[,z]" of points (rows * k), k 2 | 3. */
  coordinatesCsv(points: Floats, rows: number, k: 2 | 3, labels?: string[] | null): Uint8Array;

  benchLookup(opts?: { numEmbeddings?: number; embeddingDim?: number; batch?: number; context?: number; reps?: number }): Record<string, unknown>;
  benchTokenize(text: Text, opts?: { encoding?: string; reps?: number }): Record<string, unknown>;
  benchNextToken(opts?: { vocabSize?: number; vectorSize?: number; context?: number; batchSize?: number; steps?: number; optimizer?: string; pos?: string }): Record<string, unknown>;
  benchWord2Vec(ids: Ids, sentenceStarts: ArrayLike<number>, counts?: ArrayLike<number> | null, sg?: boolean): Record<string, unknown>;
  benchTable(opts?: { rows?: number; dim?: number; reps?: number }): Record<string, unknown>;
  /** The table formats the engine reads and writes, in registry order. */
  tableFormats(): TableFormatInfo[];
  benchUmap(opts?: UmapOptions & { rows?: number; dim?: number; clusters?: number; sample?: number }): Record<string, unknown>;
  umapBenchData(opts?: { rows?: number; dim?: number; clusters?: number; seed?: number }): { table: Float32Array; labels: Int32Array };
  umapQuality(table: Floats, rows: number, dim: number, labels: ArrayLike<number>, coords: Floats,
    opts?: { sample?: number; metric?: 'euclidean' | 'cosine' }): { sample: number; k: number; neighbours_kept: number; label_share: number };
  benchTsne(opts?: { rows?: number; dim?: number; clusters?: number; iterations?: number; perplexity?: number; theta?: number }): Record<string, unknown>;
}

/** The module factory: build/web/embedlab.js's default export, and the package's createEmbedlab. */
export declare function createEmbedlab(opts?: EmbedlabOptions): Promise<EmbedlabModule>;
export default createEmbedlab;

/**
 * The `<embedlab-view>` widget: build/web/embedlab-element.js defines it (README "Widgets").
 * Attributes are the page's URL keys and values (`seed="42" T="128"`), plus:
 *   view      one of EmbedlabViewName (default 'positions')
 *   card      one card of the view, named as the page's Embed button names it (e.g. 'embedding-table-w',
 *             'why-multiply-token-vectors-by-d', 'sinusoidal', 'tokens', 'train-an-embedding-table-on-this-text')
 *   controls  a comma list of the settings the reader gets fields for ('V,D'), among those the view reads
 * Values that cannot be used are listed under the view and reported in `embedlab-change`'s detail.
 *
 *   const el = document.querySelector('embedlab-view');             // typed EmbedlabView
 *   el.addEventListener('embedlab-change', (e) => console.log(e.detail.state.T, e.detail.ignored));
 */
export type EmbedlabViewName = 'table' | 'positions' | 'text' | 'windows' | 'bpe' | 'train';

/** One attribute value the widget could not use: the key, the value given and why. */
export interface EmbedlabIgnored {
  key: string;
  value: string;
  reason: string;
}

/** The detail of `embedlab-change`, sent after each render: the parsed settings (the page's state) and what was ignored. */
export interface EmbedlabViewChangeDetail {
  state: { view: EmbedlabViewName; card: string; controls: string; [key: string]: unknown };
  ignored: EmbedlabIgnored[];
}

export declare class EmbedlabView extends HTMLElement {
  /** Workers created by all widgets of the page (one, shared, once any widget has started). */
  static readonly workersCreated: number;
}

declare global {
  interface HTMLElementTagNameMap {
    'embedlab-view': EmbedlabView;
  }
  interface HTMLElementEventMap {
    'embedlab-change': CustomEvent<EmbedlabViewChangeDetail>;
  }
}
