"""Quantize: turn an FP32 ONNX model into an INT8 one calibrated on the user's own imagery.

Entry point: :func:`job.quantize` draws calibration and held-out validation tiles
(:mod:`.tiles`, read exactly as ``flair:segment`` reads them), quantises (:mod:`.int8`), then
compares the INT8 class maps with the FP32 ones on the held-out tiles (:mod:`.validation`).
:mod:`.cpu` says whether this CPU has a fast INT8 path. ``onnx`` and
``onnxruntime.quantization`` are imported only inside the functions that quantise: the plugin
loads and segments without them.
"""
