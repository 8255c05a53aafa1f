#!/bin/bash
# One call on a lent GPU machine (the `device` tool: 16 cores, one GPU, no node, no network, 64 MiB in
# and out a call): data generation on its cores, then network trainings on its GPU over that data and
# the data carried from here, and everything packed for the way back.
#
#   bash trainer/device-learn.sh IN OUT GEN_SECONDS TRAIN_SECONDS
#
# TRAIN_SECONDS 0 skips the trainings (all the call's time goes to data; the nets are then trained at home
# with --init). Environment: CHESS_SEED / SHOGI_SEED (default 111 / 112: give each lease its own, or its
# games repeat a former lease's with the same teacher), CHESS_PROCS / SHOGI_PROCS (default: the cores but
# one, split 9:6).
#
# IN (carried by the tool) holds:
#   bundle.tar.xz  node, dist/, the production node_modules, models/ and data/openings (trainer/
#                  make-device-bundle.sh): `kishi datagen` runs there as it runs here;
#   data-*.tar.xz  datagen sets from here, each a folder <game>-<set> (trainer/pack-sets.sh layout).
# Datagen: chess and shogi shards of one seed each (disjoint games, `--shard i/n`) with the bundle's
# models/<game>-nnue.bin as the teacher, stopped after GEN_SECONDS (chunks are written whole, so a kill
# loses only the chunk in progress). Trainings: the candidates below, each a process of its own, stopped
# after TRAIN_SECONDS (a stopped one exports its best finished epoch from its checkpoint).
# OUT receives data-NNN (the new chunks, xz tar, split at 15 MB: the tool returns 8 files of 16 MB at
# most), written before the trainings start, and nets.tar.xz (nets, manifests, logs).
set -u
IN=$1
OUT=$2
GEN=$3
TRAIN=$4
W=/tmp/kishi-device
# A warm machine keeps /tmp between calls: a second call would find the first one's data folders and datagen
# would refuse their settings (another seed), so every call starts from an empty folder.
rm -rf "$W"
mkdir -p "$W/data" "$W/nets" "$W/gen"
export PYTHONUNBUFFERED=1
PY=${PY:-python3}
t0=$(date +%s)
say() { echo "[$(( $(date +%s) - t0 ))s] $*"; }
# xz may be missing on that image: Python's lzma then does the same work.
if command -v xz >/dev/null; then
  XZ=(xz -T0 -6)
else
  XZ=("$PY" -c "import lzma, shutil, sys; shutil.copyfileobj(sys.stdin.buffer, lzma.LZMAFile(sys.stdout.buffer, 'w', preset=6))")
fi
untar() { "$PY" -c "import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])" "$1" "$2"; }

untar "$IN/bundle.tar.xz" "$W" || exit 1
for f in "$IN"/data-*.tar.xz; do [ -f "$f" ] && untar "$f" "$W/data"; done
say "unpacked: $(nproc) cores, node $("$W/k/node" --version 2>&1), data $(ls "$W/data" | tr '\n' ' ')"
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader

# 1. Datagen on all cores but one (chess 9, shogi 6 when there are 16: a shogi position costs about 1.5x).
cores=${CORES:-$(nproc)}
nc=${CHESS_PROCS:-$(( (cores - 1) * 9 / 15 ))}; [ "$nc" -ge 1 ] || nc=1
ns=${SHOGI_PROCS:-$(( cores - 1 - nc ))}; [ "$ns" -ge 1 ] || ns=1
pids=()
if "$W/k/node" --version >/dev/null 2>&1; then
  for i in $(seq 0 $((nc - 1))); do
    (cd "$W/k" && exec ./node bin/kishi.js datagen --game chess --out "$W/gen/chess-gpu" --positions 30000000 --nodes 1000 \
      --seed "${CHESS_SEED:-111}" --shard "$i/$nc" --games-per-chunk 20 --nnue models/chess-nnue.bin > "$W/gen/chess-$i.log" 2>&1) &
    pids+=($!)
  done
  for i in $(seq 0 $((ns - 1))); do
    (cd "$W/k" && exec ./node bin/kishi.js datagen --game shogi --out "$W/gen/shogi-gpu" --positions 20000000 --nodes 1000 \
      --seed "${SHOGI_SEED:-112}" --shard "$i/$ns" --games-per-chunk 20 --nnue models/shogi-nnue.bin > "$W/gen/shogi-$i.log" 2>&1) &
    pids+=($!)
  done
  say "datagen: $nc chess + $ns shogi processes for ${GEN}s"
  sleep "$GEN"
  kill "${pids[@]}" 2>/dev/null
  wait 2>/dev/null
  for g in chess shogi; do say "$g: $(ls "$W/gen/$g-gpu" 2>/dev/null | grep -c kdg) chunks; $(tail -c 300 "$W/gen/$g-0.log" | tr '\r' '\n' | tail -n 1)"; done
  # The data goes back first: a call stopped at its limit still returns what is in OUT.
  ( cd "$W/gen" && tar -c chess-gpu shogi-gpu ) | "${XZ[@]}" | split -b 15M -d -a 3 - "$OUT/data-"
  say "data packed: $(du -ch "$OUT"/data-* | tail -n 1)"
  ln -s "$W/gen/chess-gpu" "$W/data/chess-gpu"
  ln -s "$W/gen/shogi-gpu" "$W/data/shogi-gpu"
