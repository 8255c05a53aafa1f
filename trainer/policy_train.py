#!/usr/bin/env python3
"""Trainer of the factorised policy network of the CPU MCTS (issue 19; inference in src/eval/policy/).

Reads the label files of `tools/data/label-policy.ts` (format: src/learning/policy/label-file.ts):
per position the side to move's sparse features, the keys of every legal move and the move Kishi's
alpha-beta chose. The network (Monty's / Princhess's CPU policy, factorised over move keys):

    hidden = clamp(b1 + sum of W1 rows of the active features, 0, 1)          (H values, once per node)
    logit(move) = sum over the move's keys k of dot(hidden, W2[k]) + b2[k]   (one dot product per key)

Loss: cross-entropy of the softmax over the legal moves against the target distribution: the MCTS
root's visit distribution where the record carries one (label files version 3,
`tools/data/label-policy.ts --from-selfplay`), else one-hot on the chosen move (then it is the plain
cross-entropy against that move). `--soft-weight W` weighs the positions with visit targets W times
the others (the batch loss is the weighted mean), so a few MCTS labels can count against many
alpha-beta labels. `--init FILE` starts from an exported policy file (same game, hidden width and
keys), to fine-tune a net on new labels. Validation: every `--val-every`-th label file is held out
(whole chunks, so whole games); the same soft loss (unweighted) and the top-1 accuracy against the
stored target move (for MCTS labels the most visited move) are reported.
Export: the quantised file (src/eval/policy/format.ts; W1, b1 scaled by QA, W2 by QB, b2 by QA * QB,
hidden clamped to [0, QA] in integers) and a manifest with reference positions whose integer logits,
computed here with the same integer arithmetic, the TypeScript loader checks bit-exact.

  python3 trainer/policy_train.py --game chess --data $DATA/policy/chess-n1000 \\
      --out models/chess-policy.bin --hidden 32 --epochs 6 [--threads 1] [--device auto] \\
      [--soft-weight 1] [--init models/chess-policy.bin]
"""
from __future__ import annotations

import argparse
import datetime
import glob
import hashlib
import json
import os
import struct
import subprocess
import sys
import time
import zlib

import numpy as np

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
FEATURES = {"chess": 768, "shogi": 2 * 14 * 81 + 2 * 38}
# Move keys per game (src/eval/policy/chess-policy-input.ts, shogi-policy-input.ts).
KEYS = {"chess": 5 * 4096 + 1152 + 768 + 126, "shogi": 81 * 81 * 2 + 7 * 81 + 14 * 81 * 2 * 3 + 7 * 81 * 3 + 14 * 81 * 2 + 7 * 3 + 14 * 15 * 3 + 7}
QA, QB = 255, 128
MAGIC = b"KPOL"
VERSION = 1


LABEL_FLAG_VISITS = 1


