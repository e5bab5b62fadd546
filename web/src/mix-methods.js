// One class written in several files: mixMethods copies the methods of "part" classes onto a
// class's prototype, so a big class can be split by concern (plots/gl-scatter*.js,
// views/train-*.js) while its objects, `this` and every caller stay as they were. A part class is
// never constructed: it only holds methods, and its file header says which fields of `this` they
// use. Not a framework: no super calls, no fields, no getters beyond plain methods.
//
//   class ScatterLasso { lassoStart(e) { ... this.path ... } }
//   class GlScatter { constructor() { ... } }
//   mixMethods(GlScatter, ScatterLasso);   // new GlScatter(...).lassoStart(e)

// target: a class; parts: classes whose own methods (not their constructors) are copied onto
// target.prototype as class methods are (non-enumerable). A name defined twice throws.
export function mixMethods(target, ...parts) {
  for (const part of parts) {
    for (const name of Object.getOwnPropertyNames(part.prototype)) {
      if (name === 'constructor') continue;
      if (Object.prototype.hasOwnProperty.call(target.prototype, name)) throw new Error(`mixMethods: ${target.name}.${name} is defined twice (${part.name})`);
      Object.defineProperty(target.prototype, name, Object.getOwnPropertyDescriptor(part.prototype, name));
    }
  }
}
