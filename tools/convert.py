"""Convert a FLAIR #1 / FLAIR-HUB segmentation-models-pytorch checkpoint to ONNX with metadata.

Usage (through the wrapper, which builds ``.venv-tools`` first)::

    scripts/export-onnx CHECKPOINT -o model.onnx [--preset flair1|flairhub-landcover|flairhub-croptype]
        [--encoder resnet34] [--classes 13] [--in-channels 5] [--bands R,G,B,NIR,ELEV | --bands 4,1,2]
        [--mean ...] [--std ...] [--resolution-cm 20] [--class-values 1,...,13] [--tile 512] [--static]

Architecture and class count are read from the checkpoint's tensors (given options must agree).
The ONNX file gets the flair_qgis metadata (classes with names and colours, bands, normalisation
in pixel units, resolution, tile size), is checked against PyTorch on a random input
(``max |onnxruntime - torch|`` printed, must be < 1e-4), and its model card is printed.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
from collections.abc import Sequence

from flair_qgis.core.model_presets import PRESETS
from flair_qgis.core.nomenclature import default_color

from .checkpoints import Architecture, CheckpointError, infer_architecture, load_checkpoint

TOLERANCE = 1e-4


def _numbers(text: str | None, cast=float) -> list | None:
    if text is None:
        return None
    return [cast(v) for v in text.replace(";", ",").split(",") if v.strip()]


def _bands(text: str | None) -> list | None:
    if text is None:
        return None
    parts = [p.strip() for p in text.split(",") if p.strip()]
    return [int(p) for p in parts] if all(p.isdigit() for p in parts) else parts


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="export-onnx", description=__doc__.split("\n\n")[0])
    parser.add_argument("checkpoint", help=".ckpt (Lightning), .pth/.pt (state dict) or .safetensors")
    parser.add_argument("-o", "--output", required=True, help="ONNX file to write")
    parser.add_argument("--preset", choices=sorted(PRESETS), help="classes, bands, normalisation of a FLAIR task")
    parser.add_argument("--encoder", choices=["resnet18", "resnet34"], help="check the encoder (read from weights)")
    parser.add_argument("--classes", type=int, help="check the class count (read from weights)")
    parser.add_argument("--in-channels", type=int, help="check the input channels (read from weights)")
    parser.add_argument("--class-values", help="raster value of each output index, e.g. 1,2,...,13")
    parser.add_argument("--class-names", help="names of the classes, comma-separated")
    parser.add_argument("--bands", help="band names (R,G,B,NIR,ELEV) or band numbers of the modality file (4,1,2)")
    parser.add_argument("--modality", help="input modality (AERIAL_RGBI, DEM_ELEV, SPOT_RGBI...)")
    parser.add_argument("--mean", help="per-band mean in pixel units (0..255 for 8-bit imagery)")
    parser.add_argument("--std", help="per-band standard deviation in pixel units")
    parser.add_argument("--resolution-cm", type=float, help="ground sampling distance of the training data")
    parser.add_argument("--tile", type=int, default=512, help="tile edge used for tracing and checking (px)")
    parser.add_argument("--static", action="store_true", help="fixed batch 1 and tile size (default: dynamic)")
    parser.add_argument("--name", help="model name for the card")
    parser.add_argument("--description", help="free text stored in the model")
    return parser.parse_args(argv)


def build_metadata(args: argparse.Namespace, arch: Architecture) -> dict:
    """The flair_qgis metadata of the exported model (see README, "Model metadata").

    Raises:
        SystemExit: option values inconsistent with the checkpoint.
    """
    preset = PRESETS.get(args.preset or "")
    classes = list(preset.classes) if preset else []
    values = _numbers(args.class_values, int)
    names = [n.strip() for n in args.class_names.split(",")] if args.class_names else None
    if values is not None or names is not None or len(classes) != arch.classes:
        if classes and len(classes) != arch.classes and values is None:
            _fail(f"preset {args.preset} has {len(classes)} classes but the checkpoint predicts {arch.classes}")
        values = values or list(range(arch.classes))
        names = names or [next((c.name for c in classes if c.value == v), f"class {v}") for v in values]
        if len(values) != arch.classes or len(names) != arch.classes:
            _fail(f"give one class value and name per output ({arch.classes}), got {len(values)} and {len(names)}")
        by_value = {c.value: c.color for c in classes}
        class_list = [
            {"value": v, "name": n, "color": by_value.get(v, default_color(i))}
            for i, (v, n) in enumerate(zip(values, names))
        ]
    else:
        class_list = [{"value": c.value, "name": c.name, "color": c.color} for c in classes]
    bands = (
        _bands(args.bands)
        or (list(preset.bands) if preset else None)
        or [f"band {i + 1}" for i in range(arch.in_channels)]
    )
    mean = _numbers(args.mean) or (list(preset.mean) if preset else None) or [0.0] * arch.in_channels
    std = _numbers(args.std) or (list(preset.std) if preset else None) or [255.0] * arch.in_channels
    for what, items in (("bands", bands), ("mean", mean), ("std", std)):
        if len(items) != arch.in_channels:
            _fail(f"{what} has {len(items)} entries but the checkpoint's first convolution takes {arch.in_channels}")
    resolution = args.resolution_cm or (preset.resolution_cm if preset else None)
    modality = args.modality or (preset.modality if preset else None)
    meta: dict = {
        "model_type": "Segmentor",
        "architecture": f"smp.Unet({arch.encoder}, decoder {list(arch.decoder_channels)}, width {arch.encoder_width})",
        "classes": class_list,
        "output_activation": "logits",
        "tile_size": args.tile,
        "description": args.description or (preset.description if preset else ""),
        "source_checkpoint": os.path.basename(args.checkpoint),
    }
    if modality:
        meta["inputs"] = [{"name": "input", "modality": modality, "bands": bands, "mean": mean, "std": std,
                           **({"resolution_cm": resolution} if resolution else {})}]  # fmt: skip
    else:
        meta.update(bands=bands, mean=mean, std=std)
        if resolution:
            meta["resolution_cm"] = resolution
    return meta


def _say(message: str) -> None:
    """Command-line output (this is a CLI, not plugin code)."""
    sys.stdout.write(message + "\n")
    sys.stdout.flush()


def _fail(message: str) -> None:
    sys.stderr.write(f"export-onnx: {message}\n")
    raise SystemExit(2)


def model_card(path: str, arch: Architecture, parameters: int, diff: float | None) -> str:
    """A plain-text card of the written model, read back with flair_qgis's own metadata parser."""
    from flair_qgis.core.engine.model import read_model_info

    info = read_model_info(path)
    with open(path, "rb") as handle:
        digest = hashlib.sha256(handle.read()).hexdigest()
    lines = [
        f"Model card: {os.path.basename(path)} ({os.path.getsize(path) / 1e6:.1f} MB, sha256 {digest[:16]})",
        f"  architecture  U-Net {arch.encoder}, {parameters / 1e6:.2f} M parameters, "
        f"decoder {list(arch.decoder_channels)}",
        f"  description   {info.description}",
        f"  tile          {info.tile_size_px} px (inputs {'fixed' if info.input.tile_size_px else 'dynamic'})",
    ]
    for spec in info.inputs:
        res = f"{spec.resolution_m:g} m" if spec.resolution_m else "unset"
        lines.append(
            f"  input {spec.name}: {spec.channels} channels {list(spec.band_names)}"
            f"{' modality ' + spec.modality if spec.modality else ''}, resolution {res}"
        )
        lines.append(f"    mean {list(spec.mean)}  std {list(spec.std)} (pixel units)")
    for head in info.outputs:
        lines.append(f"  output {head.name}: {head.task}, {len(head.classes)} classes")
        for c in head.classes:
            lines.append(f"    {c.value:>4}  {c.color}  {c.name}")
    if diff is not None:
        lines.append(f"  check         max abs difference onnxruntime vs PyTorch = {diff:.3g} (< {TOLERANCE:g})")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    from .onnx_export import ExportCheckError, export_onnx
    from .unet import build_unet, parameter_count

    try:
        state, info = load_checkpoint(args.checkpoint)
        arch = infer_architecture(state)
    except CheckpointError as err:
        _fail(str(err))
    for option, found in (
        ("--encoder", arch.encoder),
        ("--classes", arch.classes),
        ("--in-channels", arch.in_channels),
    ):
        given = getattr(args, option[2:].replace("-", "_"))
        if given is not None and given != found:
            _fail(f"{option} {given} but the checkpoint holds {found}")
    _say(
        f"checkpoint: {info['format']}, prefix {info['prefix']!r} removed, U-Net {arch.encoder}, "
        f"{arch.in_channels} input channels, {arch.classes} classes"
    )
    metadata = build_metadata(args, arch)
    model = build_unet(arch.encoder, arch.in_channels, arch.classes, arch.decoder_channels, arch.encoder_width)
    missing, unexpected = model.load_state_dict(state, strict=False)
    missing = [k for k in missing if not k.endswith("num_batches_tracked")]
    if missing or unexpected:
        _fail(f"checkpoint keys do not match an smp U-Net: missing {missing[:5]}, unexpected {unexpected[:5]}")
    try:
        diff = export_onnx(
            model, args.output, arch.in_channels, metadata, tile=args.tile, dynamic=not args.static,
            tolerance=TOLERANCE, check=True, log=_say,
        )  # fmt: skip
    except ExportCheckError as err:
        _fail(str(err))
    _say(f"max abs difference onnxruntime vs PyTorch: {diff:.3g}")
    _say(model_card(os.path.abspath(args.output), arch, parameter_count(model), diff))
    return 0


if __name__ == "__main__":
    sys.exit(main())