def read_labels(path: str, game: str):
    """Features, keys ((M, kpm) arrays), move counts, targets, scores, texts, base logits, soft targets
    (per record the visit distribution, or None without one) and keys per move of one label file."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 16 or data[:4] != b"KPL1":
        raise ValueError(f"{path}: not a policy label file")
    version, game_code, kpm, count, crc = struct.unpack_from("<HBBII", data, 4)
    if version not in (1, 2, 3):
        raise ValueError(f"{path}: version {version}, this trainer reads 1 to 3")
    if ("chess" if game_code == 0 else "shogi") != game:
        raise ValueError(f"{path}: not a {game} label file")
    if zlib.crc32(data[16:]) != crc:
        raise ValueError(f"{path}: checksum mismatch")
    feats, keys, nmoves, targets, scores, texts, bases, softs = [], [], [], [], [], [], [], []
    o = 16
    buf = memoryview(data)
    for r in range(count):
        if o + 12 > len(data):
            raise ValueError(f"{path}: record {r} of {count} is cut short")
        nf, nm, tgt, tl, score, flags = struct.unpack_from("<HHHHhH", data, o)
        if version < 3:
            flags = 0  # reserved 0 before version 3
        if flags & ~LABEL_FLAG_VISITS:
            raise ValueError(f"{path}: record {r} has unknown record flags {flags:#x}")
        if tgt >= nm:
            raise ValueError(f"{path}: record {r}: target {tgt} is not among its {nm} moves")
        o += 12
        feats.append(np.frombuffer(buf[o:o + 2 * nf], dtype="<u2"))
        o += 2 * nf
        keys.append(np.frombuffer(buf[o:o + 2 * nm * kpm], dtype="<u2").reshape(nm, kpm))
        o += 2 * nm * kpm
        if version >= 2:
            bases.append(np.frombuffer(buf[o:o + 4 * nm], dtype="<f4"))
            o += 4 * nm
        else:
            bases.append(np.zeros(nm, dtype=np.float32))
        if flags & LABEL_FLAG_VISITS:
            p = np.frombuffer(buf[o:o + 4 * nm], dtype="<f4").astype(np.float32)
            o += 4 * nm
            total = float(p.sum())
            if len(p) != nm or not np.all(np.isfinite(p)) or np.any(p < 0) or abs(total - 1.0) > 1e-3:
                raise ValueError(f"{path}: record {r}: its visit targets are not a probability distribution")
            softs.append(p / total)
        else:
            softs.append(None)
        texts.append(bytes(buf[o:o + tl]).decode())
        o += tl
        nmoves.append(nm)
        targets.append(tgt)
        scores.append(score)
    if o != len(data):
        raise ValueError(f"{path}: {len(data) - o} bytes after the last record")
    return feats, keys, nmoves, targets, scores, texts, bases, softs, kpm


class Data:
    """All positions of some label files as flat arrays with offsets."""

    def __init__(self, files: list[str], game: str, keep_text: bool) -> None:
        feats, keys, nmoves, targets, texts, bases, softs, has_soft = [], [], [], [], [], [], [], []
        self.kpm = 0
        for f in files:
            fe, ke, nm, tg, _sc, tx, ba, so, kpm = read_labels(f, game)
            self.kpm = kpm
            feats += fe
            keys += ke
            bases += ba
            nmoves += nm
            targets += tg
            for p in so:
                has_soft.append(p is not None)
                if p is not None:
                    softs.append(p)
            if keep_text:
                texts += tx
        self.n = len(targets)
        self.nf = np.array([len(x) for x in feats], dtype=np.int64)
        self.foff = np.concatenate([[0], np.cumsum(self.nf)])
        # uint16 as stored (both games have fewer than 65536 features and keys); widened per batch,
        # so millions of positions fit in memory.
        self.feats = np.concatenate(feats)
        self.nm = np.array(nmoves, dtype=np.int64)
        self.moff = np.concatenate([[0], np.cumsum(self.nm)])
        self.keys = np.concatenate(keys)
        self.base = np.concatenate(bases).astype(np.float32)
        # Per move its target probability (visits, or one-hot on the target move); per position
        # whether the record carried visit targets.
        self.has_soft = np.array(has_soft, dtype=bool)
        self.target = np.array(targets, dtype=np.int64)
        # One-hot rows written in one step: millions of per-record arrays would cost gigabytes.
        self.soft = np.zeros(int(self.moff[-1]), dtype=np.float32)
        hard = ~self.has_soft
        self.soft[self.moff[:-1][hard] + self.target[hard]] = 1.0
        if softs:
            self.soft[spans(self.moff[:-1][self.has_soft], self.nm[self.has_soft])] = np.concatenate(softs)
        self.texts = texts

    def position(self, i: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Position i alone: its features and its moves' keys (widened to int64), and their base logits."""
        moves = slice(self.moff[i], self.moff[i + 1])
        return self.feats[self.foff[i]:self.foff[i + 1]].astype(np.int64), self.keys[moves].astype(np.int64), self.base[moves]

    def batch(self, idx: np.ndarray):
        """Flattened features (with bag offsets), keys, base logits, each move's position, its index within
        it, the widest move count, targets, each move's target probability, whether each position has visits."""
        nf = self.nf[idx]
        fo = np.concatenate([[0], np.cumsum(nf)[:-1]])
        fi = spans(self.foff[idx], nf)
        nm = self.nm[idx]
        mi = spans(self.moff[idx], nm)
        seg = np.repeat(np.arange(len(idx)), nm)
        within = np.arange(len(mi)) - np.repeat(np.concatenate([[0], np.cumsum(nm)[:-1]]), nm)
        return (self.feats[fi].astype(np.int64), fo, self.keys[mi].astype(np.int64), self.base[mi], seg, within, int(nm.max()),
                self.target[idx], self.soft[mi], self.has_soft[idx])


