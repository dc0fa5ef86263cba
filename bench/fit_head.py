"""Fit the classifier of a segmentation ONNX model to real FLAIR masks, so that its logits mean something.

The baseline architecture of ``baseline_onnx.py`` has random weights without PyTorch. Its logits
then sit near ties, and INT8-vs-FP32 agreement measured on it says more about those ties than
about quantisation. This keeps the encoder and decoder as they are and replaces the last
convolution (the segmentation head, 3x3 here as in segmentation-models-pytorch) by a ridge
regression of the one-hot reference classes on the decoder's output features.

A k x k convolution is linear in the k*k neighbourhood of its input, so with ``F`` the decoder
output ``(channels, rows, cols)`` zero-padded like the convolution, each pixel gets the feature
vector ``x = [F[c, r + i - k//2, s + j - k//2] for c, i, j] + [1]`` and the head solves

    minimise  sum_pixels ||W x - y||^2 + lambda ||W_no_bias||^2,   W = (X'X + lambda I')^-1 X'Y

with ``y`` the one-hot class (FLAIR #1 codes 1..19, codes 13..19 as class 13 "other", index
code-1). ``lambda`` is ``RIDGE`` times the mean diagonal of ``X'X`` (scale free). ``X'X`` and
``X'Y`` are summed patch by patch, so memory is one patch's features.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

RIDGE = 1e-3
CLASSES = 13


def head_conv(model):
    """The Conv node whose output is the graph's output (through Identity nodes)."""
    producers = {out: node for node in model.graph.node for out in node.output}
    node = producers[model.graph.output[0].name]
    while node.op_type == "Identity":
        node = producers[node.input[0]]
    if node.op_type != "Conv":
        raise ValueError(f"the model's output comes from {node.op_type}, not a Conv head")
    return node


def _features_session(model, feature_name: str, threads: int):
    import onnx
    import onnxruntime

    probe = onnx.ModelProto()
    probe.CopyFrom(model)
    probe.graph.output.append(onnx.helper.make_tensor_value_info(feature_name, onnx.TensorProto.FLOAT, None))
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    return onnxruntime.InferenceSession(probe.SerializeToString(), options, providers=["CPUExecutionProvider"])


def neighbourhoods(features: np.ndarray, kernel: int) -> np.ndarray:
    """``(rows*cols, channels*kernel*kernel)`` inputs of a ``kernel`` x ``kernel`` convolution, zero-padded,
    ordered like its weight ``(out, channels, ky, kx)``."""
    channels, rows, cols = features.shape
    pad = kernel // 2
    padded = np.pad(features, ((0, 0), (pad, pad), (pad, pad)))
    offsets = [(c, i, j) for c in range(channels) for i in range(kernel) for j in range(kernel)]
    columns = [padded[c, i : i + rows, j : j + cols].ravel() for c, i, j in offsets]
    return np.stack(columns, axis=1)


def class_index(mask: np.ndarray) -> np.ndarray:
    """FLAIR #1 codes 1..19 to class indices 0..12 (codes 13..19 are "other", index 12)."""
    return np.minimum(mask.astype(np.int64), CLASSES) - 1


def _samples(patches: list[tuple[Path, Path]], rotations: int):
    import rasterio

    for image_path, mask_path in patches:
        with rasterio.open(image_path) as src:
            image = src.read().astype(np.float32)
        with rasterio.open(mask_path) as src:
            mask = src.read(1)
        for k in range(rotations):
            yield np.rot90(image, k, axes=(1, 2)), np.rot90(mask, k)


