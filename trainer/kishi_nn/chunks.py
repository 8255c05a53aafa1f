"""Reading training chunks (`.knr`, written by src/nn/training-chunk.ts) with numpy.

Planes stay bit-packed in memory and are decoded per batch (`Chunks.planes(idx)`), so a few
hundred thousand positions fit easily. The layout is documented in src/nn/training-chunk.ts and
models/README.md.
"""
from __future__ import annotations

import glob
import json
import os
import struct

import numpy as np


def _align4(n: int) -> int:
    return (n + 3) & ~3


def read_chunk(path: str) -> dict:
    data = open(path, "rb").read()
    if data[:4] != b"KNNR":
        raise ValueError(f"{path}: not a training chunk")
    version, hl = struct.unpack_from("<II", data, 4)
    if version != 1:
        raise ValueError(f"{path}: chunk version {version}")
    h = json.loads(data[12 : 12 + hl].decode("utf8"))
    n, planes, hw = h["count"], h["planes"], h["height"] * h["width"]
    pb = (hw + 7) // 8
    off = 12 + _align4(hl)

    def take(dtype, count, size):
        nonlocal off
        a = np.frombuffer(data, dtype=dtype, count=count, offset=off)
        off += size
        return a

    bits = take(np.uint8, n * planes * pb, _align4(n * planes * pb)).reshape(n, planes, pb)
    scalars = take(np.float32, n * planes, 4 * n * planes).reshape(n, planes)
    pol_start = take(np.uint32, n + 1, 4 * (n + 1))
    pol_index = take(np.uint16, h["totalPolicy"], _align4(2 * h["totalPolicy"]))
    pol_prob = take(np.float32, h["totalPolicy"], 4 * h["totalPolicy"])
    value = take(np.float32, n, 4 * n)
    result = take(np.int8, n, _align4(n))
    txt_start = take(np.uint32, n + 1, 4 * (n + 1))
    text = data[off : off + h["textBytes"]]
    return {
        "header": h,
        "bits": bits,
        "scalars": scalars,
        "pol_start": pol_start.astype(np.int64),
        "pol_index": pol_index,
        "pol_prob": pol_prob,
        "value": value,
        "result": result,
        "texts": [text[txt_start[i] : txt_start[i + 1]].decode("utf8") for i in range(n)],
    }


class Chunks:
    """All positions of a list of chunk files (same encoding), concatenated."""

    def __init__(self, paths: list[str]) -> None:
        if not paths:
            raise ValueError("no chunk files")
        parts = [read_chunk(p) for p in sorted(paths)]
        h = parts[0]["header"]
        for p in parts:
            if p["header"]["encoding"] != h["encoding"]:
                raise ValueError("chunks of different encodings")
        self.header = h
        self.encoding = h["encoding"]
        self.planes_n, self.height, self.width = h["planes"], h["height"], h["width"]
        self.policy_size = h["policySize"]
        self.bits = np.concatenate([p["bits"] for p in parts])
        self.scalars = np.concatenate([p["scalars"] for p in parts])
        starts, offset = [], 0
        for p in parts:
            starts.append(p["pol_start"][:-1] + offset)
            offset += len(p["pol_index"])
        self.pol_start = np.concatenate(starts + [np.array([offset])])
        self.pol_index = np.concatenate([p["pol_index"] for p in parts]).astype(np.int64)
        self.pol_prob = np.concatenate([p["pol_prob"] for p in parts])
        self.value = np.concatenate([p["value"] for p in parts])
        self.result = np.concatenate([p["result"] for p in parts])
        self.texts = [t for p in parts for t in p["texts"]]
        self.phases = sorted({p["header"].get("meta", {}).get("phase", "?") for p in parts})
        self.metas = [p["header"].get("meta", {}) for p in parts]

    def __len__(self) -> int:
        return len(self.value)

    def planes(self, idx: np.ndarray) -> np.ndarray:
        """Input planes [len(idx), planes, H, W] float32."""
        hw = self.height * self.width
        b = np.unpackbits(self.bits[idx], axis=2, bitorder="little")[:, :, :hw].astype(np.float32)
        b *= self.scalars[idx][:, :, None]
        return b.reshape(len(idx), self.planes_n, self.height, self.width)

    def policy(self, idx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Dense policy target [len(idx), policySize] and legal mask (bool) of the same shape."""
        target = np.zeros((len(idx), self.policy_size), np.float32)
        legal = np.zeros((len(idx), self.policy_size), bool)
        for r, i in enumerate(idx):
            a, b = self.pol_start[i], self.pol_start[i + 1]
            target[r, self.pol_index[a:b]] = self.pol_prob[a:b]
            legal[r, self.pol_index[a:b]] = True
        return target, legal


def chunk_files(directory_or_glob: str) -> list[str]:
    if os.path.isdir(directory_or_glob):
        return sorted(glob.glob(os.path.join(directory_or_glob, "*.knr")))
    return sorted(glob.glob(directory_or_glob))
