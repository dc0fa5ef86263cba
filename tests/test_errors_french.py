"""Core refusals reach a French user in French, through the dock and through Processing: the shells
show the catalogued message translated (i18n/errors.error_text), never a wording of their own."""

from __future__ import annotations

import numpy as np
import pytest
from qgis.core import QgsProcessingException
from rasters import write_raster
from test_i18n import french_qgis  # noqa: F401 - the fr_FR profile fixture

from flair_qgis import i18n
from flair_qgis.core.errors import InputError
from flair_qgis.i18n.errors import DOCK, PROCESSING, error_text


def test_a_model_file_onnxruntime_cannot_read_is_refused_in_french_by_the_dock(french_qgis, plugin, tmp_path):  # noqa: F811
    broken = tmp_path / "broken.onnx"
    broken.write_bytes(b"not a protobuf at all")
    dock = plugin.dock
    assert not dock.set_model(str(broken))
    shown = dock.segment.model_section.model_card.summary.text()
    assert shown.startswith("broken.onnx n'est pas un modèle ONNX lisible ("), shown
    assert "is not a readable" not in shown


def test_a_continuous_prediction_is_refused_in_french_by_processing(french_qgis, run_alg, tmp_path):  # noqa: F811
    assert i18n.install_translator() == "fr"
    heights = write_raster(tmp_path / "heights.tif", np.full((1, 16, 16), 1.5, dtype=np.float32))
    with pytest.raises(QgsProcessingException) as err:
        run_alg("flair:vectorize", {"PREDICTION": str(heights), "OUTPUT": str(tmp_path / "polygons.gpkg")})
    assert "PREDICTION heights.tif contient des valeurs continues (float32), pas des classes" in str(err.value)
    assert not (tmp_path / "polygons.gpkg").exists()


def test_parameters_are_shown_in_french_too(french_qgis):  # noqa: F811
    assert i18n.install_translator() == "fr"
    # Words the core passes as parameters, value lists, and an error given as a parameter.
    assert error_text(InputError.of("no_output_file", what="report")) == "Aucun fichier indiqué (rapport)."
    fields = InputError.of("unknown_field", field="classe", fields=[f"f{i}" for i in range(8)])
    assert error_text(fields).endswith("Ses champs sont : f0, f1, f2, f3, f4 … et 3 de plus.")
    inner = InputError.of("bands_start_at_one", text="0,1")
    outer = InputError.of("input_error", index=2, title="DEM_ELEV", error=inner)
    assert error_text(outer, PROCESSING) == "Entrée 2, DEM_ELEV : Les numéros de bandes commencent à 1, reçu '0,1'."
    # Keys with a wording of their own for the dock keep it.
    bands = InputError.of("too_few_bands", channels=5, band_count=3)
    assert error_text(bands, DOCK).endswith("ou une bande de la couche pour chaque canal du modèle.")
    assert error_text(bands, PROCESSING).startswith("Le modèle attend 5 bandes mais la couche n'en a que 3 :")
    # One rule for the Review tab and flair:sample, each in its own words.
    too_few = InputError.of("min_per_class_too_low", value=1)
    assert error_text(too_few, DOCK).startswith("Le min. par classe doit valoir au moins 2 : une classe sans")
    assert error_text(too_few, PROCESSING).startswith("MIN_PER_CLASS doit valoir au moins 2 (reçu 1)")
    # English is unchanged once the translator is gone.
    i18n.remove_translator()
    assert error_text(InputError.of("no_output_file", what="report")) == "No report file given."


def test_an_error_without_a_key_keeps_its_text():
    assert error_text(InputError("Déjà traduit.")) == "Déjà traduit."


def test_a_scheduler_refusal_reaches_a_french_user_in_french(french_qgis, run_alg, tmp_path):  # noqa: F811
    # Distributed runs' refusals (scale/) come from the same catalogue: Processing's SCHEDULER path shows them.
    from rasters import random_image
    from toy_models import identity_model

    assert i18n.install_translator() == "fr"
    image = write_raster(tmp_path / "in.tif", random_image(32, 32, bands=3), crs="EPSG:2154")
    model = identity_model(tmp_path / "id3.onnx", 3, metadata={"mean": [0.0] * 3, "std": [1.0] * 3})
    params = {"INPUT": str(image), "MODEL": str(model), "SCHEDULER": "somewhere", "OUTPUT": str(tmp_path / "c.tif")}
    with pytest.raises(QgsProcessingException) as err:
        run_alg("flair:segment", params)
    assert str(err.value).startswith("SCHEDULER doit être vide, local:N ou une adresse comme tcp://hote:8786 ; reçu"), (
        err
    )
    assert not (tmp_path / "c.tif").exists()
