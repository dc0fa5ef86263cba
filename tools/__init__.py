"""PyTorch side tooling for flair_qgis: model definitions, ONNX export, demo-model training.

Runs in the separate ``.venv-tools`` environment (``scripts/tools-env.sh``); the QGIS plugin
never imports this package (it only needs onnxruntime).
"""
