// Test files made in memory, shared by the node and browser tests of imported tables:
//   safetensors([[name, shape, Float32Array], ...]) -> Buffer, as the published format lays it out:
//     an 8-byte little-endian header length, the JSON header (dtype F32, data_offsets), the data
//   rng(seed) -> () => a uniform in [0, 1) from a 32-bit LCG
//   random(n, seed) -> Float32Array of n values in [-0.5, 0.5) from that LCG
//     (Math.imul: a plain * loses bits past 2^53)
//   npyBytes(Float32Array, rows, cols) -> Buffer: a version 1.0 .npy as numpy writes it
//   npyData(file) -> Float32Array: the payload of a version 1.0 .npy file (the CLI's --out)
//   sameBits(a, b): two Float32Arrays hold the same bytes
import fs from 'node:fs';

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

export function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s / 4294967296;
  };
}

export function random(n, seed) {
  const next = rng(seed);
  return Float32Array.from({ length: n }, () => next() - 0.5);
}

export function npyBytes(data, rows, cols) {
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': (${rows}, ${cols}), }`;
  header += ' '.repeat((64 - ((10 + header.length + 1) % 64)) % 64) + '\n';
  const head = Buffer.alloc(10);
  Buffer.from([0x93, ...Buffer.from('NUMPY'), 1, 0]).copy(head);
  head.writeUInt16LE(header.length, 8);
  return Buffer.concat([head, Buffer.from(header, 'latin1'), Buffer.from(data.buffer, data.byteOffset, data.byteLength)]);
}

export function npyData(file) {
  const b = fs.readFileSync(file);
  const start = 10 + b.readUInt16LE(8);
  return new Float32Array(b.buffer.slice(b.byteOffset + start, b.byteOffset + b.length));
}

export function sameBits(a, b) {
  return a.length === b.length && Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.byteLength),
    Buffer.from(b.buffer, b.byteOffset, b.byteLength)) === 0;
}
