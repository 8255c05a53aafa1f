#!/usr/bin/env python3
"""AlphaZero training (issue 10): train the residual policy/value net on the newest training chunks.

Reads `.knr` chunks (src/nn/training-chunk.ts) from one or more directories, keeps a sliding window
of the most recent games, trains with the AlphaZero loss, saves a resumable checkpoint, exports ONNX
with its manifest and, optionally, the INT8 (QDQ) variant.

Data and window
  `--data DIR ...` in order from oldest to newest source (e.g. the bootstrap directory, then the
  self-play directory). Within a directory chunks are ordered by `meta.firstGameIndex` (self-play
  chunks `sp-<first>-<last>.knr`), then by file name. `--window-games N` keeps the newest whole
  chunks holding at most N games (at least one chunk); a chunk's games are `meta.games`, else the
  positions whose text says `|moves=0`. Files with `.tmp` in their name (half-written) are skipped.
  `--phase-weights bootstrap-alphabeta=0.3,selfplay=1,online=0.5`: sampling weight per position of
  each phase (`meta.phase`); 0 drops the phase before the window is taken; unlisted phases get
  `--default-phase-weight`. Batches are drawn with replacement, probability proportional to the
  weight (AlphaZero samples the window uniformly: all weights 1).
  `--holdout 0.02` of the window is held out for the before/after losses: whole games by default
  (`--holdout-by game`, see `game_ids`; a window of too few games for that share is split by
  position, and the report says which), so the holdout is independent of the training games;
  `--holdout-every N` also measures it during training (the history's `holdout`), to see where more
  steps start to overfit.

Loss
  masked policy cross-entropy against the chunk's policy target (illegal moves masked out of the
  softmax, as the engines do) + value-weight * value loss + L2 (SGD weight decay). Value target
  `z = value_mix * search value + (1 - value_mix) * game result` (either alone when the other is
  missing). `--value-loss mse`: (tanh output - z)^2. `--value-loss wdl`: cross-entropy of the WDL
  head against (1 - value_mix) * one-hot(result) + value_mix * (max(v,0), 1-|v|, max(-v,0)).

Checkpoints
  `--init X.pt` starts from the weights of a checkpoint (e.g. records/nn/chess.pt of the bootstrap
  net: {encoding, blocks, filters, state}); `--resume X.pt` also restores the optimizer and the step
  count. `--checkpoint OUT.pt` is written atomically (temp file + rename) after training:
  {encoding, blocks, filters, wdl, state, optimizer, step, samples}.

  /usr/bin/python3 trainer/train.py --data records/nn/chess-bootstrap runs/az/selfplay \\
      --window-games 20000 --phase-weights bootstrap-alphabeta=0.25 --resume runs/az/trainer.pt \\
      --steps 1000 --checkpoint runs/az/trainer.pt --out runs/az/nets/gen-1.onnx --int8 runs/az/nets/gen-1-int8.onnx

`--device auto` uses CUDA when `torch.cuda.is_available()` (else `--threads` CPU threads), with bf16
autocast there (`--precision`). Prints progress lines and
writes a JSON report (`--report`): steps, samples/s, where the time went, losses, data used.
"""
from __future__ import annotations

import argparse
import contextlib
import datetime
import inspect
import json
import math
import os
import struct
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kishi_nn.chunks import Chunks  # noqa: E402
from kishi_nn.export import git_commit, write_model  # noqa: E402
from kishi_nn.model import ENCODINGS, PolicyValueNet, shogi_mirror_permutation  # noqa: E402


# ---- data -----------------------------------------------------------------------------------------

def read_header(path: str) -> dict:
    with open(path, "rb") as f:
        head = f.read(12)
        if head[:4] != b"KNNR":
            raise ValueError(f"{path}: not a training chunk")
        version, hl = struct.unpack_from("<II", head, 4)
        if version != 1:
            raise ValueError(f"{path}: chunk version {version}")
        return json.loads(f.read(hl).decode("utf8"))


