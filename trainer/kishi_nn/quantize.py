"""Static INT8 quantization of the policy/value nets in QDQ form, with the `onnx` package only.

onnxruntime's Python quantization tools are not available here (Debian has no python3-onnxruntime),
so this module does what `quantize_static(..., QuantFormat.QDQ)` does for our small op set:

1. Calibration: a tiny NumPy interpreter runs the fp32 graph (Conv, Relu, Add, Flatten, Gemm, Tanh,
   Identity) on calibration positions and records each tensor's min and max.
2. Every float activation that feeds a Conv, Gemm, Add, or a Flatten before a Gemm, gets a QuantizeLinear ->
   DequantizeLinear pair (uint8, asymmetric, scale = (max - min) / 255 over a range that includes 0,
   so ReLU outputs get zero point 0); weights become int8, symmetric, per output channel, behind a
   DequantizeLinear; biases become int32 with scale = input scale * weight scale.
3. onnxruntime then fuses DQ -> Conv -> (Relu) -> Q into QLinearConv, DQ -> Add -> Q into
   QLinearAdd and the fully connected layers into QGemm when it loads the model
   (graph optimisation level "all"). The last policy convolution and the last value layer keep
   float outputs (DQ on their inputs and weights, no Q after), so the outputs are not rounded.

`reduce_range` (7-bit weights) is for x86 CPUs without VNNI, where u8s8 products may saturate.
"""
from __future__ import annotations

import numpy as np
import onnx
from numpy.lib.stride_tricks import sliding_window_view
from onnx import TensorProto, helper, numpy_helper

QUANTIZED_OPS = {"Conv", "Gemm", "Add", "Flatten"}


def _attrs(node) -> dict:
    return {a.name: helper.get_attribute_value(a) for a in node.attribute}


def fold_identities(model: onnx.ModelProto) -> None:
    """Replaces Identity nodes that copy an initializer by an initializer of the output's name."""
    g = model.graph
    inits = {i.name: i for i in g.initializer}
    keep = []
    for node in g.node:
        if node.op_type == "Identity" and node.input[0] in inits:
            t = onnx.TensorProto()
            t.CopyFrom(inits[node.input[0]])
            t.name = node.output[0]
            g.initializer.append(t)
            inits[t.name] = t
        else:
            keep.append(node)
    del g.node[:]
    g.node.extend(keep)


def _conv(x: np.ndarray, w: np.ndarray, b: np.ndarray | None, a: dict) -> np.ndarray:
    if a.get("group", 1) != 1 or any(s != 1 for s in a.get("strides", [1, 1])) or any(d != 1 for d in a.get("dilations", [1, 1])):
        raise ValueError("only group 1, stride 1, dilation 1 convolutions are supported")
    pads = a.get("pads", [0, 0, 0, 0])
    x = np.pad(x, ((0, 0), (0, 0), (pads[0], pads[2]), (pads[1], pads[3])))
    kh, kw = w.shape[2], w.shape[3]
    win = sliding_window_view(x, (kh, kw), axis=(2, 3))  # N, C, H, W, kh, kw
    y = np.einsum("nchwij,ocij->nohw", win, w, optimize=True)
    if b is not None:
        y += b[None, :, None, None]
    return y.astype(np.float32)


