#!/usr/bin/env python3
"""Supervised training of a policy/value net on training chunks, then ONNX export with manifest.

Used for the bootstrap nets (positions labelled by the alpha-beta engine,
tools/nn/make-bootstrap-data.ts); the AlphaZero loop (issue 10) can reuse the same pieces.

Loss: policy cross-entropy against the chunk's policy target with illegal moves masked out of the
softmax (the engines mask them too), plus value MSE against
`value_mix * search_value + (1 - value_mix) * game_result`, plus L2 via weight decay.
The last `--holdout` share of positions (whole games, by file order) is held out for validation.

  python3 trainer/train_supervised.py --data records/nn/chess-bootstrap --encoding kishi-chess-1 \
      --blocks 6 --filters 64 --epochs 8 --out models/chess.onnx
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kishi_nn.chunks import Chunks, chunk_files  # noqa: E402
from kishi_nn.export import write_model  # noqa: E402
from kishi_nn.model import PolicyValueNet, shogi_mirror_permutation  # noqa: E402


def batches(n: int, size: int, rng: np.random.Generator | None):
    order = rng.permutation(n) if rng is not None else np.arange(n)
    for i in range(0, n, size):
        yield np.sort(order[i : i + size])


def losses(model, data: Chunks, idx: np.ndarray, value_mix: float, device, mirror=None, rng=None):
    x = torch.from_numpy(data.planes(idx)).to(device)
    target, legal = data.policy(idx)
    target_t = torch.from_numpy(target).to(device)
    legal_t = torch.from_numpy(legal).to(device)
    if mirror is not None and rng is not None:
        # Mirror a random half of the batch (index i of the mirrored policy is index perm[i] of the original).
        flip = torch.from_numpy(rng.random(len(idx)) < 0.5).to(device)
        inv = torch.empty_like(mirror)
        inv[mirror] = torch.arange(len(mirror))
        x = torch.where(flip[:, None, None, None], x.flip(3), x)
        target_t = torch.where(flip[:, None], target_t[:, inv], target_t)
        legal_t = torch.where(flip[:, None], legal_t[:, inv], legal_t)
    search = data.value[idx]
    result = data.result[idx].astype(np.float32)
    result[result == -128] = np.nan
    z = np.where(np.isnan(search), result, value_mix * search + (1 - value_mix) * np.nan_to_num(result, nan=search))
    z = np.nan_to_num(z, nan=0.0).astype(np.float32)
    z_t = torch.from_numpy(z).to(device)
    p, v = model(x)
    p = p.masked_fill(~legal_t, -1e9)
    logp = torch.log_softmax(p, dim=1)
    pol = -(target_t * logp).sum(1).mean()
    val = ((v[:, 0] - z_t) ** 2).mean()
    top1 = (p.argmax(1) == target_t.argmax(1)).float().mean()
    return pol, val, top1


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", required=True, nargs="+", help="chunk directories or globs")
    ap.add_argument("--encoding", required=True, choices=["kishi-chess-1", "kishi-shogi-1"])
    ap.add_argument("--blocks", type=int, default=6)
    ap.add_argument("--filters", type=int, default=64)
    ap.add_argument("--epochs", type=float, default=8)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=0.05)
    ap.add_argument("--weight-decay", type=float, default=1e-4)
    ap.add_argument("--value-mix", type=float, default=0.5, help="weight of the search value against the game result")
    ap.add_argument("--value-weight", type=float, default=1.0)
    ap.add_argument("--holdout", type=float, default=0.05)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True, help="ONNX path; the manifest goes next to it")
    ap.add_argument("--checkpoint", default=None, help="where to save the PyTorch weights (default: records/nn/<name>.pt)")
    ap.add_argument("--reference", default=None, help="reference positions chunk (default: made with node)")
    ap.add_argument("--notes", default="")
    ap.add_argument("--keep-best", action="store_true", help="export the epoch with the best holdout loss, not the last")
    ap.add_argument("--mirror", action="store_true", help="shogi: mirror half of each batch left-right (data augmentation)")
    args = ap.parse_args()

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    files = [f for d in args.data for f in chunk_files(d)]
    data = Chunks(files)
    if data.encoding != args.encoding:
        raise SystemExit(f"chunks are {data.encoding}, not {args.encoding}")
    n = len(data)
    n_val = max(1, int(n * args.holdout))
    train_n = n - n_val
    val_idx = np.arange(train_n, n)
    print(f"{n} positions from {len(files)} chunks ({', '.join(data.phases)}); training {train_n}, holdout {n_val}", flush=True)

    model = PolicyValueNet(args.encoding, args.blocks, args.filters).to(device)
    mirror = shogi_mirror_permutation().to(device) if args.mirror and args.encoding == "kishi-shogi-1" else None
    opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9, nesterov=True, weight_decay=args.weight_decay)
    steps_total = max(1, int(math.ceil(train_n / args.batch) * args.epochs))
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=steps_total, pct_start=0.1)

    def validate():
        model.eval()
        tot = np.zeros(3)
        k = 0
        with torch.no_grad():
            for idx in batches(n_val, 1024, None):
                pol, val, top1 = losses(model, data, val_idx[idx], args.value_mix, device)
                tot += np.array([pol.item(), val.item(), top1.item()]) * len(idx)
                k += len(idx)
        model.train()
        return tot / k

    history = []
    best = (float("inf"), None, 0)  # holdout policy loss + value weight * value MSE, weights, epoch
    step = 0
    t0 = time.time()
    epoch = 0
    while step < steps_total:
        model.train()
        run = np.zeros(3)
        k = 0
        for idx in batches(train_n, args.batch, rng):
            if step >= steps_total:
                break
            pol, val, top1 = losses(model, data, idx, args.value_mix, device, mirror, rng)
            loss = pol + args.value_weight * val
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            step += 1
            run += np.array([pol.item(), val.item(), top1.item()])
            k += 1
        epoch += 1
        vp, vv, vt = validate()
        rec = {"epoch": epoch, "step": step, "trainPolicyLoss": round(run[0] / k, 4), "trainValueMse": round(run[1] / k, 4),
               "holdoutPolicyLoss": round(vp, 4), "holdoutValueMse": round(vv, 4), "holdoutTop1": round(vt, 4),
               "seconds": round(time.time() - t0)}
        history.append(rec)
        print(json.dumps(rec), flush=True)
        score = vp + args.value_weight * vv
        if args.keep_best and score < best[0]:
            best = (score, {k: v.detach().clone() for k, v in model.state_dict().items()}, epoch)

    if args.keep_best and best[1] is not None:
        model.load_state_dict(best[1])
        print(f"keeping the weights of epoch {best[2]} (best holdout loss {best[0]:.4f})", flush=True)
    model.eval()
    model.cpu()
    ckpt = args.checkpoint or os.path.join("records", "nn", os.path.basename(args.out).replace(".onnx", ".pt"))
    os.makedirs(os.path.dirname(ckpt) or ".", exist_ok=True)
    torch.save({"encoding": args.encoding, "blocks": args.blocks, "filters": args.filters, "state": model.state_dict()}, ckpt)
    training = {
        "method": "supervised",
        "phases": data.phases,
        "positions": n,
        "games": sum(1 for t in data.texts if t.endswith("|moves=0")),
        "generators": sorted({json.dumps(m, sort_keys=True) for m in data.metas}),
        "trainPositions": train_n,
        "holdoutPositions": n_val,
        "chunks": [os.path.relpath(f) for f in files],
        "epochs": args.epochs,
        "steps": step,
        "exportedEpoch": best[2] if args.keep_best and best[1] is not None else epoch,
        "batch": args.batch,
        "optimizer": f"SGD nesterov momentum 0.9, one-cycle lr max {args.lr}, weight decay {args.weight_decay}",
        "loss": f"masked policy cross-entropy + {args.value_weight} * value MSE against {args.value_mix} * search value + {1 - args.value_mix} * game result",
        "history": history,
        "augmentation": "left-right mirror of half of each batch" if mirror is not None else "none",
        "device": str(device),
        "seconds": round(time.time() - t0),
    }
    write_model(model, args.out, trained=True, training=training, notes=args.notes, reference_path=args.reference)
    print(f"wrote {args.out} ({os.path.getsize(args.out)} bytes) and its manifest; checkpoint {ckpt}", flush=True)


if __name__ == "__main__":
    main()
