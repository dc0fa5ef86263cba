"""core/safe_xml: GDAL sidecars read without expanding entities; what the stamp and class readers see."""

from __future__ import annotations

import pytest

from flair_qgis.core.classes import raster_classes
from flair_qgis.core.safe_xml import XmlRefused, canonical_text, parse_bytes, parse_file

LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
<PAMDataset><PAMRasterBand band="1"><CategoryNames><Category>&lol2;</Category></CategoryNames>
</PAMRasterBand></PAMDataset>
"""
EXTERNAL = b"""<?xml version="1.0"?>
<!DOCTYPE r [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<r>&secret;</r>
"""


@pytest.mark.parametrize("data", [LAUGHS, EXTERNAL, b"<a><b></a>", b""])
def test_entities_and_broken_xml_are_refused(data):
    with pytest.raises(XmlRefused):
        parse_bytes(data)


def test_a_pam_sidecar_is_read_as_a_tree(tmp_path):
    path = tmp_path / "x.aux.xml"
    path.write_bytes(
        b'<PAMDataset>\n  <PAMRasterBand band="1">\n    <CategoryNames><Category>water</Category>'
        b"<Category></Category><Category>b&amp;t</Category></CategoryNames>\n  </PAMRasterBand>\n</PAMDataset>\n"
    )
    root = parse_file(str(path))
    band = next(root.iter("PAMRasterBand"))
    assert band.get("band") == "1"
    categories = band.find("CategoryNames")
    assert categories is not None
    assert [c.text for c in categories] == ["water", "", "b&t"]


def test_classes_of_a_sidecar_with_entities_are_none(tmp_path):
    """A class map whose .aux.xml declares entities reads as declaring no class (never expanded)."""
    import numpy as np
    import rasterio

    tif = tmp_path / "map.tif"
    with rasterio.open(tif, "w", driver="GTiff", width=2, height=2, count=1, dtype="uint8") as dst:
        dst.write(np.zeros((1, 2, 2), dtype="uint8"))
    (tmp_path / "map.tif.aux.xml").write_bytes(LAUGHS)
    assert raster_classes(str(tif)) == ()
    (tmp_path / "map.tif.aux.xml").write_bytes(
        b'<PAMDataset><PAMRasterBand band="1"><CategoryNames><Category>water</Category>'
        b"<Category>crop</Category></CategoryNames></PAMRasterBand></PAMDataset>"
    )
    assert [(c.value, c.name) for c in raster_classes(str(tif))] == [(0, "water"), (1, "crop")]


def test_canonical_text_ignores_layout_only():
    a = parse_bytes(b'<VRTDataset rasterXSize="2" b="1">\n  <Band>  x </Band>\n</VRTDataset>')
    b = parse_bytes(b'<VRTDataset b="1" rasterXSize="2"><Band>x</Band></VRTDataset>')
    c = parse_bytes(b'<VRTDataset b="1" rasterXSize="3"><Band>x</Band></VRTDataset>')
    assert canonical_text(a) == canonical_text(b) != canonical_text(c)
