"""Kishi policy/value nets: model definition, training chunks, ONNX export, INT8 (QDQ) quantization."""
