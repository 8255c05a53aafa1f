#!/bin/bash
# Trains several network-evaluation candidates at once on one GPU (session 5 of the strength phase:
# an H100 ran seven NNUE trainings and a 10x128 ResNet side by side in about six minutes).
#
#   bash trainer/gpu-train-nets.sh DATA OUT [SECONDS]
#
# DATA holds the datagen sets, one directory each named <game>-<set> (chess-n1000, chess-g2 ... chess-g5,
# shogi-n1000 ... shogi-g3; trainer/pack-sets.sh carries them there), and optionally `boot/` (bootstrap
# chunks, .knr) plus `ref-chess.knr` (from dist/tools/nn/reference-inputs.js: the GPU host needs no node). Each training stops after SECONDS
# (default 380); one that was stopped exports its last finished epoch from its checkpoint, so every
# candidate comes back. OUT receives the .bin files, manifests, reports and logs.
set -u
DATA=$1
OUT=$2
T=${3:-380}
PY=${PY:-python3}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1

sets() { # game: every data directory of that game (<game>-n1000, <game>-g2, ... as trainer/pack-sets.sh unpacks them)
  local d
  for d in "$DATA/$1"-*/; do [ -d "$d" ] && printf '%s ' "${d%/}"; done
}

nn() { # name, trainer arguments...
  local name=$1
  shift
  local common=(--device cuda --threads 1 --val-every 20 --lambda 1.0 --out "$OUT/$name.bin" --checkpoint "$OUT/$name.pt" --report "$OUT/$name.report.json")
  timeout "$T" "$PY" trainer/nnue_train.py "$@" "${common[@]}" > "$OUT/$name.log" 2>&1
  if [ ! -f "$OUT/$name.bin" ] && [ -f "$OUT/$name.pt" ]; then
    local ep
    ep=$("$PY" -c "import torch; print(torch.load('$OUT/$name.pt', map_location='cpu', weights_only=False)['epoch'])")
    echo "$name: stopped after epoch $ep; exporting that checkpoint" >> "$OUT/$name.log"
    "$PY" trainer/nnue_train.py "$@" "${common[@]}" --epochs "$ep" --resume >> "$OUT/$name.log" 2>&1
  fi
  echo "$name done $(date +%T)"
}

CHESS=$(sets chess)
SHOGI=$(sets shogi)
# $CHESS / $SHOGI unquoted on purpose: one argument per data directory.
if [ -n "$CHESS" ]; then
  nn chess-h32 --game chess --data $CHESS --hidden 32 --epochs 20 --batch 4096 &
  nn chess-h64 --game chess --data $CHESS --hidden 64 --epochs 20 --batch 4096 &
fi
if [ -n "$SHOGI" ]; then
  nn shogi-kz-h32 --game shogi --features king-zone --data $SHOGI --hidden 32 --epochs 24 --batch 4096 &
  nn shogi-kz-h64 --game shogi --features king-zone --data $SHOGI --hidden 64 --epochs 16 --batch 2048 &
fi
if [ -d "$DATA/boot" ] && [ -f "$DATA/ref-chess.knr" ]; then
  (
    timeout $((T + 60)) "$PY" trainer/train.py --data "$DATA/boot" --blocks 10 --filters 128 --steps 3000 --batch 1024 \
      --lr 0.02 --lr-final 0.0002 --value-mix 0.75 --holdout 0.02 --holdout-every 1000 --log-every 250 --threads 4 \
      --device cuda --checkpoint "$OUT/resnet.pt" --out "$OUT/chess-10x128.onnx" --reference "$DATA/ref-chess.knr" \
      --report "$OUT/resnet.report.json" > "$OUT/resnet.log" 2>&1
    echo "resnet done $(date +%T)"
  ) &
fi
wait
for f in "$OUT"/*.log; do
  echo "== $f"
  tail -n 2 "$f" | cut -c1-300
done
