#!/usr/bin/python3
"""Writes the table fixtures of tests/reference/tables/ with real writers (tests/test_import.cpp).

Run with Debian's python3 and its python3-numpy and python3-gensim (4.2) packages:
    /usr/bin/python3 scripts/gen-table-fixtures.py
Every file holds (part of) the same float32 table W (5, 4) drawn from numpy's default_rng(10),
with a few values that test the text formats' shortest repr (1e-05, 123456790.0, -0.0, 0.1);
the float16 files hold W with 1000.5 in place of 123456790 (past float16's 65504).
values.json records W, the float16/bfloat16 roundings, the words and how each file was made.
The safetensors writer follows the published format (huggingface/safetensors README, "Format"):
8-byte little-endian header length N, N bytes of JSON (padded with spaces to a multiple of 8),
then the little-endian data, data_offsets relative to the end of the header.
"""
import json
import os
import struct
import sys

import numpy as np
from gensim.models import KeyedVectors

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests', 'reference', 'tables')
WORDS = ['the', 'cat', 'café', 'sat', '<unk>']


def table():
    w = np.random.default_rng(10).standard_normal((5, 4)).astype(np.float32)
    w[0, 1] = np.float32(1e-05)
    w[1, 2] = np.float32(123456790.0)
    w[2, 3] = np.float32(-0.0)
    w[3, 0] = np.float32(0.1)
    return w


def bf16(w):
    # round to nearest even on the high 16 bits, as torch's float32 -> bfloat16
    u = w.view(np.uint32).astype(np.uint64)
    u = (u + 0x7FFF + ((u >> 16) & 1)) >> 16
    return u.astype(np.uint16)


def safetensors(path, tensors, metadata=None):
    header, blobs, offset = {}, [], 0
    if metadata is not None:
        header['__metadata__'] = metadata
    for name, dtype, shape, data in tensors:
        header[name] = {'dtype': dtype, 'shape': list(shape), 'data_offsets': [offset, offset + len(data)]}
        blobs.append(data)
        offset += len(data)
    text = json.dumps(header, separators=(',', ':')).encode('utf-8')
    text += b' ' * ((8 - len(text) % 8) % 8)
    with open(path, 'wb') as f:
        f.write(struct.pack('<Q', len(text)) + text + b''.join(blobs))


def main():
    os.makedirs(OUT, exist_ok=True)
    w = table()
    p = lambda name: os.path.join(OUT, name)
    np.save(p('w_f32.npy'), w)
    np.save(p('w_f64.npy'), w.astype(np.float64))
    w16 = w.copy()
    w16[1, 2] = np.float32(1000.5)  # 123456790 is past float16's 65504
    h = w16.astype(np.float16)
    np.save(p('w_f16.npy'), h)
    np.save(p('w_fortran.npy'), np.asfortranarray(w))
    np.save(p('w_i32.npy'), np.arange(6, dtype=np.int32).reshape(2, 3))
    kv = KeyedVectors(vector_size=4)
    kv.add_vectors(WORDS, w)
    kv.save_word2vec_format(p('w2v.txt'), binary=False)
    kv.save_word2vec_format(p('w2v.bin'), binary=True)
    with open(p('glove.txt'), 'w', encoding='utf-8') as f:  # GloVe's layout: no header
        for word, row in zip(WORDS, w):
            f.write(word + ' ' + ' '.join(repr(v) for v in row) + '\n')
    with open(p('vectors.tsv'), 'w') as f:  # the Projector's layout, as its own exporter writes
        for row in w:
            f.write('\t'.join(repr(v) for v in row) + '\n')
    with open(p('metadata.tsv'), 'w', encoding='utf-8') as f:
        f.write(''.join(word + '\n' for word in WORDS))
    with open(p('metadata_columns.tsv'), 'w', encoding='utf-8') as f:
        f.write('count\tword\n' + ''.join(f'{10 * (i + 1)}\t{word}\n' for i, word in enumerate(WORDS)))
    b = bf16(w)
    safetensors(p('model.safetensors'), [
        ('wte.weight', 'F32', w.shape, w.astype('<f4').tobytes()),
        ('wpe.weight', 'F32', (3, 4), w[:3].astype('<f4').tobytes()),
        ('half', 'F16', w.shape, h.astype('<f2').tobytes()),
        ('brain', 'BF16', w.shape, b.astype('<u2').tobytes()),
        ('double', 'F64', (2, 4), w[:2].astype('<f8').tobytes()),
        ('bias', 'F32', (4,), w[0].astype('<f4').tobytes()),
        ('cube', 'F32', (2, 2, 2), np.arange(8, dtype='<f4').tobytes()),
        ('ints', 'I32', (2, 2), np.arange(4, dtype='<i4').tobytes()),
    ], metadata={'format': 'pt', 'source': 'gen-table-fixtures.py'})
    safetensors(p('one.safetensors'), [('embeddings', 'F32', w.shape, w.astype('<f4').tobytes())])
    values = {
        'generated_by': 'scripts/gen-table-fixtures.py (numpy %s, gensim %s)' % (np.__version__, __import__('gensim').__version__),
        'words': WORDS,
        'f32': [[float(v) for v in row] for row in w],
        'f16': [[float(v) for v in row] for row in h.astype(np.float32)],
        'bf16': [[float(v) for v in row] for row in (b.astype(np.uint32) << 16).view(np.float32)],
        'repr': [[repr(v) for v in row] for row in w],
    }
    with open(p('values.json'), 'w') as f:
        json.dump(values, f, separators=(',', ':'), ensure_ascii=False, allow_nan=False)
        f.write('\n')
    for name in sorted(os.listdir(OUT)):
        print('gen-table-fixtures: %-22s %6d bytes' % (name, os.path.getsize(p(name))))


if __name__ == '__main__':
    sys.exit(main())