def list_chunks(directory: str) -> list[str]:
    if not os.path.isdir(directory):
        raise SystemExit(f"train.py: no such data directory {directory}")
    names = [n for n in os.listdir(directory) if n.endswith(".knr") and ".tmp" not in n and not n.startswith(".")]
    return [os.path.join(directory, n) for n in names]


def parse_weights(text: str) -> dict[str, float]:
    out: dict[str, float] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        if "=" not in part:
            raise SystemExit(f"--phase-weights: expected phase=weight, got {part!r}")
        k, v = part.split("=", 1)
        out[k.strip()] = float(v)
    return out


def chunk_games(path: str, header: dict) -> int:
    meta = header.get("meta", {})
    if isinstance(meta.get("games"), int):
        return meta["games"]
    # Count game starts from the position texts (bootstrap chunks: "<fen>|moves=0").
    from kishi_nn.chunks import read_chunk

    return max(1, sum(1 for t in read_chunk(path)["texts"] if t.endswith("|moves=0")))


def select_window(dirs: list[str], weights: dict[str, float], default_weight: float, window_games: int) -> list[dict]:
    """The chunks to train on, oldest first: [{path, header, phase, games, weight}]."""
    ordered: list[dict] = []
    for d in dirs:
        items = []
        for p in list_chunks(d):
            h = read_header(p)
            meta = h.get("meta", {})
            phase = str(meta.get("phase", "?"))
            w = weights.get(phase, default_weight)
            if w <= 0:
                continue
            first = meta.get("firstGameIndex")
            items.append({"path": p, "header": h, "phase": phase, "weight": w,
                          "key": (0, first, os.path.basename(p)) if isinstance(first, int) else (1, 0, os.path.basename(p))})
        items.sort(key=lambda it: it["key"])
        ordered.extend(items)
    if not ordered:
        raise SystemExit(f"train.py: no training chunks in {', '.join(dirs)} (after phase filtering)")
    for it in ordered:
        it["games"] = chunk_games(it["path"], it["header"])
    if window_games <= 0:
        return ordered
    chosen: list[dict] = []
    total = 0
    for it in reversed(ordered):
        if chosen and total + it["games"] > window_games:
            break
        chosen.append(it)
        total += it["games"]
    return list(reversed(chosen))


def game_ids(texts: list[str]) -> np.ndarray:
    """A game number per position, for holding out whole games.

    Online-log records name their game (`|game=<server>/<id>`); otherwise a position starts a new game
    when its move counter (`|moves=N`, bootstrap records; `|ply=N`, self-play) is 0 or does not follow
    the previous one's. Positions without either get a game of their own (so the split is by position).
    """
    out = np.empty(len(texts), np.int64)
    names: dict[str, int] = {}
    gid, prev = -1, None
    for i, t in enumerate(texts):
        fields = dict(f.split("=", 1) for f in t.split("|")[1:] if "=" in f)
        if "game" in fields:
            out[i] = names.setdefault(fields["game"], len(names) + len(texts))
            continue
        counter = fields.get("moves", fields.get("ply"))
        n = int(counter) if counter is not None and counter.isdigit() else None
        if n is None or n == 0 or prev is None or n != prev + 1:
            gid += 1
        prev = n
        out[i] = gid
    return out


def split_holdout(texts: list[str], share: float, by: str, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, str]:
    """(holdout, train) position indices, sorted, and the split used: `share` of the positions (by
    position), or of the games (by game: whole games, so the holdout measures positions the net has
    seen nothing of). A window too small to hold out a whole game at that share (fewer than about
    1 / (2 * share) games) is split by position instead, so tiny runs keep a holdout and training data."""
    n = len(texts)
    if n < 50 or share <= 0:
        return np.zeros(0, np.int64), np.arange(n), by
    if by == "game":
        gids = game_ids(texts)
        uniq = np.unique(gids)
        k = int(round(len(uniq) * share))
        if 1 <= k < len(uniq):
            mask = np.isin(gids, rng.permutation(uniq)[:k])
            return np.flatnonzero(mask), np.flatnonzero(~mask), "game"
    perm = rng.permutation(n)
    n_hold = int(n * share)
    return np.sort(perm[:n_hold]), np.sort(perm[n_hold:]), "position"


