// The learned position table of the user's imported file (GPT-2's wpe.weight), kept in the
// worker as a resident engine table (M.Table) so the positions view can draw it beside the
// built-in kinds. The import handler sets it whenever a file finishes loading (or clears it
// when the new file has none); the positions handler reads it. It holds no File and never
// reads one: the import handler slices the tensor's bytes.
//
//   const store = new ImportedPositions();
//   store.set({table, file: 'model.safetensors', tensor: 'wpe.weight'});   // frees the previous table
//   store.current     // -> {table, file, tensor} | null
//   store.generation  // changes with every set/clear: the positions handler's cache key
//   store.clear();

// A safetensors tensor that is a GPT-2 position table by name (src/io/known_tables.cpp
// decides; this only picks which tensor to slice): "wpe.weight" or "transformer.wpe.weight".
export const POSITION_TENSOR = /^(transformer\.)?wpe\.weight$/;

export class ImportedPositions {
  constructor() {
    this.current = null;
    this.generation = 0;
  }

  // entry: {table: M.Table (this store now owns it), file, tensor}
  set(entry) {
    if (this.current && this.current.table !== entry.table) this.current.table.delete();
    this.current = entry;
    this.generation++;
  }

  clear() {
    if (!this.current) return;
    this.current.table.delete();
    this.current = null;
    this.generation++;
  }
}
