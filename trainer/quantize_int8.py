#!/usr/bin/env python3
"""Makes the static INT8 (QDQ) variant of a policy/value net.

  python3 trainer/quantize_int8.py --model models/chess.onnx --calibration records/nn/chess-bootstrap \
      --positions 512 --out models/chess-int8.onnx

Calibrates on positions sampled from training chunks (kishi_nn/quantize.py explains the method),
writes the QDQ model and a manifest copied from the fp32 model's with `precision: int8-qdq`, the
calibration recorded in `provenance`, and the fp32 reference outputs kept for now. Then run
`node dist/tools/nn/check-int8.js --fp32 models/chess.onnx --int8 models/chess-int8.onnx`, which
measures the INT8 error and speed with onnxruntime-node and records the INT8 model's own reference
outputs in its manifest.
"""
from __future__ import annotations

import argparse
import json
import os
import sys

import numpy as np
import onnx

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kishi_nn.chunks import Chunks, chunk_files  # noqa: E402
from kishi_nn.quantize import calibrate, fold_identities, quantize_qdq  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", required=True)
    ap.add_argument("--calibration", required=True, nargs="+", help="chunk directories or globs")
    ap.add_argument("--positions", type=int, default=512)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--reduce-range", action="store_true", help="7-bit weights (x86 without VNNI)")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()

    model = onnx.load(args.model)
    fold_identities(model)
    data = Chunks([f for d in args.calibration for f in chunk_files(d)])
    rng = np.random.default_rng(args.seed)
    idx = np.sort(rng.choice(len(data), size=min(args.positions, len(data)), replace=False))
    batches = (data.planes(idx[i : i + 64]) for i in range(0, len(idx), 64))
    ranges = calibrate(model, batches)
    q = quantize_qdq(model, ranges, reduce_range=args.reduce_range)
    onnx.save(q, args.out)

    src_manifest = args.model[:-5] + ".manifest.json"
    manifest = json.load(open(src_manifest))
    manifest["precision"] = "int8-qdq"
    manifest["provenance"] = {
        **manifest.get("provenance", {}),
        "quantizedFrom": os.path.relpath(args.model),
        "quantization": {
            "method": "static QDQ: uint8 asymmetric activations (min/max calibration), int8 symmetric per-channel weights, int32 biases",
            "tool": "trainer/quantize_int8.py (onnx " + onnx.__version__ + ")",
            "calibrationPositions": int(len(idx)),
            "calibrationChunks": sorted({os.path.relpath(f) for d in args.calibration for f in chunk_files(d)}),
            "reduceRange": bool(args.reduce_range),
        },
        "bytes": os.path.getsize(args.out),
        "referenceNote": "reference outputs below are the fp32 model's until tools/nn/check-int8.ts records this model's own",
    }
    with open(args.out[:-5] + ".manifest.json", "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")
    print(f"wrote {args.out} ({os.path.getsize(args.out)} bytes), {len(ranges)} tensors calibrated on {len(idx)} positions")


if __name__ == "__main__":
    main()