# ---- loss -----------------------------------------------------------------------------------------

def value_targets(data: Chunks, idx: np.ndarray, value_mix: float) -> tuple[np.ndarray, np.ndarray]:
    """z in [-1, 1] (mixed target) and the game result (NaN if unknown) of the positions."""
    search = data.value[idx].astype(np.float32)
    result = data.result[idx].astype(np.float32)
    result[result == -128] = np.nan
    z = np.where(np.isnan(search), result, np.where(np.isnan(result), search, value_mix * search + (1 - value_mix) * result))
    return np.nan_to_num(z, nan=0.0).astype(np.float32), result


def batch_tensors(data: Chunks, idx: np.ndarray, value_mix: float, device, mirror, rng):
    x = torch.from_numpy(data.planes(idx))
    target, legal = data.policy(idx)
    target_t, legal_t = torch.from_numpy(target), torch.from_numpy(legal)
    if mirror is not None and rng is not None:
        flip = torch.from_numpy(rng.random(len(idx)) < 0.5)
        inv = torch.empty_like(mirror)
        inv[mirror] = torch.arange(len(mirror))
        x = torch.where(flip[:, None, None, None], x.flip(3), x)
        target_t = torch.where(flip[:, None], target_t[:, inv], target_t)
        legal_t = torch.where(flip[:, None], legal_t[:, inv], legal_t)
    z, result = value_targets(data, idx, value_mix)
    return x.to(device), target_t.to(device), legal_t.to(device), torch.from_numpy(z).to(device), torch.from_numpy(result).to(device)


def compute_losses(model, batch, value_loss: str, value_mix: float, bf16: bool = False):
    x, target, legal, z, result = batch
    # bf16 autocast (GPU only): the convolutions run in bfloat16 on the tensor cores, the losses in fp32.
    with torch.autocast(device_type="cuda", dtype=torch.bfloat16) if bf16 else contextlib.nullcontext():
        p, v = model(x)
    p, v = p.float(), v.float()
    p = p.masked_fill(~legal, -1e9)
    pol = -(target * torch.log_softmax(p, dim=1)).sum(1).mean()
    if value_loss == "wdl":
        r = torch.nan_to_num(result, nan=0.0)
        known = (~torch.isnan(result)).float()[:, None]
        onehot = torch.stack([(r > 0).float(), (r == 0).float(), (r < 0).float()], 1)
        soft = torch.stack([z.clamp(min=0), 1 - z.abs(), (-z).clamp(min=0)], 1)
        mix = value_mix * torch.ones_like(known)
        tgt = known * ((1 - mix) * onehot + mix * soft) + (1 - known) * soft
        val = -(tgt * torch.log_softmax(v, dim=1)).sum(1).mean()
        q = torch.softmax(v, dim=1)
        mse = ((q[:, 0] - q[:, 2] - z) ** 2).mean()
    else:
        val = ((v[:, 0] - z) ** 2).mean()
        mse = val
    top1 = (p.argmax(1) == target.argmax(1)).float().mean()
    return pol, val, mse, top1


# Our own checkpoints hold plain Python values beside the tensors: load them whole (PyTorch 2.6+
# defaults to weights only).
TRUSTED = {"weights_only": False} if "weights_only" in inspect.signature(torch.load).parameters else {}


# ---- main -----------------------------------------------------------------------------------------

def atomic_torch_save(obj, path: str) -> None:
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    tmp = f"{path}.tmp-{os.getpid()}"
    torch.save(obj, tmp)
    os.replace(tmp, path)


