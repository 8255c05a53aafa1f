"""Exporting a trained net: the ONNX file, and the manifest next to it with reference outputs.

Reference outputs are computed here with PyTorch on the reference positions that
src/learning/alphazero/reference-inputs.ts encodes (the TypeScript encoder is the only encoder; Python never
re-implements it), so the test tests/nn/model.test.ts checks the whole chain: TS encoder ->
onnxruntime-node -> masked softmax, against PyTorch at export time.
"""
from __future__ import annotations

import datetime
import json
import os
import subprocess

import numpy as np
import torch

from .chunks import read_chunk
from .model import ENCODINGS, PolicyValueNet, export_onnx, scalar_value

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def git_commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True, text=True, check=True).stdout.strip()
    except Exception:  # noqa: BLE001 - provenance is best effort
        return "unknown"


def reference_chunk(game: str, path: str | None = None) -> str:
    """Path of the encoded reference positions; made with node (dist/ must be built) when not given."""
    if path is not None:
        return path
    out = os.path.join("/tmp", f"kishi-ref-{game}-{os.getpid()}.knr")
    script = os.path.join(REPO, "dist", "tools", "nn", "reference-inputs.js")
    subprocess.run(["node", script, "--game", game, "--out", out], check=True, cwd=REPO)
    return out


def masked_softmax(logits: np.ndarray, idx: np.ndarray) -> np.ndarray:
    l = logits[idx].astype(np.float64)
    e = np.exp(l - l.max())
    return e / e.sum()


def reference_outputs(model: PolicyValueNet, chunk_path: str) -> list[dict]:
    c = read_chunk(chunk_path)
    h = c["header"]
    hw = h["height"] * h["width"]
    n = h["count"]
    bits = np.unpackbits(c["bits"], axis=2, bitorder="little")[:, :, :hw].astype(np.float32) * c["scalars"][:, :, None]
    x = torch.from_numpy(bits.reshape(n, h["planes"], h["height"], h["width"]))
    model.eval()
    with torch.no_grad():
        p, v = model(x)
        v = scalar_value(model, v)
    out = []
    for i in range(n):
        meta = json.loads(c["texts"][i])
        a, b = c["pol_start"][i], c["pol_start"][i + 1]
        pri = masked_softmax(p[i].numpy(), c["pol_index"][a:b].astype(np.int64))
        ref = {"start": meta["start"], "moves": meta["moves"], "value": round(float(v[i]), 7),
               "priors": {m: round(float(q), 7) for m, q in zip(meta["legal"], pri)}}
        if meta.get("chess960"):
            ref["chess960"] = True
        out.append(ref)
    return out


def write_model(model: PolicyValueNet, onnx_path: str, *, trained: bool, training: dict, notes: str,
                reference_path: str | None = None) -> dict:
    """Exports `model` to `onnx_path` and writes `<base>.manifest.json`; returns the manifest."""
    e = ENCODINGS[model.encoding]
    export_onnx(model, onnx_path)
    refs = reference_outputs(model, reference_chunk(e["game"], reference_path))
    manifest = {
        "format": "kishi-model-1",
        "game": e["game"],
        "encoding": model.encoding,
        "precision": "fp32",
        "inputShape": [e["planes"], e["height"], e["width"]],
        "policySize": e["policy_planes"] * e["height"] * e["width"],
        "architecture": model.architecture(),
        "trained": trained,
        "training": training,
        "provenance": {
            "created": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "tool": "trainer (PyTorch " + torch.__version__ + ")",
            "commit": git_commit(),
            "notes": notes,
            "bytes": os.path.getsize(onnx_path),
        },
        "reference": {"tolerance": 1e-4, "positions": refs},
    }
    base = onnx_path[:-5] if onnx_path.endswith(".onnx") else onnx_path
    with open(base + ".manifest.json", "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")
    return manifest