def run_numpy(model: onnx.ModelProto, inputs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Runs the (fp32, Identity-folded) graph; returns every tensor by name."""
    g = model.graph
    env = {i.name: numpy_helper.to_array(i) for i in g.initializer}
    env.update(inputs)
    for node in g.node:
        a = _attrs(node)
        x = [env[i] if i else None for i in node.input]
        op = node.op_type
        if op == "Conv":
            y = _conv(x[0], x[1], x[2] if len(x) > 2 else None, a)
        elif op == "Relu":
            y = np.maximum(x[0], 0)
        elif op == "Add":
            y = x[0] + x[1]
        elif op == "Flatten":
            axis = a.get("axis", 1)
            y = x[0].reshape(int(np.prod(x[0].shape[:axis])), -1)
        elif op == "Gemm":
            A = x[0].T if a.get("transA", 0) else x[0]
            B = x[1].T if a.get("transB", 0) else x[1]
            y = a.get("alpha", 1.0) * (A @ B)
            if len(x) > 2 and x[2] is not None:
                y = y + a.get("beta", 1.0) * x[2]
        elif op == "Tanh":
            y = np.tanh(x[0])
        elif op == "Identity":
            y = x[0]
        else:
            raise ValueError(f"op {op} is not supported by the calibration interpreter")
        env[node.output[0]] = np.asarray(y, dtype=np.float32)
    return env


def calibrate(model: onnx.ModelProto, batches) -> dict[str, tuple[float, float]]:
    """Min and max of every tensor over the calibration batches (iterable of input arrays)."""
    ranges: dict[str, tuple[float, float]] = {}
    name = model.graph.input[0].name
    inits = {i.name for i in model.graph.initializer}
    for x in batches:
        env = run_numpy(model, {name: x.astype(np.float32)})
        for k, v in env.items():
            if k in inits:
                continue
            lo, hi = float(v.min()), float(v.max())
            if k in ranges:
                lo, hi = min(lo, ranges[k][0]), max(hi, ranges[k][1])
            ranges[k] = (lo, hi)
    return ranges


def _u8_params(lo: float, hi: float) -> tuple[float, int]:
    lo, hi = min(lo, 0.0), max(hi, 0.0)
    if hi - lo < 1e-8:
        return 1.0, 0
    scale = (hi - lo) / 255.0
    zp = int(round(-lo / scale))
    return scale, max(0, min(255, zp))


def quantize_qdq(model: onnx.ModelProto, ranges: dict[str, tuple[float, float]], reduce_range: bool = False) -> onnx.ModelProto:
    """Returns a QDQ copy of `model` (Identity-folded, calibrated with `ranges`)."""
    m = onnx.ModelProto()
    m.CopyFrom(model)
    g = m.graph
    inits = {i.name: i for i in g.initializer}
    qmax = 63 if reduce_range else 127
    new_inits: list[onnx.TensorProto] = []
    act: dict[str, tuple[str, float]] = {}  # tensor -> (dequantized name, scale)
    qdq_nodes: dict[str, list] = {}  # tensor -> [Q, DQ] to insert right after its producer (or at the start)

    def quantize_activation(t: str) -> tuple[str, float]:
        if t in act:
            return act[t]
        lo, hi = ranges[t]
        scale, zp = _u8_params(lo, hi)
        s_name, z_name = t + "_scale", t + "_zero_point"
        new_inits.append(numpy_helper.from_array(np.array(scale, np.float32), s_name))
        new_inits.append(numpy_helper.from_array(np.array(zp, np.uint8), z_name))
        q = helper.make_node("QuantizeLinear", [t, s_name, z_name], [t + "_quantized"], name=t + "_QuantizeLinear")
        dq = helper.make_node("DequantizeLinear", [t + "_quantized", s_name, z_name], [t + "_dequantized"], name=t + "_DequantizeLinear")
        qdq_nodes[t] = [q, dq]
        act[t] = (t + "_dequantized", scale)
        return act[t]

    def quantize_weight(name: str, axis: int) -> tuple[str, np.ndarray]:
        w = numpy_helper.to_array(inits[name]).astype(np.float32)
        moved = np.moveaxis(w, axis, 0).reshape(w.shape[axis], -1)
        scale = np.abs(moved).max(axis=1) / qmax
        scale[scale == 0] = 1.0
        shape = [1] * w.ndim
        shape[axis] = -1
        wq = np.clip(np.round(w / scale.reshape(shape)), -qmax, qmax).astype(np.int8)
        new_inits.append(numpy_helper.from_array(wq, name + "_quantized"))
        new_inits.append(numpy_helper.from_array(scale.astype(np.float32), name + "_scale"))
        new_inits.append(numpy_helper.from_array(np.zeros(len(scale), np.int8), name + "_zero_point"))
        dq = helper.make_node("DequantizeLinear", [name + "_quantized", name + "_scale", name + "_zero_point"], [name + "_dequantized"],
                              name=name + "_DequantizeLinear", axis=axis)
        weight_nodes.append(dq)
        return name + "_dequantized", scale.astype(np.float32)

    def quantize_bias(name: str, x_scale: float, w_scale: np.ndarray) -> str:
        b = numpy_helper.to_array(inits[name]).astype(np.float64)
        s = (x_scale * w_scale).astype(np.float64)
        bq = np.round(b / s).astype(np.int32)
        new_inits.append(numpy_helper.from_array(bq, name + "_quantized"))
        new_inits.append(numpy_helper.from_array(s.astype(np.float32), name + "_scale"))
        new_inits.append(numpy_helper.from_array(np.zeros(len(s), np.int32), name + "_zero_point"))
        weight_nodes.append(helper.make_node("DequantizeLinear", [name + "_quantized", name + "_scale", name + "_zero_point"], [name + "_dequantized"],
                                             name=name + "_DequantizeLinear", axis=0))
        return name + "_dequantized"

    weight_nodes: list = []
    consumers: dict[str, list[str]] = {}
    for node in g.node:
        for t in node.input:
            consumers.setdefault(t, []).append(node.op_type)
    for node in g.node:
        if node.op_type not in QUANTIZED_OPS:
            continue
        # A Flatten is quantized only on the way into a fully connected layer: the policy logits stay float.
        if node.op_type == "Flatten" and not any(c in ("Gemm", "Conv") for c in consumers.get(node.output[0], [])):
            continue
        if node.op_type in ("Add", "Flatten"):
            for k, t in enumerate(node.input):
                if t not in inits:
                    node.input[k] = quantize_activation(t)[0]
            continue
        x_name, x_scale = quantize_activation(node.input[0])
        node.input[0] = x_name
        a = _attrs(node)
        axis = 0 if node.op_type == "Conv" or a.get("transB", 0) else 1
        if node.input[1] not in inits:
            raise ValueError(f"{node.name}: weights are not an initializer")
        w_name, w_scale = quantize_weight(node.input[1], axis)
        node.input[1] = w_name
        if len(node.input) > 2 and node.input[2] in inits:
            node.input[2] = quantize_bias(node.input[2], x_scale, w_scale)

    # Rebuild the node list: weight DQs first, then each node followed by the Q/DQ of its outputs.
    graph_input = g.input[0].name
    nodes = list(weight_nodes)
    nodes.extend(qdq_nodes.get(graph_input, []))
    for node in g.node:
        nodes.append(node)
        for out in node.output:
            nodes.extend(qdq_nodes.get(out, []))
    del g.node[:]
    g.node.extend(nodes)
    used = {i for n in g.node for i in n.input}
    keep = [i for i in g.initializer if i.name in used]
    del g.initializer[:]
    g.initializer.extend(keep + new_inits)
    onnx.checker.check_model(m)
    return m