def make_int8(onnx_path: str, out: str, data: Chunks, positions: int, seed: int) -> dict:
    import onnx

    from kishi_nn.quantize import calibrate, fold_identities, quantize_qdq

    model = onnx.load(onnx_path)
    fold_identities(model)
    rng = np.random.default_rng(seed)
    idx = np.sort(rng.choice(len(data), size=min(positions, len(data)), replace=False))
    ranges = calibrate(model, (data.planes(idx[i : i + 64]) for i in range(0, len(idx), 64)))
    q = quantize_qdq(model, ranges)
    tmp = out[:-5] + f".tmp-{os.getpid()}.onnx"
    onnx.save(q, tmp)
    manifest = json.load(open(onnx_path[:-5] + ".manifest.json"))
    manifest["precision"] = "int8-qdq"
    manifest["provenance"] = {
        **manifest.get("provenance", {}),
        "quantizedFrom": os.path.basename(onnx_path),
        "quantization": {
            "method": "static QDQ: uint8 asymmetric activations (min/max calibration), int8 symmetric per-channel weights, int32 biases",
            "tool": "trainer/train.py --int8 (kishi_nn/quantize.py, onnx " + onnx.__version__ + ")",
            "calibrationPositions": int(len(idx)),
            "reduceRange": False,
        },
        "bytes": os.path.getsize(tmp),
        "referenceNote": "reference outputs below are the fp32 model's until tools/nn/check-int8.ts records this model's own",
    }
    mtmp = out[:-5] + f".tmp-{os.getpid()}.manifest.json"
    with open(mtmp, "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")
    os.replace(tmp, out)
    os.replace(mtmp, out[:-5] + ".manifest.json")
    return {"path": out, "bytes": os.path.getsize(out), "calibrationPositions": int(len(idx))}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", required=True, nargs="+", help="chunk directories, oldest source first")
    ap.add_argument("--window-games", type=int, default=0, help="train on the newest chunks holding at most this many games (0: all)")
    ap.add_argument("--phase-weights", default="", help="phase=weight,... (0 drops a phase)")
    ap.add_argument("--default-phase-weight", type=float, default=1.0)
    ap.add_argument("--encoding", choices=sorted(ENCODINGS), default=None, help="checked against the chunks (default: theirs)")
    ap.add_argument("--init", default=None, help="start from this checkpoint's weights (.pt)")
    ap.add_argument("--resume", default=None, help="continue this checkpoint: weights, optimizer, step (.pt); ignored if missing with --init given")
    ap.add_argument("--blocks", type=int, default=4, help="new net only")
    ap.add_argument("--filters", type=int, default=48, help="new net only")
    ap.add_argument("--value-loss", choices=["mse", "wdl"], default=None, help="default: the checkpoint's head, else mse")
    ap.add_argument("--steps", type=int, default=1000)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=0.02)
    ap.add_argument("--lr-final", type=float, default=None, help="cosine decay of the learning rate from --lr to this over the run's steps (default: constant)")
    ap.add_argument("--momentum", type=float, default=0.9)
    ap.add_argument("--weight-decay", type=float, default=1e-4)
    ap.add_argument("--value-mix", type=float, default=0.5, help="weight of the search value against the game result in the value target")
    ap.add_argument("--value-weight", type=float, default=1.0)
    ap.add_argument("--holdout", type=float, default=0.02, help="share of the window held out (random, fixed by --seed)")
    ap.add_argument("--holdout-by", choices=["game", "position"], default="game",
                    help="hold out whole games (default: the holdout is independent of the training games) or single positions")
    ap.add_argument("--mirror", action="store_true", help="shogi: mirror half of each batch left-right")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--device", choices=["auto", "cpu", "cuda"], default="auto", help="auto: cuda when available")
    ap.add_argument("--precision", choices=["auto", "fp32", "bf16"], default="auto",
                    help="bf16: autocast on the GPU (auto: bf16 on cuda, fp32 on the CPU); the export is fp32 either way")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--log-every", type=int, default=100)
    ap.add_argument("--holdout-every", type=int, default=0,
                    help="also measure the holdout at logged steps that are multiples of this (history[].holdout; 0: before and after only)")
    ap.add_argument("--checkpoint", default=None, help="write the resumable checkpoint here (.pt)")
    ap.add_argument("--out", default=None, help="export ONNX here; the manifest goes next to it")
    ap.add_argument("--int8", default=None, help="also write the INT8 (QDQ) variant here")
    ap.add_argument("--calibration-positions", type=int, default=256)
    ap.add_argument("--reference", default=None, help="encoded reference positions chunk (default: made with node from dist/)")
    ap.add_argument("--method", default="alphazero", help="training.method in the manifest")
    ap.add_argument("--notes", default="")
    ap.add_argument("--report", default=None, help="write a JSON report here")
    args = ap.parse_args()

    t_start = time.time()
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    if args.device == "cuda" and not torch.cuda.is_available():
        raise SystemExit("train.py: --device cuda, but torch sees no CUDA device")
    device = torch.device("cuda" if args.device == "cuda" or (args.device == "auto" and torch.cuda.is_available()) else "cpu")
    if args.precision == "bf16" and device.type != "cuda":
        raise SystemExit("train.py: --precision bf16 needs --device cuda")
    bf16 = device.type == "cuda" and args.precision != "fp32"

    # Data.
    weights = parse_weights(args.phase_weights)
    window = select_window(args.data, weights, args.default_phase_weight, args.window_games)
    files = [it["path"] for it in window]
    data = Chunks(files)  # positions in sorted(files) order
    encoding = data.encoding
    if args.encoding is not None and args.encoding != encoding:
        raise SystemExit(f"train.py: chunks are {encoding}, not {args.encoding}")
    by_path = {it["path"]: it for it in window}
    pos_weight = np.empty(len(data), np.float64)
    per_phase: dict[str, dict] = {}
    off = 0
    for p in sorted(files):
        it = by_path[p]
        n = it["header"]["count"]
        pos_weight[off : off + n] = it["weight"]
        off += n
        ph = per_phase.setdefault(it["phase"], {"chunks": 0, "games": 0, "positions": 0, "weight": it["weight"]})
        ph["chunks"] += 1
        ph["games"] += it["games"]
        ph["positions"] += n
    n = len(data)
    hold_idx, train_idx, holdout_by = split_holdout(data.texts, args.holdout, args.holdout_by, rng)
    n_hold = len(hold_idx)
    probs = pos_weight[train_idx] / pos_weight[train_idx].sum()
    games = sum(it["games"] for it in window)
    first_games = [it["header"].get("meta", {}).get("firstGameIndex") for it in window]
    print(f"data: {n} positions, {games} games from {len(files)} chunks; phases "
          + ", ".join(f"{k} {v['games']} games/{v['positions']} pos (w {v['weight']})" for k, v in sorted(per_phase.items()))
          + f"; holdout {n_hold} (by {holdout_by})", flush=True)

    # Model and optimizer.
    src = None
    ckpt = None
    if args.resume is not None and os.path.exists(args.resume):
        src, ckpt = args.resume, torch.load(args.resume, map_location="cpu", **TRUSTED)
    elif args.init is not None:
        src, ckpt = args.init, torch.load(args.init, map_location="cpu", **TRUSTED)
    elif args.resume is not None:
        raise SystemExit(f"train.py: --resume {args.resume} does not exist (give --init to start from a net)")
    if ckpt is not None:
        if ckpt["encoding"] != encoding:
            raise SystemExit(f"train.py: checkpoint {src} is {ckpt['encoding']}, the chunks {encoding}")
        ck_wdl = bool(ckpt.get("wdl", False))
        wdl = ck_wdl if args.value_loss is None else args.value_loss == "wdl"
        model = PolicyValueNet(encoding, ckpt["blocks"], ckpt["filters"], wdl=wdl)
        state = ckpt["state"]
        if wdl != ck_wdl:  # a new value head: keep everything else
            state = {k: v for k, v in state.items() if not k.startswith("value_out.")}
        missing, _ = model.load_state_dict(state, strict=False)
        if any(not k.startswith("value_out.") for k in missing):
            raise SystemExit(f"train.py: checkpoint {src} lacks {missing}")
    else:
        wdl = args.value_loss == "wdl"
        model = PolicyValueNet(encoding, args.blocks, args.filters, wdl=wdl)
    model.to(device)
    opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=args.momentum, nesterov=True, weight_decay=args.weight_decay)
    step0 = 0
    samples0 = 0
    resumed = src is not None and src == args.resume
    if resumed and "optimizer" in ckpt and (wdl == bool(ckpt.get("wdl", False))):
        opt.load_state_dict(ckpt["optimizer"])
        for g in opt.param_groups:
            g["lr"] = args.lr
            g["weight_decay"] = args.weight_decay
    if resumed:
        step0 = int(ckpt.get("step", 0))
        samples0 = int(ckpt.get("samples", 0))
    value_loss = "wdl" if wdl else "mse"
    mirror = shogi_mirror_permutation() if args.mirror and encoding == "kishi-shogi-1" else None

    def evaluate() -> dict | None:
        if n_hold == 0:
            return None
        model.eval()
        tot = np.zeros(4)
        with torch.no_grad():
            for i in range(0, n_hold, 512):
                idx = hold_idx[i : i + 512]
                pol, val, mse, top1 = compute_losses(model, batch_tensors(data, idx, args.value_mix, device, None, None), value_loss, args.value_mix, bf16)
                tot += np.array([pol.item(), val.item(), mse.item(), top1.item()]) * len(idx)
        model.train()
        tot /= n_hold
        return {"policyLoss": round(float(tot[0]), 4), "valueLoss": round(float(tot[1]), 4), "valueMse": round(float(tot[2]), 4), "top1": round(float(tot[3]), 4)}

    before = evaluate()
    if before is not None:
        print(f"holdout before: {json.dumps(before)}", flush=True)
    model.train()
    history = []
    run = np.zeros(4)
    k = 0
    t_data = t_compute = t_eval = 0.0
    t0 = time.time()
    for s in range(1, args.steps + 1):
        if args.lr_final is not None:  # cosine annealing (Loshchilov & Hutter 2017) within this call
            lr = args.lr_final + 0.5 * (args.lr - args.lr_final) * (1 + math.cos(math.pi * (s - 1) / max(1, args.steps - 1)))
            for g in opt.param_groups:
                g["lr"] = lr
        a = time.time()
        idx = np.sort(rng.choice(train_idx, size=args.batch, replace=True, p=probs))
        batch = batch_tensors(data, idx, args.value_mix, device, mirror, rng)
        b = time.time()
        pol, val, mse, top1 = compute_losses(model, batch, value_loss, args.value_mix, bf16)
        loss = pol + args.value_weight * val
        opt.zero_grad()
        loss.backward()
        opt.step()
        run += np.array([pol.item(), val.item(), mse.item(), top1.item()])
        k += 1
        c = time.time()
        t_data += b - a
        t_compute += c - b
        if s % args.log_every == 0 or s == args.steps:
            rec = {"step": step0 + s, "policyLoss": round(float(run[0] / k), 4), "valueLoss": round(float(run[1] / k), 4),
                   "valueMse": round(float(run[2] / k), 4), "top1": round(float(run[3] / k), 4),
                   "lr": round(opt.param_groups[0]["lr"], 8), "samplesPerSecond": round(s * args.batch / (c - t0 - t_eval), 1)}
            if args.holdout_every > 0 and s % args.holdout_every == 0 and s < args.steps and n_hold > 0:
                # The holdout curve shows where more steps stop helping (overfitting); its time is
                # left out of the training rates.
                rec["holdout"] = evaluate()
                t_eval += time.time() - c
            history.append(rec)
            print(json.dumps(rec), flush=True)
            run[:] = 0
            k = 0
    train_seconds = time.time() - t0 - t_eval
    after = evaluate()
    if after is not None:
        print(f"holdout after: {json.dumps(after)}", flush=True)
    steps_total = step0 + args.steps
    samples_total = samples0 + args.steps * args.batch
    model.eval()
    model.cpu()
    if args.checkpoint is not None:
        opt_state = opt.state_dict()
        atomic_torch_save({"encoding": encoding, "blocks": model.blocks_n, "filters": model.filters, "wdl": wdl,
                           "state": model.state_dict(), "optimizer": opt_state, "step": steps_total, "samples": samples_total}, args.checkpoint)
    sps = args.steps * args.batch / train_seconds if train_seconds > 0 else 0.0
    training = {
        "method": args.method,
        "phases": sorted(per_phase),
        "data": {
            "games": games,
            "positions": n,
            "trainPositions": int(len(train_idx)),
            "holdoutPositions": n_hold,
            "holdoutBy": holdout_by,
            "perPhase": per_phase,
            "windowGames": args.window_games,
            "chunks": len(files),
            "firstChunk": os.path.relpath(window[0]["path"]),
            "lastChunk": os.path.relpath(window[-1]["path"]),
            "gameIndexRange": [min((g for g in first_games if isinstance(g, int)), default=None),
                               max((it["header"]["meta"].get("lastGameIndex", -1) for it in window if isinstance(it["header"].get("meta", {}).get("lastGameIndex"), int)), default=None)],
        },
        "steps": steps_total,
        "stepsThisRun": args.steps,
        "samples": samples_total,
        "batch": args.batch,
        "optimizer": f"SGD nesterov momentum {args.momentum}, lr {args.lr}" + (f" cosine to {args.lr_final}" if args.lr_final is not None else "") + f", weight decay {args.weight_decay}",
        "loss": f"masked policy cross-entropy + {args.value_weight} * value {'WDL cross-entropy' if wdl else 'MSE'} "
                f"against {args.value_mix} * search value + {round(1 - args.value_mix, 4)} * game result; L2 by weight decay",
        "startedFrom": os.path.relpath(src) if src is not None else "random initialisation",
        "resumed": resumed,
        "holdoutBefore": before,
        "holdoutAfter": after,
        "history": history,
        "augmentation": "left-right mirror of half of each batch" if mirror is not None else "none",
        "device": str(device), "precision": "bf16" if bf16 else "fp32",
        "threads": args.threads,
        "samplesPerSecond": round(sps, 1),
        "seconds": round(train_seconds, 1),
        "command": " ".join([os.path.relpath(sys.argv[0])] + sys.argv[1:]),
    }
    report = {"steps": steps_total, "stepsThisRun": args.steps, "samples": samples_total, "samplesPerSecond": round(sps, 1),
              "secondsTrain": round(train_seconds, 2), "secondsData": round(t_data, 2), "secondsCompute": round(t_compute, 2),
              "device": str(device), "precision": "bf16" if bf16 else "fp32", "threads": args.threads, "games": games, "positions": n, "perPhase": per_phase,
              "holdoutPositions": n_hold, "holdoutBy": holdout_by, "holdoutBefore": before, "holdoutAfter": after, "history": history, "encoding": encoding,
              "checkpoint": args.checkpoint, "commit": git_commit()}
    if args.out is not None:
        base = args.out[:-5] if args.out.endswith(".onnx") else args.out
        tmp_base = f"{base}.tmp-{os.getpid()}"
        write_model(model.cpu(), tmp_base + ".onnx", trained=True, training=training, notes=args.notes, reference_path=args.reference)
        os.replace(tmp_base + ".onnx", base + ".onnx")
        os.replace(tmp_base + ".manifest.json", base + ".manifest.json")
        report["onnx"] = base + ".onnx"
        print(f"wrote {base}.onnx and its manifest", flush=True)
        if args.int8 is not None:
            report["int8"] = make_int8(base + ".onnx", args.int8, data, args.calibration_positions, args.seed)
            print(f"wrote {args.int8} and its manifest", flush=True)
    report["secondsTotal"] = round(time.time() - t_start, 2)
    report["finished"] = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    print(f"trained {args.steps} steps ({steps_total} in all) at {sps:.1f} samples/s on {device}", flush=True)
    if args.report is not None:
        tmp = f"{args.report}.tmp-{os.getpid()}"
        with open(tmp, "w") as f:
            json.dump(report, f, indent=1)
            f.write("\n")
        os.replace(tmp, args.report)


if __name__ == "__main__":
    main()