else
  say "node does not run here: no datagen, training on the carried data alone"
fi

if [ "$TRAIN" -le 0 ]; then
  say "no trainings (TRAIN_SECONDS 0)"
  exit 0
fi

# 2. Trainings on the GPU, all at once.
sets() { local d; for d in "$W/data/$1"-*; do [ -d "$d" ] && printf '%s ' "$d"; done; }
CHESS=$(sets chess)
SHOGI=$(sets shogi)
nn() { # name, trainer arguments...
  local name=$1
  shift
  local common=(--device cuda --threads 1 --val-every 20 --lambda 1.0 --batch 8192 --epochs 1000 --out "$W/nets/$name.bin" --checkpoint "$W/nets/$name.pt")
  timeout "$TRAIN" "$PY" trainer/nnue_train.py "$@" "${common[@]}" > "$W/nets/$name.log" 2>&1
  if [ ! -f "$W/nets/$name.bin" ] && [ -f "$W/nets/$name.pt" ]; then
    local ep
    ep=$("$PY" -c "import torch; print(torch.load('$W/nets/$name.pt', map_location='cpu', weights_only=False)['epoch'])")
    echo "$name: stopped after epoch $ep; exporting it" >> "$W/nets/$name.log"
    timeout 60 "$PY" trainer/nnue_train.py "$@" "${common[@]}" --epochs "$ep" --resume >> "$W/nets/$name.log" 2>&1
  fi
  say "$name done"
}
# The chunks decoded once per game by all cores (every candidate of a game reads the same cache).
"$PY" trainer/nnue_train.py --game chess --data $CHESS --val-every 20 --out "$W/nets/x.bin" --cache "$W/cache/chess" --cache-only --load-workers 7 > "$W/nets/cache-chess.log" 2>&1 &
"$PY" trainer/nnue_train.py --game shogi --features king-zone --data $SHOGI --val-every 20 --out "$W/nets/x.bin" --cache "$W/cache/shogi-kz" --cache-only --load-workers 8 > "$W/nets/cache-shogi.log" 2>&1 &
wait
say "decoded: $(grep -h 'training positions' "$W"/nets/cache-*.log | tr '\n' ' ')"
# $CHESS / $SHOGI unquoted: one argument per data directory. K as in the shipped manifests (235, 1155).
nn chess-h128 --cache "$W/cache/chess" --game chess --data $CHESS --hidden 128 --k 235 --steps 6000 &
nn chess-h256 --cache "$W/cache/chess" --game chess --data $CHESS --hidden 256 --k 235 --steps 6000 &
nn chess-h512 --cache "$W/cache/chess" --game chess --data $CHESS --hidden 512 --k 235 --steps 6000 &
nn shogi-kz-h64 --cache "$W/cache/shogi-kz" --game shogi --features king-zone --data $SHOGI --hidden 64 --k 1155 --steps 6000 &
nn shogi-kz-h128 --cache "$W/cache/shogi-kz" --game shogi --features king-zone --data $SHOGI --hidden 128 --k 1155 --steps 6000 &
nn shogi-kz-h256 --cache "$W/cache/shogi-kz" --game shogi --features king-zone --data $SHOGI --hidden 256 --k 1155 --steps 6000 &
wait

# 3. The nets back (the data went into OUT before the trainings).
( cd "$W/nets" && tar -c *.bin *.json *.log ) | "${XZ[@]}" > "$OUT/nets.tar.xz"
ls -l "$OUT"
for f in "$W"/nets/*.log; do echo "== $(basename "$f")"; grep -v '^$' "$f" | tail -n 3 | cut -c1-240; done
say "done"
