#!/usr/bin/env bash
# Training benchmarks with their peers, called by scripts/bench (section "train"). Prints one
# "name<TAB>json" line per measurement on stdout and the ratios the issue asks for on stderr:
#   word2vec skip-gram on web/corpora/tinyshakespeare.txt (gensim defaults, one thread):
#     native and wasm (Node) effective/raw words/s vs gensim 4.2 workers=1 (OpenBLAS when
#     OPENBLAS_DIR or /usr/lib/x86_64-linux-gnu/openblas-pthread exists)
#   next-token model V=5000 D=64 T=32 B=256 Adam: native and wasm tokens/s vs torch 1.13 on
#     one thread and @tensorflow/tfjs-backend-wasm (one-hot formulation).
# Needs build/native/embedlab and build/wasm (scripts/build). Usage: scripts/bench-train.sh
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=web/corpora/tinyshakespeare.txt
cli=${EMBEDLAB_CLI:-build/native/embedlab}
openblas=${OPENBLAS_DIR:-/usr/lib/x86_64-linux-gnu/openblas-pthread}
[[ -x "$cli" ]] || { echo "bench-train: $cli not found ---> HINT: run scripts/build first" >&2; exit 2; }
emit() { printf '%s\t%s\n' "$1" "$2"; }
field() { node -e "process.stdout.write(String(JSON.parse(process.argv[1])['$2']))" "$1"; }
ratio() { node -e "process.stdout.write((Number(process.argv[1]) / Number(process.argv[2])).toFixed(2))" "$1" "$2"; }

w_native=$("$cli" bench train --model skipgram "$corpus")
w_wasm=$(node scripts/bench-train-wasm.mjs word2vec skipgram "$corpus")
if [[ -d "$openblas" ]]; then
  w_gensim=$(OMP_NUM_THREADS=1 LD_LIBRARY_PATH="$openblas" /usr/bin/python3 scripts/peers/gensim_word2vec.py "$corpus" skipgram)
else
  w_gensim=$(OMP_NUM_THREADS=1 /usr/bin/python3 scripts/peers/gensim_word2vec.py "$corpus" skipgram)
fi
emit word2vec.native "$w_native"
emit word2vec.wasm "$w_wasm"
emit word2vec.gensim "$w_gensim"

n_native=$("$cli" bench train --model next-token --vocab-size 5000 --vector-size 64 --context 32 --batch-size 256 --steps 5)
n_wasm=$(node scripts/bench-train-wasm.mjs next-token 5000 64 32 256 3)
n_torch=$(OMP_NUM_THREADS=1 /usr/bin/python3 scripts/peers/torch_next_token.py 5000 64 32 256 5)
n_tfjs=$(node scripts/peers/tfjs_next_token.mjs 5000 64 32 256 2)
emit next_token.native "$n_native"
emit next_token.wasm "$n_wasm"
emit next_token.torch "$n_torch"
emit next_token.tfjs_wasm "$n_tfjs"

g_eff=$(field "$w_gensim" effective_words_per_s)
{
  echo "word2vec skip-gram effective words/s: native $(field "$w_native" effective_words_per_s), wasm $(field "$w_wasm" effective_words_per_s), gensim $g_eff"
  echo "  native / gensim $(ratio "$(field "$w_native" effective_words_per_s)" "$g_eff") (target >= 1.5); wasm / gensim $(ratio "$(field "$w_wasm" effective_words_per_s)" "$g_eff") (target >= 1)"
  t_tfjs=$(field "$n_tfjs" tokens_per_s); t_torch=$(field "$n_torch" tokens_per_s)
  echo "next-token tokens/s: native $(field "$n_native" tokens_per_s), wasm $(field "$n_wasm" tokens_per_s), torch $t_torch, tfjs-wasm $t_tfjs"
  echo "  wasm / tfjs-wasm $(ratio "$(field "$n_wasm" tokens_per_s)" "$t_tfjs") (target >= 20); native / torch $(ratio "$(field "$n_native" tokens_per_s)" "$t_torch") (target >= 1)"
} >&2