def spans(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The indices start[i] .. start[i] + lengths[i] - 1 of every i, concatenated (no Python loop)."""
    ends = np.cumsum(lengths)
    return np.arange(int(ends[-1]) if len(ends) else 0) + np.repeat(starts - (ends - lengths), lengths)


def atomic_write(path: str, data: bytes) -> None:
    tmp = f"{path}.tmp-{os.getpid()}"
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def git_commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True, text=True, check=True).stdout.strip()
    except Exception:  # noqa: BLE001 - provenance is best effort
        return "unknown"


def quantise(state: dict) -> dict:
    w1 = np.clip(np.round(state["w1.weight"].numpy() * QA), -32767, 32767).astype(np.int64)
    b1 = np.clip(np.round(state["b1"].numpy() * QA), -32767, 32767).astype(np.int64)
    w2 = np.clip(np.round(state["w2.weight"].numpy() * QB), -32767, 32767).astype(np.int64)
    b2 = np.clip(np.round(state["b2.weight"].numpy()[:, 0] * QA * QB), -(2**31 - 1), 2**31 - 1).astype(np.int64)
    return {"w1": w1, "b1": b1, "w2": w2, "b2": b2}


def int_logits(q: dict, feats: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """Integer logits of one position's moves, as src/eval/policy/policy-network.ts computes them."""
    h = q["b1"] + q["w1"][feats].sum(axis=0)
    h = np.clip(h, 0, QA)
    return (q["w2"][keys].sum(axis=1) @ h) + q["b2"][keys].sum(axis=1)


def write_policy(path: str, game: str, kpm: int, q: dict, base_weight: float) -> None:
    f, h = q["w1"].shape
    k = q["w2"].shape[0]
    head = MAGIC + struct.pack("<HBBIIIIIf", VERSION, 0 if game == "chess" else 1, kpm, f, h, k, QA, QB, base_weight)
    body = (q["w1"].astype("<i2").tobytes() + q["b1"].astype("<i2").tobytes() + q["w2"].astype("<i2").tobytes()
            + q["b2"].astype("<i4").tobytes())
    data = head + body
    atomic_write(path, data + struct.pack("<I", zlib.crc32(data)))


def read_policy(path: str) -> dict:
    """The float weights of a policy file `write_policy` wrote (dequantised) and its header fields."""
    with open(path, "rb") as f:
        data = f.read()
    head = struct.calcsize("<HBBIIIIIf")
    if len(data) < 4 + head + 4 or data[:4] != MAGIC:
        raise ValueError(f"{path}: not a policy file")
    if zlib.crc32(data[:-4]) != struct.unpack_from("<I", data, len(data) - 4)[0]:
        raise ValueError(f"{path}: checksum mismatch")
    version, game_code, kpm, f, h, k, qa, qb, bw = struct.unpack_from("<HBBIIIIIf", data, 4)
    if version != VERSION:
        raise ValueError(f"{path}: policy file version {version}, this trainer reads {VERSION}")
    sizes = [2 * f * h, 2 * h, 2 * k * h, 4 * k]
    if 4 + head + sum(sizes) + 4 != len(data):
        raise ValueError(f"{path}: {len(data)} bytes, the header says {4 + head + sum(sizes) + 4}")
    o = 4 + head
    w1 = np.frombuffer(data, dtype="<i2", count=f * h, offset=o).reshape(f, h)
    o += sizes[0]
    b1 = np.frombuffer(data, dtype="<i2", count=h, offset=o)
    o += sizes[1]
    w2 = np.frombuffer(data, dtype="<i2", count=k * h, offset=o).reshape(k, h)
    o += sizes[2]
    b2 = np.frombuffer(data, dtype="<i4", count=k, offset=o)
    return {"game": "chess" if game_code == 0 else "shogi", "kpm": kpm, "features": f, "hidden": h, "keys": k, "qa": qa, "qb": qb,
            "base_weight": float(bw),
            "w1": w1.astype(np.float32) / qa, "b1": b1.astype(np.float32) / qa, "w2": w2.astype(np.float32) / qb,
            "b2": (b2.astype(np.float64) / (qa * qb)).astype(np.float32).reshape(k, 1),
            "sha256": hashlib.sha256(data).hexdigest()}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", choices=["chess", "shogi"], required=True)
    ap.add_argument("--data", nargs="+", required=True, help="directories of .kpl label files")
    ap.add_argument("--out", required=True, help="policy file to write (.bin); the manifest goes beside it")
    ap.add_argument("--hidden", type=int, default=32)
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--batch", type=int, default=512)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--lr-end", type=float, default=1e-4)
    ap.add_argument("--weight-decay", type=float, default=1e-5)
    ap.add_argument("--val-every", type=int, default=20, help="hold out every n-th label file")
    ap.add_argument("--max-files", type=int, default=0, help="use at most this many label files (0: all)")
    ap.add_argument("--references", type=int, default=8)
    ap.add_argument("--temperature", type=float, default=None,
                    help="softmax temperature the MCTS plays the net at (a measured choice, written to the manifest)")
    ap.add_argument("--residual", action="store_true",
                    help="learn a correction of the one-ply prior: logits + w * its log probabilities (label files version 2), w learnt")
    ap.add_argument("--soft-weight", type=float, default=1.0,
                    help="weight of the loss of positions with visit targets (label files version 3) against the others (1)")
    ap.add_argument("--init", default=None,
                    help="start from this exported policy file (same game, hidden width and keys; --residual if it has a base weight)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--device", choices=["auto", "cpu", "cuda"], default="auto")
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()
    if not (args.soft_weight > 0 and np.isfinite(args.soft_weight)):
        print(f"--soft-weight must be a positive number, not {args.soft_weight}", file=sys.stderr)
        return 2
    F, K, H = FEATURES[args.game], KEYS[args.game], args.hidden
    init = None
    if args.init is not None:
        # Checked before the data is read: a mismatch must not wait for it.
        try:
            init = read_policy(args.init)
        except (OSError, ValueError) as e:
            print(f"--init: {e}", file=sys.stderr)
            return 2
        want = {"game": args.game, "features": F, "hidden": H, "keys": K, "qa": QA, "qb": QB}
        bad = [f"{name} {init[name]} (this run: {v})" for name, v in want.items() if init[name] != v]
        if init["base_weight"] != 0 and not args.residual:
            bad.append(f"base weight {init['base_weight']} (a residual net: pass --residual)")
        if bad:
            print(f"--init {args.init} does not match this run: " + ", ".join(bad), file=sys.stderr)
            return 2
    # The output folder is made now, not at export: a missing one must not cost the training.
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)

    import torch
    import torch.nn as nn

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    device = "cuda" if args.device == "cuda" or (args.device == "auto" and torch.cuda.is_available()) else "cpu"
    files: list[str] = []
    for d in args.data:
        files += sorted(glob.glob(os.path.join(d, f"{args.game}-*.kpl")))
    if args.max_files > 0:
        files = files[: args.max_files]
    if len(files) < 2:
        print(f"need at least 2 label files, found {len(files)}", file=sys.stderr)
        return 2
    val_files = files[:: args.val_every] if args.val_every > 0 else files[:1]
    train_files = [f for f in files if f not in val_files]
    t0 = time.time()
    tr = Data(train_files, args.game, False)
    va = Data(val_files, args.game, True)
    if init is not None and init["kpm"] != va.kpm:
        print(f"--init {args.init} does not match this run: {init['kpm']} keys per move, the labels have {va.kpm}", file=sys.stderr)
        return 2
    print(f"{tr.n} train + {va.n} val positions ({len(train_files)} + {len(val_files)} files, {tr.moff[-1] / max(1, tr.n):.1f} moves each; "
          f"{int(tr.has_soft.sum())} + {int(va.has_soft.sum())} with visit targets) read in {time.time() - t0:.0f} s; device {device}",
          file=sys.stderr)

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.w1 = nn.EmbeddingBag(F, H, mode="sum")
            self.b1 = nn.Parameter(torch.zeros(H))
            self.w2 = nn.Embedding(K, H)
            self.b2 = nn.Embedding(K, 1)
            nn.init.normal_(self.w1.weight, 0.0, 0.1)
            nn.init.normal_(self.w2.weight, 0.0, 0.05)
            nn.init.zeros_(self.b2.weight)
            self.base_weight = nn.Parameter(torch.tensor(1.0 if args.residual else 0.0), requires_grad=args.residual)

        def forward(self, feats, foff, keys, base, seg, within, width, b):
            h = torch.clamp(self.w1(feats, foff) + self.b1, 0.0, 1.0)
            w = self.w2(keys).sum(dim=1)
            logit = (h[seg] * w).sum(dim=1) + self.b2(keys).sum(dim=(1, 2)) + self.base_weight * base
            out = torch.full((b, width), float("-inf"), device=logit.device)
            out[seg, within] = logit
            return out

    net = Net()
    if init is not None:
        with torch.no_grad():
            net.w1.weight.copy_(torch.from_numpy(init["w1"]))
            net.b1.copy_(torch.from_numpy(init["b1"]))
            net.w2.weight.copy_(torch.from_numpy(init["w2"]))
            net.b2.weight.copy_(torch.from_numpy(init["b2"]))
            net.base_weight.fill_(init["base_weight"])
        print(f"initialised from {args.init}", file=sys.stderr)
    net = net.to(device)
    opt = torch.optim.Adam(net.parameters(), lr=args.lr, weight_decay=args.weight_decay)
    steps = args.epochs * ((tr.n + args.batch - 1) // args.batch)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=steps, eta_min=args.lr_end)
    rng = np.random.default_rng(args.seed)

    def run(d: Data, idx: np.ndarray):
        """Logits (padded with -inf), target moves, per-position soft losses and loss weights of a batch."""
        fe, fo, ke, ba, seg, within, width, tg, so, hs = d.batch(idx)
        t = lambda a: torch.from_numpy(a).to(device)  # noqa: E731
        tseg, twithin = t(seg), t(within)
        out = net(t(fe), t(fo), t(ke), t(ba), tseg, twithin, width, len(idx))
        p = torch.zeros((len(idx), width), device=out.device)
        p[tseg, twithin] = t(so)
        logp = torch.log_softmax(out, dim=1)
        # The padding is -inf with p = 0 there: masked, not 0 * -inf.
        losses = -torch.where(p > 0, p * logp, torch.zeros_like(logp)).sum(dim=1)
        w = torch.where(t(hs), torch.tensor(args.soft_weight, device=out.device), torch.tensor(1.0, device=out.device))
        return out, t(tg), losses, w

    def validate() -> tuple[float, float]:
        net.eval()
        loss, hit = 0.0, 0
        with torch.no_grad():
            for s in range(0, va.n, 2048):
                idx = np.arange(s, min(va.n, s + 2048))
                out, tg, losses, _w = run(va, idx)
                loss += float(losses.sum())
                hit += int((out.argmax(dim=1) == tg).sum())
        net.train()
        return loss / va.n, hit / va.n

    history = []
    best, best_state = None, None
    for epoch in range(args.epochs):
        perm = rng.permutation(tr.n)
        te, tl, th, tn = time.time(), 0.0, 0, 0
        for s in range(0, tr.n, args.batch):
            idx = perm[s:s + args.batch]
            out, tg, losses, w = run(tr, idx)
            loss = (w * losses).sum() / w.sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            tl += float(losses.detach().sum())
            th += int((out.argmax(dim=1) == tg).sum())
            tn += len(idx)
        vl, vacc = validate()
        rec = {"epoch": epoch + 1, "train_loss": tl / tn, "train_top1": th / tn, "val_loss": vl, "val_top1": vacc,
               "seconds": round(time.time() - te, 1), "positions_per_s": round(tn / (time.time() - te))}
        history.append(rec)
        print(json.dumps(rec), file=sys.stderr)
        if best is None or vl < best:
            best = vl
            best_state = {k: v.detach().cpu().clone() for k, v in net.state_dict().items()}

    q = quantise(best_state)
    bw = float(np.float32(max(0.0, float(best_state["base_weight"])))) if args.residual else 0.0
    write_policy(args.out, args.game, va.kpm, q, bw)
    # References: validation positions, every move's integer logit by its UCI/USI text.
    refs = []
    for i in np.linspace(0, va.n - 1, min(args.references, va.n)).astype(np.int64):
        fe, ke, _ = va.position(i)
        position, moves = va.texts[i].split("\t")
        logits = int_logits(q, fe, ke)
        refs.append({"position": position, "logits": {m: int(l) for m, l in zip(moves.split(" "), logits)}})
    # Quantised accuracy on the validation set (the float network's is in the history).
    qhit = 0
    for i in range(va.n):
        fe, ke, base = va.position(i)
        lg = int_logits(q, fe, ke) / (QA * QB) + bw * base
        qhit += int(np.argmax(lg) == va.target[i])
    manifest = {
        "format": "kishi-policy",
        "version": VERSION,
        "game": args.game,
        "arch": {"features": F, "hidden": H, "keys": K, "keysPerMove": va.kpm, "qa": QA, "qb": QB, "baseWeight": bw},
        "data": {"dirs": [os.path.basename(os.path.normpath(d)) for d in args.data], "files": len(files),
                 "train_positions": int(tr.n), "val_positions": int(va.n),
                 "train_visit_targets": int(tr.has_soft.sum()), "val_visit_targets": int(va.has_soft.sum())},
        "training": {"command": " ".join(["python3", "trainer/policy_train.py"] + sys.argv[1:]), "history": history,
                     "val_top1_quantised": qhit / va.n, "soft_weight": args.soft_weight,
                     "init": None if init is None else {"file": args.init, "sha256": init["sha256"]}},
        **({"temperature": args.temperature} if args.temperature is not None else {}),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "commit": git_commit(),
        "references": refs,
    }
    mpath = args.out[:-4] + ".manifest.json" if args.out.endswith(".bin") else args.out + ".manifest.json"
    atomic_write(mpath, (json.dumps(manifest, indent=1) + "\n").encode())
    print(f"wrote {args.out} and {mpath}; validation top-1 {qhit / va.n:.4f} (quantised)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
