"""Every error the core raises comes from the message catalogue, with the parameters its template names."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from flair_qgis.core import messages
from flair_qgis.core.errors import InputError, ModelError

CORE = Path(messages.__file__).resolve().parent
PACKAGES = sorted(p.name for p in CORE.iterdir() if (p / "messages.py").exists())


def package_messages(package: str) -> dict[str, messages.Message]:
    """The messages a core package registers when it is imported ("" for the shared root modules)."""
    if not package:
        return messages.MESSAGES
    return importlib.import_module(f"flair_qgis.core.{package}.messages").MESSAGES


def error_classes() -> set[str]:
    """The names of the error classes defined in core/: FlairError and its subclasses, found by ``ast``."""
    bases: dict[str, set[str]] = {}
    for path in CORE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                bases[node.name] = {b.id for b in node.bases if isinstance(b, ast.Name)}
    found = {"FlairError"}
    while True:
        more = {name for name, parents in bases.items() if parents & found} - found
        if not more:
            return found
        found |= more


def uncatalogued(source: str, known: dict[str, messages.Message], classes: set[str]) -> list[str]:
    """What in ``source`` makes an error without a catalogued key, or without its template's parameters."""
    problems = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Name) and node.exc.id in classes:
            problems.append(f"line {node.lineno}: raise {node.exc.id} without a message key")
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name) and func.id in classes:
            problems.append(f"line {node.lineno}: {func.id}(...) without a message key: use {func.id}.of(key, ...)")
            continue
        if not (isinstance(func, ast.Attribute) and func.attr == "of" and getattr(func.value, "id", None) in classes):
            continue
        key = node.args[0].value if node.args and isinstance(node.args[0], ast.Constant) else None
        if key not in known:
            problems.append(f"line {node.lineno}: key {key!r} is not in this package's catalogue")
            continue
        given = {k.arg for k in node.keywords}
        if None not in given and not known[key].params <= given:  # None: **params, checked when raised
            problems.append(f"line {node.lineno}: {key} lacks {sorted(known[key].params - given)}")
    return problems


def test_every_core_error_carries_a_catalogued_key_and_its_parameters():
    classes = error_classes()
    assert {"InputError", "ModelError", "NotSupportedError", "ItemNotSeenError"} <= classes
    problems, keyed = [], 0
    for path in sorted(CORE.rglob("*.py")):
        if path.name in ("errors.py", "messages.py"):
            continue
        relative = path.relative_to(CORE)
        package = relative.parts[0] if len(relative.parts) > 1 else ""
        known = {**messages.MESSAGES, **package_messages(package)}  # shared keys, then the package's own
        source = path.read_text(encoding="utf-8")
        problems += [f"{relative}: {p}" for p in uncatalogued(source, known, classes)]
        keyed += source.count(".of(")
    assert problems == []
    assert keyed > 190


@pytest.mark.parametrize(
    ("source", "why"),
    [
        ("raise InputError('The extent is empty.')", "without a message key"),
        ("raise ModelError", "without a message key"),
        ("raise InputError.of('not_a_key')", "not in this package's catalogue"),
        ("raise InputError.of(key)", "not in this package's catalogue"),
        ("raise InputError.of('too_few_bands', channels=5)", "lacks ['band_count']"),
        ("err = InputError(f'{x} is wrong')", "without a message key"),
    ],
)
def test_a_scratch_raise_without_a_key_is_found(source, why):
    known = package_messages("engine")
    problems = uncatalogued(source, known, error_classes())
    assert len(problems) == 1 and why in problems[0]
    assert uncatalogued("raise InputError.of('too_few_bands', channels=5, band_count=3)", known, error_classes()) == []


def test_keys_are_unique_and_templates_format_with_their_parameters():
    for package in PACKAGES:
        package_messages(package)
    catalogue = messages.CATALOGUE
    assert len(catalogue) > 190
    for key, message in catalogue.items():
        assert message.key == key
        message.template.format(**dict.fromkeys(message.params, 1))  # a well-formed template
    with pytest.raises(ValueError, match="registered twice"):
        messages.register({"too_few_bands": "Another text."})


def test_english_text_is_the_template_formatted():
    err = InputError.of("too_few_bands", channels=5, band_count=3)
    assert str(err) == (
        "The model expects 5 bands but the layer has 3: choose a layer with 5 bands or set BANDS to map the "
        "layer's bands to the model's."
    )
    assert (err.key, err.params) == ("too_few_bands", {"channels": 5, "band_count": 3})
    agreement = InputError.of("fp16_agreement", agreement=0.9812, required=0.995)
    assert "agrees with fp32 on 98.12% of the pixels" in str(agreement) and "(at least 99.5% is required)" in str(
        agreement
    )
    fields = InputError.of("unknown_field", field="classe", fields=["id", "code", "a", "b", "c", "d", "e"])
    assert str(fields) == "The reference layer has no field 'classe'. Its fields are: id, code, a, b, c, d, e."
    assert str(ModelError.of("model_not_found", path="/data/m.onnx")) == "Model file not found: /data/m.onnx"


def test_every_refusal_of_distributed_runs_and_scripts_flair_is_catalogued():
    """scale/ and cli.py raise the core's errors too (Processing's SCHEDULER path shows them): same rule."""
    from flair_qgis.scale import messages as scale_messages

    known = {**messages.MESSAGES, **scale_messages.MESSAGES}
    plugin = CORE.parent
    sources = [*sorted((plugin / "scale").glob("*.py")), plugin / "cli.py"]
    problems = []
    for path in sources:
        problems += [f"{path.relative_to(plugin)}: {p}" for p in uncatalogued(path.read_text(), known, error_classes())]
    assert problems == []
