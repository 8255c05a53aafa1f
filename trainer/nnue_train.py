#!/usr/bin/env python3
"""Trainer of the alpha-beta network evaluation (issue 18; inference in src/eval/nnue/).

Reads `kishi datagen` chunks (format: src/learning/datagen/README.md), trains the (F -> H) x 2
perspective network with sparse inputs (an EmbeddingBag sums the active feature rows), and exports
the quantised network file (src/eval/nnue/format.ts) with a manifest holding reference outputs
computed here with the same integer arithmetic as the TypeScript inference (the loader checks them
bit-exact before the engine uses the net).

  python3 trainer/nnue_train.py --game chess --data /path/to/chunks --hidden 64 --epochs 10 \\
      --out models/chess-nnue.bin [--checkpoint ckpt.pt] [--resume] [--device cpu|cuda]

Feature sets (`--features`): `base` (chess 768; shogi board + hand, 2344); for chess `king-bucket-4`
(base x 4 own-king buckets, mirrored a <-> h, 3072, trained with a factoriser; src/eval/nnue/chess-king-features.ts);
and for shogi `king-zone`
(base + the pieces in the 5x5 zone of each perspective's own king, 3016; the shipped shogi net) and
`king-bucket-9` (base x 9 own-king buckets, mirrored, 21096, trained with a factoriser and
`--bucket-decay`); the TypeScript side is src/eval/nnue/shogi-king-*.ts.

Loss (nnue-pytorch / bullet style): prediction sigmoid(out * SCALE / K), target
lambda * sigmoid(score / K) + (1 - lambda) * result, mean squared error. K is fitted to the data
(the scale at which sigmoid(score / K) best predicts the results, by cross-entropy) unless given.
Validation also scores the net's expected score sigmoid(out * SCALE / K) against the game results
(`val_result_mse`, `val_result_xent`; and once, the data's search scores the same way), which is what
MCTS reads as its value (src/search/mcts/cpu-evaluator.ts: v = 2 sigmoid(cp / K) - 1), comparable
between runs of any `--lambda`. A value trained for MCTS (issue 42): `--lambda 0` (the results alone,
so that Q is an expected score rather than squashed centipawns), written beside the policy network as
models/<game>-mcts-value.bin and named by the config's `engine.<game>Model` (UCI/USI `ModelFile`);
alpha-beta keeps its own net.
Learning rate: AdamW, linear warm-up then cosine decay to `--lr-end`. Validation: every
`--val-every`-th chunk is held out (whole chunks, so whole games). Checkpoints (model, optimiser,
epoch, K) are written atomically after every epoch and resumed with `--resume`.
"""
from __future__ import annotations

import argparse
import datetime
import glob
import inspect
import json
import math
import os
import struct
import subprocess
import sys
import time
import zlib

import numpy as np

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))

CHESS_FEATURES = 768
SHOGI_BOARD_FEATURES = 2 * 14 * 81
HAND_MAX = [0, 18, 4, 4, 4, 2, 2, 4]
HAND_OFFSET = [0, 0, 18, 22, 26, 30, 32, 34]
HAND_PER_SIDE = 38
SHOGI_FEATURES = SHOGI_BOARD_FEATURES + 2 * HAND_PER_SIDE
FEATURES = {"chess": CHESS_FEATURES, "shogi": SHOGI_FEATURES}
RECORD = {"chess": 32, "shogi": 64}
MAX_ACTIVE = {"chess": 32, "shogi": 40}
QA, QB = 255, 64

# Feature sets (src/eval/nnue/network.ts): "base" (piece-square, shogi board + hand; file version 1) and, for shogi, "king-bucket-9"
# (file version 2; src/eval/nnue/shogi-king-features.ts): the board-hand features of a perspective,
# mirrored left-right when its own king stands right of the centre file, repeated for 9 buckets of
# that king's square (HalfKP-style king-relative inputs, coarse enough for a million positions).
FEATURE_SET_IDS = {"base": 0, "king-bucket-9": 1, "king-zone": 2, "king-bucket-4": 3}
# king-zone (src/eval/nnue/shogi-king-zone-features.ts): the base features plus, per perspective, each
# piece in the 5x5 zone around its own king by (own/their, type, offset): 2344 + 2 * 14 * 24 = 3016.
KZ_OFFSETS = 24
KZ_FEATURES = SHOGI_FEATURES + 2 * 14 * KZ_OFFSETS
KB_BUCKETS = 9


def kb_tables() -> tuple[np.ndarray, np.ndarray]:
    """Bucket and mirror flag of each own-king square relative to its perspective (row 8 = own back rank)."""
    bucket = np.zeros(81, dtype=np.int64)
    mirror = np.zeros(81, dtype=np.int64)
    for rel in range(81):
        r, c = divmod(rel, 9)
        m = min(c, 8 - c)
        rz = 0 if r == 8 else 1 if r == 7 else 2
        mz = 0 if m <= 1 else 1 if m <= 3 else 2
        bucket[rel] = rz * 3 + mz
        mirror[rel] = 1 if c > 4 else 0
    return bucket, mirror


KB_BUCKET, KB_MIRROR = kb_tables()
# king-bucket-4 (chess; src/eval/nnue/chess-king-features.ts): the 768 features of a perspective, mirrored
# a <-> h when its own king stands on files e-h, per bucket of that king's square (own side's view, after
# the mirroring): rank 1 files a-b, rank 1 files c-d, rank 2, ranks 3-8.
CKB_BUCKETS = 4
CKB_BUCKET = np.array([(0 if min(r & 7, 7 - (r & 7)) < 2 else 1) if r < 8 else 2 if r < 16 else 3 for r in range(64)], dtype=np.int64)
CKB_MIRROR = np.array([1 if (r & 7) >= 4 else 0 for r in range(64)], dtype=np.int64)
# Own-king square (relative) assumed when a perspective has no king: its start square 5i.
NO_KING_REL = 76


# ------------------------------------------------------------------------------------------------
# 1. Chunks and records
# ------------------------------------------------------------------------------------------------

