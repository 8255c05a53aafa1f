"""The residual policy/value net (AlphaZero shape, small).

Input  `input`  [N, planes, H, W] float32 (the encodings of src/nn/*-encoding.ts).
Output `policy` [N, policyPlanes * H * W] logits, flattened NCHW so that the index is
        `plane * H * W + square`, exactly the policy index of the encodings.
Output `value`  [N, 1] in [-1, 1] (tanh), the expected outcome for the side to move; or, for a net
        made with `wdl=True`, output `wdl` [N, 3] win/draw/loss logits (the runtime uses W - L).

Tower: a 3x3 input convolution, `blocks` residual blocks of two 3x3 convolutions (batch norm,
ReLU), then a convolutional policy head (3x3 conv, 1x1 conv to the policy planes) and a value
head (1x1 conv to 32 planes, fully connected 128, fully connected 1, tanh).
"""
from __future__ import annotations

import inspect

import torch
from torch import nn

# Encodings of src/nn/: planes, height, width, policy planes.
ENCODINGS = {
    "kishi-chess-1": {"game": "chess", "planes": 23, "height": 8, "width": 8, "policy_planes": 73},
    "kishi-shogi-1": {"game": "shogi", "planes": 48, "height": 9, "width": 9, "policy_planes": 139},
}


class ConvBn(nn.Sequential):
    def __init__(self, cin: int, cout: int, k: int) -> None:
        super().__init__(nn.Conv2d(cin, cout, k, padding=k // 2, bias=False), nn.BatchNorm2d(cout))


class Block(nn.Module):
    def __init__(self, f: int) -> None:
        super().__init__()
        self.a = ConvBn(f, f, 3)
        self.b = ConvBn(f, f, 3)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(x + self.b(torch.relu(self.a(x))))


class PolicyValueNet(nn.Module):
    def __init__(self, encoding: str, blocks: int, filters: int, value_hidden: int = 128, wdl: bool = False) -> None:
        super().__init__()
        self.wdl = wdl
        e = ENCODINGS[encoding]
        self.encoding = encoding
        self.blocks_n = blocks
        self.filters = filters
        self.value_hidden = value_hidden
        self.h, self.w = e["height"], e["width"]
        self.stem = ConvBn(e["planes"], filters, 3)
        self.tower = nn.Sequential(*[Block(filters) for _ in range(blocks)])
        self.policy_conv = ConvBn(filters, filters, 3)
        self.policy_out = nn.Conv2d(filters, e["policy_planes"], 1)
        self.value_conv = ConvBn(filters, 32, 1)
        self.value_fc = nn.Linear(32 * self.h * self.w, value_hidden)
        self.value_out = nn.Linear(value_hidden, 3 if wdl else 1)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        t = self.tower(torch.relu(self.stem(x)))
        p = self.policy_out(torch.relu(self.policy_conv(t))).flatten(1)
        v = torch.relu(self.value_conv(t)).flatten(1)
        v = self.value_out(torch.relu(self.value_fc(v)))
        return p, (v if self.wdl else torch.tanh(v))

    def architecture(self) -> dict:
        return {
            "kind": "resnet",
            "blocks": self.blocks_n,
            "filters": self.filters,
            "policyHead": "conv3x3-relu-conv1x1",
            "valueHead": f"conv1x1(32)-fc({self.value_hidden})-fc(3)-wdl" if self.wdl else f"conv1x1(32)-fc({self.value_hidden})-fc(1)-tanh",
            "parameters": sum(p.numel() for p in self.parameters()),
        }


def export_onnx(model: PolicyValueNet, path: str) -> None:
    """Exports in eval mode (batch norm folded into the convolutions), dynamic batch axis, opset 13."""
    model.eval()
    e = ENCODINGS[model.encoding]
    dummy = torch.zeros(1, e["planes"], e["height"], e["width"], device=next(model.parameters()).device)
    # The TorchScript exporter: newer PyTorch (2.9+) defaults to the dynamo one, whose graphs differ.
    legacy = {"dynamo": False} if "dynamo" in inspect.signature(torch.onnx.export).parameters else {}
    torch.onnx.export(
        model,
        dummy,
        path,
        input_names=["input"],
        output_names=["policy", "wdl" if model.wdl else "value"],
        dynamic_axes={"input": {0: "batch"}, "policy": {0: "batch"}, ("wdl" if model.wdl else "value"): {0: "batch"}},
        opset_version=13,
        do_constant_folding=True,
        **legacy,
    )


def scalar_value(model: PolicyValueNet, v: torch.Tensor) -> torch.Tensor:
    """The value [N] in [-1, 1] from the value output: tanh as is, WDL logits as softmax W - L."""
    if getattr(model, "wdl", False):
        q = torch.softmax(v, dim=1)
        return q[:, 0] - q[:, 2]
    return v[:, 0]


def shogi_mirror_permutation() -> "torch.Tensor":
    """Policy index permutation of the left-right mirror of a shogi position (kishi-shogi-1).

    Shogi's rules are symmetric under mirroring the files, so a mirrored position with the mirrored
    policy target is another valid training example. Directions (dr, dc) become (dr, -dc), the two
    knight planes swap, drops keep their plane; squares (row, col) become (row, 8 - col).
    """
    dir_map = [0, 7, 6, 5, 4, 3, 2, 1]
    plane_map = []
    for plane in range(139):
        if plane >= 132:
            plane_map.append(plane)
            continue
        promo, p = (66, plane - 66) if plane >= 66 else (0, plane)
        q = 129 - p if p >= 64 else dir_map[p // 8] * 8 + p % 8  # 64 <-> 65
        plane_map.append(promo + q)
    perm = []
    for plane in range(139):
        for sq in range(81):
            r, c = divmod(sq, 9)
            perm.append(plane_map[plane] * 81 + r * 9 + (8 - c))
    return torch.tensor(perm)
