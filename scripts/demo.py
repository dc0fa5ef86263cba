"""`make demo`: the main job on bundled real data, through the Processing algorithms.

Segments the real FLAIR patches held out from the demo model's training with ``flair:segment``,
scores them with ``flair:evaluate`` (FLAIR #1 protocol, one confusion matrix over all patches),
ranks the reference polygons with ``flair:rank_labels``, prints a per-class table and mIoU/OA,
and writes into ``build/demo/``: class maps, confidence, error maps, suspicious-label
GeoPackages, ``report.json``/``report.csv``/``confusion.png`` and ``overview.png``, a QGIS
rendering of imagery, prediction, reference and error map for every patch.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

from headless import REPO, start_qgis

DATA = REPO / "tests" / "data" / "flair"
MODEL = Path(os.environ.get("FLAIR_DEMO_MODEL", REPO / "resources" / "models" / "flair-demo-unet.onnx"))
OUT = REPO / "build" / "demo"


def held_out_ids(model_metadata: dict) -> list[str]:
    """Patches the demo model never saw, as its metadata records them."""
    ids = json.loads(model_metadata.get("held_out_patches", "[]"))
    if not ids:
        sys.exit(f"{MODEL.name} does not record its held-out patches (metadata 'held_out_patches').")
    return [str(i) for i in ids]


def polygons_from_mask(mask: Path, target: Path) -> Path:
    """The reference mask as label polygons (what a photo-interpreter edits), in a GeoPackage."""
    import geopandas as gpd
    import rasterio
    from rasterio.features import shapes
    from shapely.geometry import shape

    with rasterio.open(mask) as src:
        values = src.read(1)
        rows = [{"code": int(v), "geometry": shape(g)} for g, v in shapes(values, transform=src.transform)]
        crs = src.crs.to_wkt() if src.crs else None
    gpd.GeoDataFrame(rows, geometry="geometry", crs=crs).to_file(target, driver="GPKG", layer="labels")
    return target


def render_overview(rows: list[dict], path: Path) -> None:
    """One row per patch: imagery | prediction over imagery | reference over imagery | error map."""
    from qgis.core import QgsMapRendererCustomPainterJob, QgsMapSettings, QgsRasterLayer
    from qgis.PyQt.QtCore import QSize, Qt
    from qgis.PyQt.QtGui import QColor, QFont, QImage, QPainter

    from flair_qgis.adapters.layers import paletted_renderer
    from flair_qgis.core.nomenclature import FLAIR1_CLASSES

    cell, header = 384, 28
    titles = ["imagery (R,G,B)", "prediction", "reference (MSK)", "error map"]
    image = QImage(cell * 4, header + cell * len(rows), QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.setFont(QFont("DejaVu Sans", 11))
    for i, title in enumerate(titles):
        painter.drawText(i * cell + 8, 20, title)
    for r, row in enumerate(rows):
        imagery = QgsRasterLayer(str(row["image"]), "imagery")
        prediction = QgsRasterLayer(str(row["prediction"]), "prediction")
        prediction.setOpacity(0.65)
        reference = QgsRasterLayer(str(row["reference"]), "reference")
        reference.setRenderer(paletted_renderer(reference, FLAIR1_CLASSES))
        reference.setOpacity(0.65)
        errors = QgsRasterLayer(str(row["error_map"]), "errors")
        for c, layers in enumerate([[imagery], [prediction, imagery], [reference, imagery], [errors]]):
            settings = QgsMapSettings()
            settings.setLayers(layers)
            settings.setDestinationCrs(imagery.crs())
            settings.setExtent(imagery.extent())
            settings.setOutputSize(QSize(cell, cell))
            settings.setBackgroundColor(QColor("white"))
            painter.save()
            painter.translate(c * cell, header + r * cell)
            job = QgsMapRendererCustomPainterJob(settings, painter)
            job.start()
            job.waitForFinished()
            painter.restore()
        painter.setPen(Qt.GlobalColor.white)
        painter.drawText(8, header + r * cell + cell - 10, f"IMG_{row['id']}")
    painter.end()
    image.save(str(path))


def _figure(value: float | None) -> str:
    return "   n/a" if value is None else f"{value:6.3f}"


def print_int8(model, fp32_report: dict, fp32_maps: list[Path], feedback) -> None:
    """The demo model in INT8 (flair:quantize on its training patches), scored on the same patches."""
    from demo_int8 import agreement, quantize_demo, score_held_out

    from flair_qgis.adapters.deps import quantize_dependency_error
    from flair_qgis.core.quantize.cpu import int8_capability

    missing = quantize_dependency_error()
    if missing:
        print(f"\nINT8: skipped ({missing})")
        return
    int8 = Path(quantize_demo(MODEL, OUT / "int8", feedback)["OUTPUT"])
    report, maps = score_held_out(int8, held_out_ids(model.metadata), OUT / "int8", feedback)
    delta = 100 * (report["miou"] - fp32_report["miou"])
    print(
        f"  INT8 mIoU {report['miou']:.4f}   OA {report['oa']:.4f}   (FP32 {fp32_report['miou']:.4f}, "
        f"{delta:+.2f} pt; agreement with FP32 {agreement(fp32_maps, maps):.4f}; {int8_capability().summary})"
    )


def main() -> int:
    if not MODEL.exists():
        print(f"The demo model {MODEL} is missing: run scripts/train-demo-model to rebuild it.", file=sys.stderr)
        return 1
    app = start_qgis()  # noqa: F841 - keeps QGIS alive
    import processing
    from qgis.core import QgsProcessingFeedback

    from flair_qgis.core.engine.model import read_model_info
    from flair_qgis.core.score.metrics import ConfusionMatrix, build_report
    from flair_qgis.core.score.protocols import get_protocol
    from flair_qgis.core.score.report import publish_report

    model = read_model_info(MODEL)
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir(parents=True)
    feedback = QgsProcessingFeedback()
    protocol = get_protocol("flair1")
    total = ConfusionMatrix()
    rows = []
    print(f"Demo model: {MODEL.name} ({model.metadata.get('name', 'FLAIR demo U-Net')})")
    inputs = OUT / "inputs"
    inputs.mkdir()
    for patch in held_out_ids(model.metadata):
        # Work on copies: QGIS writes .aux.xml statistics next to the rasters it opens.
        image, mask = (Path(shutil.copy(DATA / f"{kind}_{patch}.tif", inputs)) for kind in ("IMG", "MSK"))
        seg = processing.run(
            "flair:segment",
            {
                "INPUT": str(image),
                "MODEL": str(MODEL),
                "OUTPUT": str(OUT / f"CLASSES_{patch}.tif"),
                "OUTPUT_CONFIDENCE": str(OUT / f"CONFIDENCE_{patch}.tif"),
                "DEVICE": "auto",
            },
            feedback=feedback,
        )
        ev = processing.run(
            "flair:evaluate",
            {
                "PREDICTION": seg["OUTPUT"],
                "REFERENCE": str(mask),
                "PROTOCOL": "flair1",
                "OUTPUT_REPORT": str(OUT / f"report_{patch}.json"),
                "OUTPUT_ERROR_MAP": str(OUT / f"ERRORS_{patch}.tif"),
            },
            feedback=feedback,
        )
        labels = polygons_from_mask(mask, OUT / f"labels_{patch}.gpkg")
        processing.run(
            "flair:rank_labels",
            {
                "PREDICTION": seg["OUTPUT"],
                "REFERENCE": f"{labels}|layername=labels",
                "REFERENCE_FIELD": "code",
                "CONFIDENCE": seg["OUTPUT_CONFIDENCE"],
                "PROTOCOL": "flair1",
                "OUTPUT": str(OUT / f"suspicious_labels_{patch}.gpkg"),
            },
            feedback=feedback,
        )
        print(f"  IMG_{patch}: {seg['PROVIDER']}, {seg['SECONDS']:.2f} s, mIoU {ev['MIOU']:.3f}, OA {ev['OA']:.3f}")
        import rasterio

        with rasterio.open(seg["OUTPUT"]) as p, rasterio.open(mask) as m:
            total.update(m.read(1), p.read(1))
        rows.append(
            {
                "id": patch,
                "image": image,
                "prediction": seg["OUTPUT"],
                "reference": mask,
                "error_map": ev["OUTPUT_ERROR_MAP"],
            }
        )

    report = build_report(total, protocol)
    report["patches"] = [r["id"] for r in rows]
    report["model"] = MODEL.name
    from flair_qgis.adapters.charts import draw_confusion

    publish_report(
        report, str(OUT / "report.json"), csv_path=str(OUT / "report.csv"), chart_path=str(OUT / "confusion.png"),
        chart=draw_confusion,
    )  # fmt: skip
    render_overview(rows, OUT / "overview.png")

    print(f"\nFLAIR #1 protocol over {len(rows)} held-out patches ({report['pixels_evaluated']:,} px):")
    print(f"  {'code':>4}  {'class':<24} {'IoU':>6} {'prec.':>6} {'recall':>6} {'F1':>6} {'support':>9}")
    for c in report["classes"]:
        figures = " ".join(_figure(c[key]) for key in ("iou", "precision", "recall", "f1"))
        print(f"  {c['value']:>4}  {c['name']:<24} {figures} {c['support']:>9,}")
    print(f"\n  mIoU {report['miou']:.4f}   OA {report['oa']:.4f}")
    print_int8(model, report, [Path(r["prediction"]) for r in rows], feedback)
    print(
        f"\nWrote {OUT.relative_to(REPO)}/: class maps, confidence, error maps, suspicious labels, "
        "report.json, report.csv, confusion.png, overview.png"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
