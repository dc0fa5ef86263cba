"""Quantise an ONNX model to INT8 without QGIS (what ``scripts/export-onnx --quantize`` runs).

    .venv/bin/python scripts/quantize.py model.onnx -o model-int8.onnx --calibration a.tif [b.tif ...]

The same core as ``flair:quantize``: tiles drawn with --seed, held-out validation tiles, metadata
kept plus ``quantization``. Exit code 2 with one line for a refusal or bad input.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="quantize", description=__doc__.split("\n\n")[0])
    parser.add_argument("model", help="FP32 .onnx")
    parser.add_argument("-o", "--output", required=True, help="INT8 .onnx to write")
    parser.add_argument("--calibration", nargs="+", required=True, help="calibration rasters")
    parser.add_argument("--calibration-tiles", type=int, default=32)
    parser.add_argument("--validation-tiles", type=int, default=8)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--method", choices=["static", "dynamic"], default="static")
    args = parser.parse_args(argv)

    from flair_qgis.core.engine.pixel_sources import capture_file
    from flair_qgis.core.errors import FlairError
    from flair_qgis.core.quantize.job import QuantizeRequest, quantize

    request = QuantizeRequest(args.model, args.output, args.calibration_tiles, args.validation_tiles, args.seed,
                              args.method)  # fmt: skip
    try:
        result = quantize(request, [capture_file(path) for path in args.calibration])
    except FlairError as err:
        sys.stderr.write(f"quantize: {err}\n")
        return 2
    out = sys.stdout
    for warning in result.warnings:
        out.write(f"warning: {warning}\n")
    out.write(f"INT8 model: {result.output_path} (sha256 {result.sha256})\n{result.capability.summary}\n")
    if result.validation is not None:
        out.write(
            f"agreement with FP32 on {result.validation.tiles} held-out tile(s): {result.validation.agreement:.4f}\n"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