def read_chunk(path: str, game: str) -> np.ndarray:
    """The records of one chunk as an (N, record size) uint8 array; raises ValueError when bad."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 32 or data[:4] != b"KDG1":
        raise ValueError(f"{path}: not a datagen chunk")
    version, game_code, rb, count, chunk_index, shard, shards, games, seed, crc = struct.unpack_from("<BBHIIHHIII", data, 4)
    if version != 1:
        raise ValueError(f"{path}: format version {version}, this trainer reads 1")
    if ("chess" if game_code == 0 else "shogi") != game:
        raise ValueError(f"{path}: not a {game} chunk")
    if rb != RECORD[game]:
        raise ValueError(f"{path}: record size {rb}")
    expected = 32 + count * rb
    if len(data) != expected:
        raise ValueError(f"{path}: truncated or padded: {len(data)} bytes, header announces {expected}")
    if zlib.crc32(data[32:]) != crc:
        raise ValueError(f"{path}: checksum mismatch")
    return np.frombuffer(data, dtype=np.uint8, offset=32).reshape(count, rb)


def chunk_games(path: str) -> int:
    """The games a chunk's header counts (0 for chunks made from policy labels, which hold no game results);
    -1 for a file too short for a header, which read_chunk then reports."""
    with open(path, "rb") as f:
        head = f.read(32)
    return struct.unpack_from("<I", head, 20)[0] if len(head) == 32 else -1


def chunk_files(dirs: list[str], game: str) -> list[str]:
    files: list[str] = []
    for d in dirs:
        files += sorted(f for f in glob.glob(os.path.join(d, f"{game}-s*of*-c*.kdg")) if ".tmp" not in os.path.basename(f))
    return files


def decode_chess(rec: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """pieces (N, 64) piece codes (colour << 3 | type), stm, score, result (0..2) from chess records."""
    n = rec.shape[0]
    occ = np.unpackbits(rec[:, 0:8], axis=1, bitorder="little").astype(bool)
    nib = np.empty((n, 32), dtype=np.uint8)
    nib[:, 0::2] = rec[:, 8:24] & 15
    nib[:, 1::2] = rec[:, 8:24] >> 4
    k = np.cumsum(occ, axis=1) - 1
    pieces = np.where(occ, np.take_along_axis(nib, np.clip(k, 0, 31), axis=1), 0).astype(np.int64)
    stm = rec[:, 24].astype(np.int64)
    score = rec[:, 28:30].copy().view("<i2").reshape(n).astype(np.float32)
    result = rec[:, 30].astype(np.float32)
    return pieces, stm, score, result


def decode_shogi(rec: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """pieces (N, 81) as side * 16 + type (0 empty), hands (N, 14), stm, score, result from shogi records."""
    n = rec.shape[0]
    occ = np.unpackbits(rec[:, 0:11], axis=1, bitorder="little")[:, :81].astype(bool)
    bits = np.unpackbits(rec[:, 11:36], axis=1, bitorder="little").reshape(n, 40, 5).astype(np.int64)
    codes = (bits * (1 << np.arange(5))).sum(axis=2)  # bit 4 = white, bits 0..3 = type
    k = np.cumsum(occ, axis=1) - 1
    c = np.take_along_axis(codes, np.clip(k, 0, 39), axis=1)
    pieces = np.where(occ, c, 0)
    hands = rec[:, 36:50].astype(np.int64)
    stm = rec[:, 50].astype(np.int64)
    score = rec[:, 54:56].copy().view("<i2").reshape(n).astype(np.float32)
    result = rec[:, 56].astype(np.float32)
    return pieces, hands, stm, score, result


def chess_features(pieces: np.ndarray, stm: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Active feature indices (N, 32) of the side to move's and the opponent's perspective, padded with F."""
    n = pieces.shape[0]
    sq = np.arange(64)[None, :].repeat(n, axis=0)
    color = pieces >> 3
    typ = pieces & 7
    occ = pieces != 0
    out = []
    for persp in (stm, 1 - stm):
        p = persp[:, None]
        rel = np.where(p == 0, sq, sq ^ 56)
        idx = (np.where(color == p, 0, 6) + typ - 1) * 64 + rel
        idx = np.where(occ, idx, CHESS_FEATURES)
        # Active first: a stable sort on "is padding" keeps at most 32 columns.
        order = np.argsort(~occ, axis=1, kind="stable")[:, :32]
        out.append(np.take_along_axis(idx, order, axis=1).astype(np.int16 if CHESS_FEATURES < 32767 else np.int32))
    return out[0], out[1]


