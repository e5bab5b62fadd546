// Test files made in memory, shared by the node and browser tests of imported tables:
//   safetensors([[name, shape, Float32Array], ...]) -> Buffer, as the published format lays it out:
//     an 8-byte little-endian header length, the JSON header (dtype F32, data_offsets), the data
//   random(n, seed) -> Float32Array of n values in [-0.5, 0.5) from a 32-bit LCG
//     (Math.imul: a plain * loses bits past 2^53)
export function safetensors(tensors) {
  const header = {};
  const parts = [];
  let offset = 0;
  for (const [name, shape, data] of tensors) {
    header[name] = { dtype: 'F32', shape, data_offsets: [offset, offset + data.byteLength] };
    parts.push(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
    offset += data.byteLength;
  }
  const json = Buffer.from(JSON.stringify(header));
  const len = Buffer.alloc(8);
  len.writeBigUInt64LE(BigInt(json.length));
  return Buffer.concat([len, json, ...parts]);
}

export function random(n, seed) {
  const a = new Float32Array(n);
  let s = seed;
  for (let i = 0; i < a.length; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    a[i] = s / 4294967296 - 0.5;
  }
  return a;
}
