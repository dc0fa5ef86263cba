"""Convert a FLAIR #1 / FLAIR-HUB segmentation-models-pytorch checkpoint to ONNX with metadata.

Usage (through the wrapper, which builds ``.venv-tools`` first)::

    scripts/export-onnx CHECKPOINT -o model.onnx [--preset flair1|flairhub-landcover|flairhub-croptype]
        [--encoder resnet34] [--classes 13] [--in-channels 5] [--bands R,G,B,NIR,ELEV | --bands 4,1,2]
        [--mean ...] [--std ...] [--resolution-cm 20] [--class-values 1,...,13] [--tile 512] [--static]

Architecture and class count are read from the checkpoint's tensors (given options must agree).
The ONNX file gets the flair_qgis metadata (classes with names and colours, bands, normalisation
in pixel units, resolution, tile size), is checked against PyTorch on a random input
(``max |onnxruntime - torch| / max(1, max |torch|)`` must be < 1e-4), and its model card is printed.

IGN's layouts are read as IGN's code writes them (FLAIR-INC: IGNF/FLAIR-1 Lightning ``.ckpt`` with
``model.seg_model.*`` keys and the ``.pth`` state dicts zone_detect loads; FLAIR-HUB: IGNF/FLAIR-HUB
Lightning ``.ckpt`` with ``model.encoders.<MODALITY>.seg_model.*`` and
``model.main_decoders.<TASK>.seg_model.*`` keys, and its ``.safetensors`` with or without ``model.``).
The architecture is read from the keys (``--arch`` checks it, or names it for an encoder the keys
do not identify). A 19-output FLAIR-INC U-Net gets the 19 FLAIR classes (codes 1..19) and
FLAIR-INC's normalisation without flags; a FLAIR-HUB decoder gets its task's classes and inputs.
UPerNets are exported by torch.onnx's dynamo exporter at a fixed tile size (--tile).

Published model families (checkpoints from IGN's Hugging Face pages)::

    scripts/export-onnx FLAIR-INC_rgbie_15cl_resnet34-unet_weights.pth -o flair-inc-rgbie.onnx
    scripts/export-onnx FLAIR-INC_rgbi_15cl_resnet34-unet_weights.pth -o flair-inc-rgbi.onnx
    scripts/export-onnx FLAIR-INC_rgb_15cl_resnet34-unet_weights.pth -o flair-inc-rgb.onnx
    scripts/export-onnx FLAIR-HUB_LC-A_convnextv2tiny-upernet.safetensors -o hub-lc.onnx --tile 512
    scripts/export-onnx FLAIR-HUB_LC-A_swinbase-upernet.safetensors -o hub-lc-swin.onnx --tile 512
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
from collections.abc import Sequence

from flair_qgis.core.model_presets import PRESETS
from flair_qgis.core.nomenclature import default_color

from .checkpoints import Architecture, CheckpointError
from .ign_layouts import TASK_PRESETS

TOLERANCE = 1e-4
FLAIR_INC_PRESETS = {5: "flair1-19", 4: "flair-inc-rgbi", 3: "flair-inc-rgb"}
"""The preset of a 19-output FLAIR-INC U-Net (FLAIR codes 1..19) by input bands."""


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
    parser = argparse.ArgumentParser(
        prog="export-onnx",
        description=__doc__.split("\n\n")[0],
        epilog="Published model families:\n"
        + __doc__.split("Published model families (checkpoints from IGN's Hugging Face pages)::")[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("checkpoint", help=".ckpt (Lightning), .pth/.pt (state dict) or .safetensors")
    parser.add_argument("-o", "--output", required=True, help="ONNX file to write")
    parser.add_argument("--preset", choices=sorted(PRESETS), help="classes, bands, normalisation of a FLAIR task")
    parser.add_argument(
        "--arch", help="<encoder>-<decoder> as IGN's configs write it (convnextv2_tiny-upernet, resnet34-unet)"
    )
    parser.add_argument("--task", help="FLAIR-HUB decoder to export (AERIAL_LABEL-COSIA, ALL_LABEL-LPIS)")
    parser.add_argument("--encoder", help="check the encoder (read from weights)")
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
        "name": args.name or os.path.splitext(os.path.basename(args.checkpoint))[0],
        "architecture": (
            f"smp.Unet({arch.encoder}, decoder {list(arch.decoder_channels)}, width {arch.encoder_width})"
            if arch.decoder_channels
            else f"smp {arch.name} (segmentation-models-pytorch, timm)"
        ),
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


def model_card(path: str, arch: Architecture, parameters: int, figures) -> str:
    """A plain-text card of the written model, read back with flair_qgis's own metadata parser."""
    from flair_qgis.core.engine.model import read_model_info

    info = read_model_info(path)
    with open(path, "rb") as handle:
        digest = hashlib.sha256(handle.read()).hexdigest()
    lines = [
        f"Model card: {os.path.basename(path)} ({os.path.getsize(path) / 1e6:.1f} MB, sha256 {digest[:16]})",
        f"  name          {info.display_name}",
        f"  architecture  {arch.name}, {parameters / 1e6:.2f} M parameters"
        + (f", decoder {list(arch.decoder_channels)}" if arch.decoder_channels else ""),
        f"  description   {info.description}",
        f"  tile          {info.tile_size_px} px ("
        + ("fixed: the model takes only this tile size" if info.input.tile_size_px else "dynamic sizes")
        + ")",
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
    if figures is not None:
        lines.append(f"  check         {figures.line()}")
    return "\n".join(lines)


def default_preset(args: argparse.Namespace, arch: Architecture, task: str | None) -> str | None:
    """The preset used when none is given, or instead of ``flair1`` for a 19-output head: a
    FLAIR-HUB task's, or FLAIR-INC's 19 classes for a 19-output U-Net (codes 1..19)."""
    if args.preset == "flair1" and arch.classes == 19:
        _say("note: 19 outputs: the 19-class FLAIR-INC nomenclature (flair1-19) replaces flair1's 13 classes")
        return FLAIR_INC_PRESETS.get(arch.in_channels, "flair1-19")
    if args.preset or args.class_values or args.class_names:
        return args.preset
    if task is not None:
        return TASK_PRESETS.get(task)
    if arch.classes == 19 and arch.decoder == "unet":
        return FLAIR_INC_PRESETS.get(arch.in_channels)
    return None


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    from .networks import open_network, parameter_count
    from .onnx_export import ExportCheckError, export_checked

    try:
        network = open_network(args.checkpoint, args.arch, args.modality, args.task, args.tile)
    except CheckpointError as err:
        _fail(str(err))
    arch = network.arch
    for option, found in (
        ("--encoder", arch.encoder),
        ("--classes", arch.classes),
        ("--in-channels", arch.in_channels),
    ):
        given = getattr(args, option[2:].replace("-", "_"))
        if given is not None and given != found:
            _fail(f"{option} {given} but the checkpoint holds {found}")
    _say(f"checkpoint: {network.layout}; {arch.name}, {arch.in_channels} input channels, {arch.classes} classes")
    args.preset = default_preset(args, arch, network.task)
    args.modality = args.modality or network.modality
    metadata = build_metadata(args, arch)
    if network.exporter == "dynamo":
        _say(f"exporting with torch.onnx's dynamo exporter at a fixed {args.tile} x {args.tile} tile")
    try:
        figures = export_checked(
            network.model, args.output, arch.in_channels, metadata, tile=args.tile,
            dynamic=not args.static and network.exporter == "torchscript", tolerance=TOLERANCE, check=True,
            log=_say, exporter=network.exporter,
        )  # fmt: skip
    except ExportCheckError as err:
        _fail(str(err))
    _say(f"check: {figures.line()}")
    _say(model_card(os.path.abspath(args.output), arch, parameter_count(network.model), figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