def own_king_rel(pieces: np.ndarray, stm: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each perspective's own king square relative to it (side to move's, opponent's), NO_KING_REL if absent."""
    out = []
    for persp in (stm, 1 - stm):
        p = persp[:, None]
        own_king = (pieces == (p * 16 + 8))
        has = own_king.any(axis=1)
        sq = own_king.argmax(axis=1)
        rel = np.where(persp == 0, sq, 80 - sq)
        out.append(np.where(has, rel, NO_KING_REL).astype(np.int8))
    return out[0], out[1]


def shogi_features(pieces: np.ndarray, hands: np.ndarray, stm: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Active board-hand feature indices (N, 40) per perspective (side to move's, opponent's), padded with F."""
    n = pieces.shape[0]
    sq = np.arange(81)[None, :].repeat(n, axis=0)
    side = pieces >> 4
    typ = pieces & 15
    occ = pieces != 0
    # Hand "at least k" features: (side, type, k) for k <= count.
    hk_side, hk_type, hk_k = [], [], []
    for s in range(2):
        for t in range(1, 8):
            for k in range(1, HAND_MAX[t] + 1):
                hk_side.append(s)
                hk_type.append(t)
                hk_k.append(k)
    hk_side = np.array(hk_side)
    hk_type = np.array(hk_type)
    hk_k = np.array(hk_k)
    active_h = hands[:, hk_side * 7 + hk_type - 1] >= hk_k[None, :]
    out = []
    for persp in (stm, 1 - stm):
        p = persp[:, None]
        rel = np.where(p == 0, sq, 80 - sq)
        bidx = np.where(occ, (np.where(side == p, 0, 14) + typ - 1) * 81 + rel, SHOGI_FEATURES)
        hidx = SHOGI_BOARD_FEATURES + np.where(hk_side[None, :] == p, 0, HAND_PER_SIDE) + np.array(HAND_OFFSET)[hk_type][None, :] + hk_k[None, :] - 1
        hidx = np.where(active_h, hidx, SHOGI_FEATURES)
        allidx = np.concatenate([bidx, hidx], axis=1)
        act = np.concatenate([occ, active_h], axis=1)
        order = np.argsort(~act, axis=1, kind="stable")[:, :40]
        out.append(np.take_along_axis(allidx, order, axis=1).astype(np.int16))
    return out[0], out[1]


def mirror_map(game: str) -> np.ndarray:
    """Feature permutation of the left-right mirror (files a<->h, shogi files 9<->1); padding maps to itself.

    Both games' evaluations are symmetric under it (chess castling rights are not network inputs), so
    mirrored positions are extra training data with the same labels.
    """
    f = FEATURES[game]
    m = np.arange(f + 1)
    if game == "chess":
        m[:f] = m[:f] ^ 7
    else:
        k, rel = np.divmod(np.arange(SHOGI_BOARD_FEATURES), 81)
        rank, col = np.divmod(rel, 9)
        m[:SHOGI_BOARD_FEATURES] = k * 81 + rank * 9 + (8 - col)
    return m


def load_chunk(path: str, game: str, zone: bool):
    """Feature indices of both perspectives, scores, results (0, 0.5, 1), records and own-king squares of one chunk."""
    rec = read_chunk(path, game)
    if game == "chess":
        pieces, stm, score, result = decode_chess(rec)
        us, them = chess_features(pieces, stm)
        kus = kthem = np.zeros(len(stm), dtype=np.int8)
    else:
        pieces, hands, stm, score, result = decode_shogi(rec)
        us, them = shogi_features(pieces, hands, stm)
        kus, kthem = own_king_rel(pieces, stm)
        if zone:
            us, them = king_zone(pieces, stm, us, them, kus, kthem)
    return us, them, score, result / 2.0, rec, kus, kthem


def _load_chunk_args(a):
    return load_chunk(*a)


def load_data(files: list[str], game: str, zone: bool = False, workers: int = 1):
    """load_chunk of every file, concatenated in file order (the same arrays whatever the worker count)."""
    jobs = [(f, game, zone) for f in files]
    if workers > 1 and len(files) > 1:
        import multiprocessing
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            parts = pool.map(_load_chunk_args, jobs, chunksize=4)
    else:
        parts = [load_chunk(*j) for j in jobs]
    parts = [p for p in parts if len(p[0])]
    return tuple(np.concatenate([p[i] for p in parts]) for i in range(7))


FIELDS = ("us", "them", "score", "result", "rec", "kus", "kthem")


def cached_data(files: list[str], game: str, zone: bool, workers: int, cache: str | None):
    """load_data, kept in (or read back from) the folder `cache` when given: trainings of several sizes on
    the same chunks decode them once. The cache holds the file list it was made from and is remade
    when that differs."""
    key = {"files": [os.path.abspath(f) for f in files], "sizes": [os.path.getsize(f) for f in files], "game": game, "zone": zone}
    meta = os.path.join(cache, "meta.json") if cache else None
    if meta and os.path.exists(meta):
        with open(meta) as f:
            if json.load(f) == key:
                return tuple(np.load(os.path.join(cache, f"{n}.npy"), mmap_mode="r") for n in FIELDS)
    data = load_data(files, game, zone, workers)
    if cache:
        os.makedirs(cache, exist_ok=True)
        for n, a in zip(FIELDS, data):
            tmp = os.path.join(cache, f"{n}.tmp-{os.getpid()}.npy")
            np.save(tmp, a)
            os.replace(tmp, os.path.join(cache, f"{n}.npy"))
        atomic_write(meta, json.dumps(key).encode())
    return data


def king_zone(pieces: np.ndarray, stm: np.ndarray, base_us: np.ndarray, base_them: np.ndarray, kus: np.ndarray, kthem: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """king-zone indices (N, 64) per perspective: the base rows (padding moved to KZ_FEATURES) then the zone rows."""
    n = pieces.shape[0]
    sq = np.arange(81)[None, :].repeat(n, axis=0)
    side = pieces >> 4
    typ = pieces & 15
    occ = pieces != 0
    out = []
    for persp, base, k in ((stm, base_us, kus), (1 - stm, base_them, kthem)):
        p = persp[:, None]
        rel = np.where(p == 0, sq, 80 - sq)
        kk = k.astype(np.int64)[:, None]
        dr = rel // 9 - kk // 9
        dc = rel % 9 - kk % 9
        inside = occ & (np.abs(dr) <= 2) & (np.abs(dc) <= 2) & ~((dr == 0) & (dc == 0))
        o = (dr + 2) * 5 + dc + 2
        o = np.where(o > 12, o - 1, o)
        zidx = np.where(inside, SHOGI_FEATURES + (np.where(side == p, 0, 14) + typ - 1) * KZ_OFFSETS + o, KZ_FEATURES)
        order = np.argsort(~inside, axis=1, kind="stable")[:, :24]
        z = np.take_along_axis(zidx, order, axis=1)
        b = np.where(base == SHOGI_FEATURES, KZ_FEATURES, base.astype(np.int64))
        out.append(np.concatenate([b, z], axis=1).astype(np.int16))
    return out[0], out[1]


def kz_mirror_map() -> np.ndarray:
    """The left-right mirror of king-zone indices (offsets' columns flipped); padding maps to itself."""
    m = np.arange(KZ_FEATURES + 1)
    m[:SHOGI_FEATURES] = mirror_map("shogi")[:SHOGI_FEATURES]
    for cls in range(28):
        for o in range(KZ_OFFSETS):
            cell = o if o < 12 else o + 1
            dr, dc = divmod(cell, 5)
            mc = dr * 5 + (4 - dc)
            mo = mc if mc < 12 else mc - 1
            m[SHOGI_FEATURES + cls * KZ_OFFSETS + o] = SHOGI_FEATURES + cls * KZ_OFFSETS + mo
    return m


def king_bucketed(base: np.ndarray, king_rel: np.ndarray, mirror: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """king-bucket-9 indices of board-hand rows `base` (N, 40; padding SHOGI_FEATURES) whose perspective's
    own king stands on `king_rel` (N): (bucketed index, padding KB_BUCKETS * SHOGI_FEATURES; the mirrored
    board-hand index, the factoriser's input)."""
    flip = KB_MIRROR[king_rel.astype(np.int64)][:, None] == 1
    b = base.astype(np.int64)
    canon = np.where(flip, mirror[b], b)
    idx = np.where(canon == SHOGI_FEATURES, KB_BUCKETS * SHOGI_FEATURES, KB_BUCKET[king_rel.astype(np.int64)][:, None] * SHOGI_FEATURES + canon)
    return idx, canon


def chess_king_bucketed(base: np.ndarray, mirror: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """king-bucket-4 indices of chess base rows `base` (N, 32; padding CHESS_FEATURES): (bucketed index,
    padding CKB_BUCKETS * CHESS_FEATURES; the mirrored base index, the factoriser's input). The
    perspective's own king is the row's feature in 320..383 (own king, its relative square)."""
    b = base.astype(np.int64)
    own_king = (b >= 5 * 64) & (b < 6 * 64)
    king = np.where(own_king, b - 5 * 64, -1).max(axis=1)
    flip = CKB_MIRROR[king][:, None] == 1
    canon = np.where(flip, mirror[b], b)
    idx = np.where(canon == CHESS_FEATURES, CKB_BUCKETS * CHESS_FEATURES, CKB_BUCKET[king][:, None] * CHESS_FEATURES + canon)
    return idx, canon


# ------------------------------------------------------------------------------------------------
# 2. Positions as text (for the manifest's reference outputs)
# ------------------------------------------------------------------------------------------------

def board_field(cells: np.ndarray, rows, width: int, letter) -> str:
    """A FEN/SFEN board field: `rows` of `width` cells (0 empty, else `letter(piece)`), empties as digits."""
    out = []
    for r in rows:
        row, empty = "", 0
        for c in range(width):
            p = int(cells[r * width + c])
            if p == 0:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += letter(p)
        out.append(row + (str(empty) if empty else ""))
    return "/".join(out)


def chess_fen(rec: np.ndarray) -> str:
    pieces, stm, _, _ = decode_chess(rec[None, :])

    def letter(p: int) -> str:
        ch = " pnbrqk"[p & 7]
        return ch.upper() if (p >> 3) == 0 else ch

    board = board_field(pieces[0], range(7, -1, -1), 8, letter)
    return f"{board} {'w' if stm[0] == 0 else 'b'} - - {int(rec[25])} {int(rec[26]) | (int(rec[27]) << 8)}"


SFEN_LETTERS = ["", "p", "l", "n", "s", "b", "r", "g", "k", "+p", "+l", "+n", "+s", "+b", "+r"]
HAND_ORDER = [6, 5, 7, 4, 3, 2, 1]  # rook, bishop, gold, silver, knight, lance, pawn


def shogi_sfen(rec: np.ndarray) -> str:
    pieces, hands, stm, _, _ = decode_shogi(rec[None, :])

    def letter(p: int) -> str:
        s = SFEN_LETTERS[p & 15]
        return s.upper() if (p >> 4) == 0 else s

    board = board_field(pieces[0], range(9), 9, letter)
    hand = ""
    for side in range(2):
        for t in HAND_ORDER:
            n = int(hands[0, side * 7 + t - 1])
            if n:
                name = SFEN_LETTERS[t].upper() if side == 0 else SFEN_LETTERS[t]
                hand += (str(n) if n > 1 else "") + name
    ply = int(rec[52]) | (int(rec[53]) << 8)
    return f"{board} {'b' if stm[0] == 0 else 'w'} {hand or '-'} {ply + 1}"


# ------------------------------------------------------------------------------------------------
# 3. Quantisation and integer inference (must equal src/eval/nnue/network.ts)
# ------------------------------------------------------------------------------------------------

def quantise(state: dict, activation: str) -> dict:
    w = state["ft.weight"].numpy()[:-1]  # last row: padding
    if "ft_f.weight" in state:
        # The factoriser's rows (the board-hand features shared by all king buckets) fold into every bucket.
        f = state["ft_f.weight"].numpy()[:-1]
        w = (w.reshape(-1, f.shape[0], f.shape[1]) + f[None]).reshape(-1, f.shape[1])
    w1 = np.round(w * QA).astype(np.int64)
    b1 = np.round(state["ft_bias"].numpy() * QA).astype(np.int64)
    # out.weight is (buckets, 2H): row-major, bucket b's 2H weights at b * 2H, as the file stores them.
    w2 = np.round(state["out.weight"].numpy().reshape(-1) * QB).astype(np.int64)
    b2 = np.round(state["out.bias"].numpy().astype(np.float64) * QA * QB).astype(np.int64)
    for name, a in (("feature weights", w1), ("feature biases", b1), ("output weights", w2)):
        if np.abs(a).max() > 32767:
            raise ValueError(f"{name} overflow int16 after quantisation (max {np.abs(a).max()})")
    return {"w1": w1, "b1": b1, "w2": w2, "b2": b2, "activation": activation}


def output_bucket(us, features: int, buckets: int):
    """The output bucket of each row of padded index rows (a NumPy array or a torch tensor): chess's base
    features are one per piece, so the row's count of real features is its piece count
    (src/eval/nnue/network.ts, outputBucket)."""
    pieces = (us != features).sum(1)
    return (((pieces - 2) * buckets) // 32).clip(0, buckets - 1)


def int_output(q: dict, us: np.ndarray, them: np.ndarray, scale: int) -> np.ndarray:
    """Exact integer outputs for padded index rows (padding = number of features)."""
    w1 = np.concatenate([q["w1"], np.zeros((1, q["w1"].shape[1]), dtype=np.int64)])
    h = w1.shape[1]

    def acc(idx: np.ndarray) -> np.ndarray:
        a = q["b1"][None, :] + w1[idx.astype(np.int64)].sum(axis=1)
        # int16 storage: the TS accumulator wraps like this (the sums stay far inside int16 in practice).
        return ((a + 32768) % 65536) - 32768

    a_us = np.clip(acc(us), 0, QA)
    a_them = np.clip(acc(them), 0, QA)
    nb = len(q["b2"])
    bucket = output_bucket(us, w1.shape[0] - 1, nb)
    w2 = q["w2"].reshape(nb, 2 * h)[bucket]
    if q["activation"] == "screlu":
        s = (a_us * a_us * w2[:, :h]).sum(axis=1) + (a_them * a_them * w2[:, h:]).sum(axis=1)
        s = np.sign(s) * (np.abs(s) // QA)  # truncation toward zero, as Math.trunc
    else:
        s = (a_us * w2[:, :h]).sum(axis=1) + (a_them * w2[:, h:]).sum(axis=1)
    t = (s + q["b2"][bucket]) * scale
    return np.sign(t) * (np.abs(t) // (QA * QB))


def write_network(path: str, game: str, q: dict, scale: int, feature_set: str = "base") -> bytes:
    f, h = q["w1"].shape
    fs = FEATURE_SET_IDS[feature_set]
    nb = len(q["b2"])
    # Version 3: output buckets, their biases after the output weights (src/eval/nnue/format.ts).
    version = 3 if nb > 1 else 1 if fs == 0 else 2
    head = b"KNUE" + struct.pack("<HBBIIIIIi", version, 0 if game == "chess" else 1, 0 if q["activation"] == "crelu" else 1, f, h, QA, QB, scale, 0 if nb > 1 else int(q["b2"][0]))
    if version != 1:
        head += struct.pack("<I", fs)
    if version == 3:
        head += struct.pack("<I", nb)
    body = q["w1"].astype("<i2").tobytes() + q["b1"].astype("<i2").tobytes() + q["w2"].astype("<i2").tobytes()
    if version == 3:
        body += q["b2"].astype("<i4").tobytes()
    data = head + body
    data += struct.pack("<I", zlib.crc32(data))
    atomic_write(path, data)
    return data


def read_network(path: str) -> dict:
    """The integer weights of a network file written by write_network (ValueError when it is not one)."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 36 or data[:4] != b"KNUE":
        raise ValueError(f"{path}: not a network file")
    if zlib.crc32(data[:-4]) != struct.unpack_from("<I", data, len(data) - 4)[0]:
        raise ValueError(f"{path}: checksum mismatch")
    version, game, act, f, h, qa, qb, scale, b2 = struct.unpack_from("<HBBIIIIIi", data, 4)
    off, fs, nb = 32, 0, 1
    if version in (2, 3):
        fs = struct.unpack_from("<I", data, 32)[0]
        off = 36
    if version == 3:
        nb = struct.unpack_from("<I", data, 36)[0]
        off = 40
    if (qa, qb) != (QA, QB) or len(data) != off + 2 * f * h + 2 * h + 4 * h * nb + (4 * nb if version == 3 else 0) + 4:
        raise ValueError(f"{path}: sizes do not match (F {f}, H {h}, QA {qa}, QB {qb}, {nb} output buckets, {len(data)} bytes)")
    body = np.frombuffer(data, dtype="<i2", offset=off, count=f * h + h + 2 * h * nb).astype(np.int64)
    if version == 3:
        biases = np.frombuffer(data, dtype="<i4", offset=off + 2 * len(body), count=nb).astype(np.int64)
    else:
        biases = np.array([b2], dtype=np.int64)
    names = {v: k for k, v in FEATURE_SET_IDS.items()}
    return {"game": "chess" if game == 0 else "shogi", "features": f, "hidden": h, "feature_set": names.get(fs, str(fs)),
            "activation": "crelu" if act == 0 else "screlu", "scale": scale, "w1": body[: f * h].reshape(f, h),
            "b1": body[f * h : f * h + h], "w2": body[f * h + h :], "b2": biases, "buckets": nb}


def atomic_write(path: str, data: bytes) -> None:
    tmp = f"{path}.tmp-{os.getpid()}"
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def portable_arg(a: str) -> str:
    """A command-line argument for the manifest: paths inside the repository relative to it, other
    absolute paths as `$DATA/<last component>` (a manifest names no machine's directories)."""
    if not os.path.isabs(a):
        return a
    rel = os.path.relpath(a, REPO)
    return rel if not rel.startswith("..") else "$DATA/" + os.path.basename(os.path.normpath(a))


def git_commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True, text=True, check=True).stdout.strip()
    except Exception:  # noqa: BLE001 - provenance is best effort
        return "unknown"


# ------------------------------------------------------------------------------------------------
# 4. Training
# ------------------------------------------------------------------------------------------------

def fit_scale(score: np.ndarray, result: np.ndarray) -> float:
    """K minimising the cross-entropy of sigmoid(score / K) against the results (golden-section search)."""
    s = score.astype(np.float64)
    r = result.astype(np.float64)

    def loss(k: float) -> float:
        p = 1 / (1 + np.exp(-s / k))
        p = np.clip(p, 1e-6, 1 - 1e-6)
        return float(-(r * np.log(p) + (1 - r) * np.log(1 - p)).mean())

    lo, hi = 20.0, 2000.0
    g = (math.sqrt(5) - 1) / 2
    a, b = hi - g * (hi - lo), lo + g * (hi - lo)
    for _ in range(60):
        if loss(a) < loss(b):
            hi = b
        else:
            lo = a
        a, b = hi - g * (hi - lo), lo + g * (hi - lo)
    return (lo + hi) / 2


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", choices=["chess", "shogi"], required=True)
    ap.add_argument("--data", nargs="+", required=True, help="directories of datagen chunks")
    ap.add_argument("--out", required=True, help="network file to write (.bin); the manifest goes beside it")
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--features", choices=sorted(FEATURE_SET_IDS), default="base",
                    help="input feature set; king-bucket-4 (chess) and king-bucket-9 (shogi) train with a factoriser (the base rows shared by all buckets), folded in at export")
    ap.add_argument("--activation", choices=["crelu", "screlu"], default="screlu")
    ap.add_argument("--output-buckets", type=int, default=1,
                    help="chess: output layers chosen by the piece count ((pieces - 2) * B / 32); --init from a net without buckets copies its output layer into each")
    ap.add_argument("--scale", type=int, default=400, help="centipawns per unit of the float output")
    ap.add_argument("--k", type=float, default=None, help="sigmoid scale of the scores (default: fitted)")
    ap.add_argument("--lambda", dest="lam", type=float, default=1.0, help="share of the search score in the target (rest: game result); from scratch on early 1000-node data 1.0 measured +160 Elo over 0.7, but retraining shogi generation 4 (--init) on 3M positions 0.7 measured +147 over 1.0's +0 (docs/experiments/2026-11-30-generations-9-and-5.md); chess gained nothing from 0.7 or 0.9")
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--steps", type=int, default=None, help="stop after this many steps in total (tests)")
    ap.add_argument("--batch", type=int, default=4096)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--lr-end", type=float, default=2e-5)
    ap.add_argument("--warmup", type=int, default=200, help="warm-up steps")
    ap.add_argument("--weight-decay", type=float, default=1e-6)
    ap.add_argument("--bucket-decay", type=float, default=None,
                    help="king-bucket-4/9: AdamW weight decay of the bucket rows only (pulls them toward the shared factoriser rows; default --weight-decay)")
    ap.add_argument("--val-every", type=int, default=20, help="every n-th chunk is validation")
    ap.add_argument("--max-chunks", type=int, default=None, help="use only the first n chunks")
    ap.add_argument("--checkpoint", default=None)
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--device", choices=["auto", "cpu", "cuda"], default="auto")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--init", default=None, help="start from this network file (same game, features and activation; "
                    "a narrower one fills the first units, the new units start with zero output weights; a base net, or a shogi "
                    "king-zone net's base rows, starts a king-bucketed one as its factoriser)")
    ap.add_argument("--load-workers", type=int, default=1, help="processes decoding the chunks")
    ap.add_argument("--cache", default=None, help="folder keeping the decoded chunks for later trainings on the same files")
    ap.add_argument("--cache-only", action="store_true", help="fill --cache and stop")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--references", type=int, default=16, help="reference positions in the manifest")
    ap.add_argument("--report", default=None, help="write the training report (JSON) here")
    ap.add_argument("--no-mirror", dest="mirror", action="store_false", help="no left-right mirror augmentation")
    ap.add_argument("--export", choices=["last", "best"], default="best", help="export the last epoch or the one with the lowest validation loss")
    args = ap.parse_args()
    # The output folders are made now, not at export: a missing one must not cost the training.
    for path in (args.out, args.checkpoint):
        if path:
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)

    import torch
    import torch.nn as nn

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    device = "cuda" if args.device == "cuda" or (args.device == "auto" and torch.cuda.is_available()) else "cpu"

    kb = args.features in ("king-bucket-9", "king-bucket-4")
    kz = args.features == "king-zone"
    if args.features != "base" and (args.game == "chess") != (args.features == "king-bucket-4"):
        print(f"--features {args.features} is not a {args.game} feature set", file=sys.stderr)
        return 2
    NB = args.output_buckets
    if not 1 <= NB <= 16 or (NB > 1 and args.game != "chess"):
        print(f"--output-buckets {NB}: 1 to 16, and more than 1 only for chess", file=sys.stderr)
        return 2
    files = chunk_files(args.data, args.game)
    if args.max_chunks is not None:
        files = files[: args.max_chunks]
    if not files:
        print(f"no {args.game} chunks in {args.data}", file=sys.stderr)
        return 2
    no_results = sum(1 for f in files if chunk_games(f) == 0)
    if no_results and (args.lam != 1.0 or args.k is None):
        print(f"{no_results} chunks hold no game results (made from policy labels): train them with --lambda 1.0 and a given --k", file=sys.stderr)
        return 2
    val_files = files[args.val_every - 1 :: args.val_every] if len(files) >= args.val_every else files[-1:]
    train_files = [f for f in files if f not in set(val_files)] or files
    t0 = time.time()
    tr = cached_data(train_files, args.game, kz, args.load_workers, args.cache and os.path.join(args.cache, "train"))
    va = cached_data(val_files, args.game, kz, args.load_workers, args.cache and os.path.join(args.cache, "val"))
    print(f"{len(tr[0])} training positions ({len(train_files)} chunks), {len(va[0])} validation ({len(val_files)} chunks), loaded in {time.time() - t0:.1f}s", file=sys.stderr)
    if args.cache_only:
        return 0

    BASE = FEATURES[args.game]
    NKB = CKB_BUCKETS if args.game == "chess" else KB_BUCKETS
    F = NKB * BASE if kb else KZ_FEATURES if kz else BASE
    H = args.hidden

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.ft = nn.EmbeddingBag(F + 1, H, mode="sum", padding_idx=F)
            # king buckets: the factoriser, one row per base feature added to all its buckets'
            # rows, so that what does not depend on the king is learnt from every position (as
            # nnue-pytorch's "virtual" features); the bucket rows start at zero.
            self.ft_f = nn.EmbeddingBag(BASE + 1, H, mode="sum", padding_idx=BASE) if kb else None
            self.ft_bias = nn.Parameter(torch.zeros(H))
            self.out = nn.Linear(2 * H, NB)
            with torch.no_grad():
                if kb:
                    self.ft.weight.zero_()
                    self.ft_f.weight.uniform_(-0.1, 0.1)
                    self.ft_f.weight[BASE].zero_()
                else:
                    self.ft.weight.uniform_(-0.1, 0.1)
                self.ft.weight[F].zero_()
                self.ft_bias.fill_(0.1)
                self.out.weight.uniform_(-0.1, 0.1)
                self.out.bias.zero_()

        def forward(self, us: torch.Tensor, them: torch.Tensor, fus=None, fthem=None) -> torch.Tensor:
            a = self.ft(us) + self.ft_bias
            b = self.ft(them) + self.ft_bias
            if self.ft_f is not None:
                a = a + self.ft_f(fus)
                b = b + self.ft_f(fthem)
            a = torch.clamp(a, 0, 1)
            b = torch.clamp(b, 0, 1)
            if args.activation == "screlu":
                a, b = a * a, b * b
            y = self.out(torch.cat([a, b], dim=1))
            if NB == 1:
                return y.squeeze(1)
            return y.gather(1, output_bucket(us, F, NB)[:, None]).squeeze(1)

    net = Net()
    if args.init:
        # Retraining a previous net on new data (as Stockfish's nets are made from their predecessors): the
        # integer weights back to floats; extra units (widening, net2net-style) keep their random input
        # weights and get zero output weights, so the widened net starts as the old one's function.
        q0 = read_network(args.init)
        nb0 = q0["buckets"]
        # A base net starts a king-bucketed one as its factoriser (the bucket rows stay zero): the same function
        # wherever the mirroring does not matter. A shogi king-zone net gives its base rows only (its zone rows,
        # the pieces around the own king, have no place in king-bucket-9: the bucket rows learn them anew).
        into_factoriser = kb and q0["feature_set"] in ("base", "king-zone")
        src_set = q0["feature_set"] if into_factoriser else args.features
        src_features = {"base": BASE, "king-zone": KZ_FEATURES}[src_set] if into_factoriser else F
        fit = (args.game, src_features, src_set, args.activation, args.scale)
        if (q0["game"], q0["features"], q0["feature_set"], q0["activation"], q0["scale"]) != fit or q0["hidden"] > H or nb0 not in (1, NB):
            print(f"--init {args.init}: a {q0['game']} {q0['feature_set']} {q0['features']}x{q0['hidden']} {q0['activation']} net with {nb0} output bucket(s) does not fit this training", file=sys.stderr)
            return 2
        h0 = q0["hidden"]
        with torch.no_grad():
            if kb and not into_factoriser:
                net.ft_f.weight.zero_()  # the file's rows are folded already: the factoriser starts at zero
            rows = BASE if into_factoriser else q0["features"]
            (net.ft_f if into_factoriser else net.ft).weight[:rows, :h0] = torch.from_numpy(q0["w1"][:rows] / QA).float()
            net.ft_bias[:h0] = torch.from_numpy(q0["b1"] / QA).float()
            # A net without buckets gives its output layer to every bucket: the bucketed net starts as its function.
            w20 = q0["w2"].reshape(nb0, 2 * h0)
            for bk in range(NB):
                src = w20[bk if nb0 > 1 else 0]
                w2 = torch.zeros(2 * H)
                w2[:h0] = torch.from_numpy(src[:h0] / QB).float()
                w2[H : H + h0] = torch.from_numpy(src[h0:] / QB).float()
                net.out.weight[bk] = w2
                net.out.bias[bk] = float(q0["b2"][bk if nb0 > 1 else 0]) / (QA * QB)
        print(f"initialised from {args.init} (hidden {h0}, {nb0} output bucket(s){', as the factoriser' if into_factoriser else ''})", file=sys.stderr)
    net = net.to(device)
    if kb and args.bucket_decay is not None:
        others = [p for n, p in net.named_parameters() if n != "ft.weight"]
        opt = torch.optim.AdamW([{"params": [net.ft.weight], "weight_decay": args.bucket_decay}, {"params": others}], lr=args.lr, weight_decay=args.weight_decay)
    else:
        opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=args.weight_decay)
    k = args.k if args.k is not None else fit_scale(tr[2], tr[3])
    start_epoch = 0
    history: list[dict] = []
    if args.resume and args.checkpoint and os.path.exists(args.checkpoint):
        # Our own checkpoint (the fitted K is a Python float, the history plain dicts): not weights-only.
        # A checkpoint that does not load (corrupt, or another net's) is refused by name, never trained over.
        try:
            ck = torch.load(args.checkpoint, map_location=device, **({"weights_only": False} if "weights_only" in inspect.signature(torch.load).parameters else {}))
            net.load_state_dict(ck["model"])
            opt.load_state_dict(ck["optimizer"])
            start_epoch = ck["epoch"]
            k = ck["k"]
        except Exception as e:  # noqa: BLE001 - any failure to read it is the same refusal
            print(f"checkpoint {args.checkpoint} cannot be resumed ({type(e).__name__}: {e}); delete it to train from the start", file=sys.stderr)
            return 2
        history = ck.get("history", [])
        print(f"resumed from {args.checkpoint} after epoch {start_epoch}", file=sys.stderr)
    print(f"K = {k:.1f}, device {device}, hidden {H} {args.activation}", file=sys.stderr)

    mirror_np = kz_mirror_map() if kz else mirror_map(args.game)
    # The left-right mirror of a relative king square (row * 9 + column).
    king_flip = np.array([(r // 9) * 9 + 8 - r % 9 for r in range(81)], dtype=np.int64)

    def indices(d, idx, flip=None):
        """Network input rows of records `idx` of data set `d` (mirrored where `flip`): us, them, factoriser us, them."""
        us = d[0][idx].astype(np.int64)
        them = d[1][idx].astype(np.int64)
        if flip is not None:
            us = np.where(flip[:, None], mirror_np[us], us)
            them = np.where(flip[:, None], mirror_np[them], them)
        if not kb:
            return us, them, None, None
        if args.game == "chess":
            us, fus = chess_king_bucketed(us, mirror_np)
            them, fthem = chess_king_bucketed(them, mirror_np)
            return us, them, fus, fthem
        kus = d[5][idx].astype(np.int64)
        kthem = d[6][idx].astype(np.int64)
        if flip is not None:
            kus = np.where(flip, king_flip[kus], kus)
            kthem = np.where(flip, king_flip[kthem], kthem)
        us, fus = king_bucketed(us, kus, mirror_np)
        them, fthem = king_bucketed(them, kthem, mirror_np)
        return us, them, fus, fthem

    # On a GPU the host-side gather and copy of every batch, not the arithmetic, bounds the speed: the
    # feature rows, labels and mirror map are moved to the device once and each batch is gathered there
    # (the same rows, in the same order, as the NumPy path: the same net for the same seed and data).
    resident = device == "cuda" and not kb

    def to_device(d):
        g = lambda a: torch.from_numpy(np.array(a)).to(device)  # a copy: the cache arrays are read-only maps
        return (g(d[0].astype(np.int32)), g(d[1].astype(np.int32)), g(d[2]), g(d[3]))

    if resident:
        tr_dev, va_dev = to_device(tr), to_device(va)
        mirror_dev = torch.from_numpy(mirror_np.astype(np.int64)).to(device)

    def tensors(d, idx, flip=None):
        if resident:
            dd = tr_dev if d is tr else va_dev
            i = torch.from_numpy(np.asarray(idx, dtype=np.int64)).to(device)
            us, them = dd[0][i].long(), dd[1][i].long()
            if flip is not None:
                f = torch.from_numpy(flip).to(device)[:, None]
                us = torch.where(f, mirror_dev[us], us)
                them = torch.where(f, mirror_dev[them], them)
            return us, them, None, None, dd[2][i], dd[3][i]
        t = lambda a: None if a is None else torch.from_numpy(a).to(device)
        us, them, fus, fthem = indices(d, idx, flip)
        return t(us), t(them), t(fus), t(fthem), torch.from_numpy(d[2][idx]).to(device), torch.from_numpy(d[3][idx]).to(device)

    def loss_of(out, score, result):
        pred = torch.sigmoid(out * args.scale / k)
        target = args.lam * torch.sigmoid(score / k) + (1 - args.lam) * result
        return ((pred - target) ** 2).mean()

    def result_fit(pred, result) -> tuple[float, float]:
        """Sums over a batch of how well expected scores `pred` predict the game results: squared error and cross-entropy."""
        p = pred.clamp(1e-6, 1 - 1e-6)
        xent = -(result * torch.log(p) + (1 - result) * torch.log(1 - p))
        return float(((pred - result) ** 2).sum()), float(xent.sum())

    def validate() -> tuple[float, float, float]:
        """Validation loss (this run's target), and the squared error and cross-entropy of the net's
        expected score sigmoid(out / K) against the game results: what MCTS reads as its value
        (src/search/mcts/cpu-evaluator.ts), comparable between runs of any --lambda."""
        net.eval()
        tot, mse, xent, n = 0.0, 0.0, 0.0, 0
        with torch.no_grad():
            for i in range(0, len(va[0]), 16384):
                idx = np.arange(i, min(i + 16384, len(va[0])))
                us, them, fus, fthem, score, result = tensors(va, idx)
                out = net(us, them, fus, fthem)
                tot += float(loss_of(out, score, result)) * len(idx)
                m, x = result_fit(torch.sigmoid(out * args.scale / k), result)
                mse, xent, n = mse + m, xent + x, n + len(idx)
        net.train()
        return tot / max(1, n), mse / max(1, n), xent / max(1, n)

    # The same for the search scores of the data (the squashed centipawns MCTS's value imitates with --lambda 1).
    with torch.no_grad():
        sc = torch.from_numpy(np.array(va[2])).to(device)
        rs = torch.from_numpy(np.array(va[3])).to(device)
        m, x = result_fit(torch.sigmoid(sc / k), rs)
        nva = max(1, len(va[2]))
        print(json.dumps({"validation_search_score_vs_result": {"mse": m / nva, "xent": x / nva, "positions": len(va[2])}}), file=sys.stderr)

    n_train = len(tr[0])
    steps_per_epoch = max(1, n_train // args.batch)
    total_steps = steps_per_epoch * args.epochs if args.steps is None else args.steps
    step = start_epoch * steps_per_epoch
    rng = np.random.default_rng(args.seed + start_epoch)
    samples, t_train = 0, time.time()
    done = False
    best_val, best_state = math.inf, None
    lr = args.lr  # reported as is when no step runs (--steps 0: the --init net validated and exported)
    for epoch in range(start_epoch, args.epochs):
        perm = rng.permutation(n_train)
        tot, cnt = 0.0, 0
        for b in range(steps_per_epoch):
            if step >= total_steps:
                done = True
                break
            lr = args.lr * min(1.0, (step + 1) / args.warmup)
            if step >= args.warmup:
                frac = (step - args.warmup) / max(1, total_steps - args.warmup)
                lr = args.lr_end + 0.5 * (args.lr - args.lr_end) * (1 + math.cos(math.pi * min(1.0, frac)))
            for g in opt.param_groups:
                g["lr"] = lr
            idx = perm[b * args.batch : (b + 1) * args.batch]
            flip = rng.random(len(idx)) < 0.5 if args.mirror else None
            us, them, fus, fthem, score, result = tensors(tr, idx, flip)
            loss = loss_of(net(us, them, fus, fthem), score, result)
            opt.zero_grad()
            loss.backward()
            opt.step()
            with torch.no_grad():
                net.ft.weight[F].zero_()
                # Keep the quantised feature weights inside int16 and the accumulators far from overflow
                # (with the factoriser: the folded rows, bucket + shared, inside the same bounds).
                if kb:
                    net.ft_f.weight[BASE].zero_()
                    net.ft_f.weight.clamp_(-1.98, 1.98)
                    shared = net.ft_f.weight[:BASE][None]
                    rows = net.ft.weight[:F].view(NKB, BASE, H)
                    rows.copy_(torch.clamp(rows + shared, -1.98, 1.98) - shared)
                else:
                    net.ft.weight.clamp_(-1.98, 1.98)
                net.out.weight.clamp_(-127 / QB * 4, 127 / QB * 4)
            tot += loss.detach() * len(idx)  # summed on the device: no host sync per step
            cnt += len(idx)
            samples += len(idx)
            step += 1
        val, val_result_mse, val_result_xent = validate()
        rec = {"epoch": epoch + 1, "step": step, "train_loss": float(tot) / max(1, cnt), "val_loss": val,
               "val_result_mse": val_result_mse, "val_result_xent": val_result_xent, "lr": lr,
               "samples_per_s": samples / max(1e-9, time.time() - t_train)}
        history.append(rec)
        if val < best_val:
            best_val = val
            best_state = {kk: v.detach().cpu().clone() for kk, v in net.state_dict().items()}
        print(json.dumps(rec), file=sys.stderr)
        if args.checkpoint:
            tmp = f"{args.checkpoint}.tmp-{os.getpid()}"
            torch.save({"model": net.state_dict(), "optimizer": opt.state_dict(), "epoch": epoch + 1, "k": k, "history": history}, tmp)
            os.replace(tmp, args.checkpoint)
        if done:
            break

    # Export: quantise, write, references from the validation positions.
    if args.export == "best" and best_state is not None:
        net.load_state_dict(best_state)
        print(f"exporting the epoch with the lowest validation loss ({best_val:.6f})", file=sys.stderr)
    state = {kk: v.detach().cpu() for kk, v in net.state_dict().items()}
    q = quantise(state, args.activation)
    write_network(args.out, args.game, q, args.scale, args.features)
    nref = min(args.references, len(va[0]))
    ridx = np.linspace(0, len(va[0]) - 1, nref).astype(np.int64)
    rus, rthem, _, _ = indices(va, ridx)
    outs = int_output(q, rus, rthem, args.scale)
    text = chess_fen if args.game == "chess" else shogi_sfen
    refs = [{"position": text(va[4][i]), "output": int(o)} for i, o in zip(ridx, outs)]
    # Quantisation check: integer outputs against the float net on the validation set.
    with torch.no_grad():
        sub = np.arange(min(len(va[0]), 4096))
        us, them, fus, fthem, _, _ = tensors(va, sub)
        fl = (net(us, them, fus, fthem) * args.scale).cpu().numpy()
    qus, qthem, _, _ = indices(va, sub)
    qi = int_output(q, qus, qthem, args.scale)
    arch = {"features": F, "hidden": H, "activation": args.activation, "qa": QA, "qb": QB, "scale": args.scale}
    if kb or kz:
        arch["featureSet"] = args.features
    if NB > 1:
        arch["outputBuckets"] = NB
    manifest = {
        "format": "kishi-nnue",
        "version": 3 if NB > 1 else 2 if kb or kz else 1,
        "game": args.game,
        "arch": arch,
        "data": {"dirs": [os.path.basename(os.path.normpath(d)) for d in args.data], "chunks": len(files), "train_positions": int(n_train), "val_positions": int(len(va[0]))},
        "training": {"command": " ".join(["python3", "trainer/nnue_train.py"] + [portable_arg(a) for a in sys.argv[1:]]), "k": k, "lambda": args.lam, "history": history,
                     "quantisation_mean_abs_error_cp": float(np.abs(fl - qi).mean())},
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "commit": git_commit(),
        "references": refs,
    }
    mpath = args.out[:-4] + ".manifest.json" if args.out.endswith(".bin") else args.out + ".manifest.json"
    atomic_write(mpath, (json.dumps(manifest, indent=1) + "\n").encode())
    print(f"wrote {args.out} and {mpath}; quantisation error {manifest['training']['quantisation_mean_abs_error_cp']:.2f} cp mean", file=sys.stderr)
    if args.report:
        atomic_write(args.report, json.dumps({"history": history, "k": k}).encode())
    return 0


if __name__ == "__main__":
    sys.exit(main())
