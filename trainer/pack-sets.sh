#!/bin/bash
# Packs datagen sets for a machine reached only through a size-limited transfer (the GPU device tool carries
# 64 MiB a call, and files stay on its machine while it is held): one xz-compressed tar stream of the sets,
# split into numbered parts of at most PART bytes (default 60M). The chunk files compress about 3x.
#
#   bash trainer/pack-sets.sh OUT SET_DIR...       e.g. OUT=gpu-data, SET_DIR=/data/nnue/chess-g4
#
# Carry the parts over as many calls as they need, then unpack them there into one directory, which
# trainer/gpu-train-nets.sh takes as DATA (every set is a subdirectory named <game>-<name>):
#
#   cat OUT/part-* | python3 -c "import sys, tarfile; tarfile.open(fileobj=sys.stdin.buffer, mode='r|xz').extractall('DATA')"
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: bash trainer/pack-sets.sh OUT SET_DIR..." >&2
  exit 2
fi
OUT=$1
shift
PART=${PART:-60M}
mkdir -p "$OUT"
args=()
for d in "$@"; do
  [ -d "$d" ] || { echo "pack-sets: $d is not a directory" >&2; exit 2; }
  args+=(-C "$(cd "$(dirname "$d")" && pwd)" "$(basename "$d")")
done
tar -c "${args[@]}" | xz -T0 -6 | split -b "$PART" -d -a 3 - "$OUT/part-"
ls -l "$OUT"
