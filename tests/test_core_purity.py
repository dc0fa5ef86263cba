"""flair_qgis.core must stay free of QGIS and Qt: it runs in plain Python and in workers."""

import subprocess
import sys

from conftest import REPO


def test_core_imports_no_qgis_or_qt():
    code = (
        "import sys\n"
        "import flair_qgis.core.segment.run, flair_qgis.core.engine.model, flair_qgis.core.engine.pixel_sources\n"
        "import pkgutil, importlib, flair_qgis.core as core\n"
        "for m in pkgutil.iter_modules(core.__path__): importlib.import_module('flair_qgis.core.' + m.name)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('qgis', 'PyQt5', 'PyQt6', 'sip'))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"core loaded Qt/QGIS modules: {out.stdout}"
