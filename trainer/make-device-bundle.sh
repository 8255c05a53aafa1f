#!/bin/bash
# Packs what `kishi datagen` needs on a machine without Node.js (the GPU machine of trainer/device-learn.sh):
# this node binary, dist/, the production node_modules (less onnxruntime-node, esbuild and vega: datagen
# loads none of them), models/ (the nets; no ONNX or policy files) and data/openings, as one xz tar
# (about 28 MB). Run from the repository root after `npm ci` (which builds dist/).
#
#   bash trainer/make-device-bundle.sh OUT.tar.xz
set -euo pipefail
OUT=$(realpath -m "$1")
S=$(mktemp -d)
trap 'rm -rf "$S"' EXIT
mkdir -p "$S/k/dist" "$S/k/data" "$S/k/models"
cp -r bin package.json "$S/k/"
cp -r dist/src "$S/k/dist/"
cp -r data/openings "$S/k/data/"
cp models/*.json models/*-nnue.bin "$S/k/models/"
cp "$(readlink -f "$(command -v node)")" "$S/k/node"
# Production packages, each top-level folder once (scoped ones as @scope/name).
npm ls --omit=dev --parseable --all 2>/dev/null | sed "s|^$PWD/||" | grep '^node_modules/' \
  | awk -F/ '{ print ($2 ~ /^@/) ? $1"/"$2"/"$3 : $1"/"$2 }' | sort -u \
  | grep -v -e onnxruntime -e esbuild -e '/vega' > "$S/list"
tar -cf - -T "$S/list" | tar -xf - -C "$S/k"
tar -C "$S" -cf - k | xz -T0 -6 > "$OUT"
ls -l "$OUT"