def fit_head(path: Path, patches: list[tuple[Path, Path]], rotations: int = 4, threads: int = 2) -> dict:
    """Replace the head of the model at ``path`` (in place) by the ridge fit on ``patches``.

    Args:
        path: a FLAIR #1 model, 5 bands, 13 logits, ``mean``/``std`` metadata in 0..255 units.
        patches: ``(IMG, MSK)`` file pairs.
        rotations: each patch also seen rotated by 90, 180, 270 degrees (as the benchmark mosaics hold them).
        threads: onnxruntime threads.

    Returns:
        What the fit did and how well the fitted model reproduces the masks it was fitted on
        (pixel accuracy, mIoU over the classes present, mean top-1 minus top-2 logit margin).
    """
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(path))
    meta = {p.key: json.loads(p.value) for p in model.metadata_props}
    mean = np.asarray(meta["mean"], np.float32)[:, None, None]
    std = np.asarray(meta["std"], np.float32)[:, None, None]
    head = head_conv(model)
    inits = {t.name: t for t in model.graph.initializer}
    weight = numpy_helper.to_array(inits[head.input[1]])
    kernel = weight.shape[-1]
    session = _features_session(model, head.input[0], threads)
    input_name = session.get_inputs()[0].name
    n_features = weight.shape[1] * kernel * kernel + 1
    gram = np.zeros((n_features, n_features))
    cross = np.zeros((n_features, CLASSES))
    cached = []
    for image, mask in _samples(patches, rotations):
        feats = session.run([head.input[0]], {input_name: ((image - mean) / std)[None]})[0][0]
        x = np.hstack([neighbourhoods(feats, kernel), np.ones((mask.size, 1), np.float32)]).astype(np.float64)
        y = np.eye(CLASSES)[class_index(mask).ravel()]
        gram += x.T @ x
        cross += x.T @ y
        cached.append((feats, class_index(mask)))
    penalty = RIDGE * np.mean(np.diag(gram)[:-1]) * np.eye(n_features)
    penalty[-1, -1] = 0.0  # the bias is not shrunk
    beta = np.linalg.solve(gram + penalty, cross)  # (features, classes)
    new_weight = beta[:-1].T.reshape(weight.shape).astype(np.float32)
    new_bias = beta[-1].astype(np.float32)
    inits[head.input[1]].CopyFrom(numpy_helper.from_array(new_weight, head.input[1]))
    inits[head.input[2]].CopyFrom(numpy_helper.from_array(new_bias, head.input[2]))
    fit = _fit_quality(cached, new_weight, new_bias, kernel)
    record = {"method": "ridge regression of one-hot FLAIR #1 masks on the decoder output", "ridge": RIDGE,
              "patches": [p[1].name for p in patches], "rotations": rotations, **fit}  # fmt: skip
    for prop in model.metadata_props:
        if prop.key == "name":
            prop.value = json.dumps("U-Net ResNet-34 baseline architecture (random encoder/decoder, head fitted)")
    model.metadata_props.add(key="head_fit", value=json.dumps(record))
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
    return record


def _fit_quality(cached, weight: np.ndarray, bias: np.ndarray, kernel: int) -> dict:
    confusion = np.zeros((CLASSES, CLASSES), np.int64)
    margins = []
    flat = weight.reshape(weight.shape[0], -1)
    for feats, truth in cached:
        logits = neighbourhoods(feats, kernel) @ flat.T + bias
        top2 = np.sort(logits, axis=1)[:, -2:]
        margins.append(float(np.mean(top2[:, 1] - top2[:, 0])))
        predicted = logits.argmax(axis=1)
        confusion += np.bincount(truth.ravel() * CLASSES + predicted, minlength=CLASSES**2).reshape(CLASSES, CLASSES)
    tp = np.diag(confusion).astype(float)
    union = confusion.sum(0) + confusion.sum(1) - tp
    present = confusion.sum(1) > 0
    return {
        "pixel_accuracy": float(tp.sum() / confusion.sum()),
        "miou_classes_present": float(np.mean(tp[present] / union[present])),
        "mean_top2_margin": float(np.mean(margins)),
    }


def flair_patches(folder: Path) -> list[tuple[Path, Path]]:
    """Every ``IMG_*.tif`` with its ``MSK_*.tif`` in ``folder``."""
    images = sorted(folder.glob("IMG_*.tif"))
    return [(image, folder / image.name.replace("IMG_", "MSK_")) for image in images]
