"""``run.json``: what a distributed run is (model, input, grid, every option that changes pixels) and where it stands.

The identity decides whether a folder may be resumed: a re-run of the same model on the same
input with the same grid, bands, tiling and options (precision, graph fusion: the request's
:data:`~flair_qgis.core.segment.PIXEL_OPTIONS`) computes only the chunks not yet done; anything
else is refused, each difference named (``precision: was fp32, now fp16``), unless the user forces
a fresh start. The input's identity holds every file behind it
(each source of a VRT, stamped by size, modification time and, for small files, content): a
source tile rewritten since the run started is refused by name, never mixed into the mosaic.
Chunk files are written atomically, so a chunk marked done whose file exists is complete.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from typing import Any

from ..core.atomic import write_text_atomic
from ..core.errors import InputError
from .plan import CHUNKS_DIR, ScaleJob, input_identity

MANIFEST = "run.json"
MOSAIC = "classes.vrt"
FORMAT = "flair-scale-run/1"
DONE, FAILED, PENDING = "done", "failed", "pending"


TILING = ("tile_size_px", "overlap_px")
"""The pixel options ``run.json`` records under ``tiling`` (with ``chunk_tiles``), as it always did."""

OPTIONS_BEFORE_RECORDED = {"precision": "fp32", "fuse_graph": True}
"""What every run made before ``options`` was recorded ran with (a resume of one is not refused)."""


def job_identity(job: ScaleJob) -> dict[str, Any]:
    """The parts of a run that decide its pixels: model, input, grid, and the request's pixel options."""
    g, request = job.grid, job.request
    options = request.pixel_options()
    return {
        "model": {"path": job.model_path, "sha256": job.model_sha256},
        "input": input_identity(job.input_path, g),
        "bands": list(job.bands),
        "grid": {"transform": list(g.transform)[:6], "width": g.width, "height": g.height, "crs": g.crs_wkt},
        "tiling": {**{name: options[name] for name in TILING}, "chunk_tiles": job.chunk_tiles},
        "options": {name: value for name, value in options.items() if name not in (*TILING, "bands")},
    }


def changed_files(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """The input's files that changed between two identities (sorted), when nothing else about the input did.

    A file whose stamp differs, or that appeared or went; empty when the input differs in more
    than its files (another raster), or not at all.
    """
    old_input, new_input = old.get("input") or {}, new.get("input") or {}
    rest = {k: v for k, v in old_input.items() if k != "files"}
    if "files" not in old_input or rest != {k: v for k, v in new_input.items() if k != "files"}:
        return []
    old_files, new_files = old_input["files"], new_input.get("files", {})
    return sorted(path for path in {*old_files, *new_files} if old_files.get(path) != new_files.get(path))


def differences(old: dict[str, Any], new: dict[str, Any]) -> dict[str, str]:
    """What differs between two identities: key -> how it reads to the user.

    ``model``, ``input`` and ``grid`` read "another model"; bands, tiling and options name their
    values (``precision: was fp32, now fp16``). An identity written before ``options`` was recorded
    ran with :data:`OPTIONS_BEFORE_RECORDED`.
    """
    found = {}
    for key, label in (("model", "model"), ("input", "input"), ("grid", "grid/extent")):
        if old.get(key) != new.get(key):
            found[key] = f"another {label}"
    if old.get("bands") != new.get("bands"):
        found["bands"] = f"bands: was {_shown(old.get('bands'))}, now {_shown(new.get('bands'))}"
    old_options = {**(old.get("tiling") or {}), **(old.get("options") or OPTIONS_BEFORE_RECORDED)}
    new_options = {**(new.get("tiling") or {}), **(new.get("options") or {})}
    for name in [*new_options, *(name for name in old_options if name not in new_options)]:
        was, now = old_options.get(name), new_options.get(name)
        if was != now:
            found[name] = f"{name}: was {_shown(was)}, now {_shown(now)}"
    return found


def _shown(value: Any) -> str:
    """A recorded value as the user reads it: ``1,2,3`` for bands, ``not recorded`` for None."""
    if value is None:
        return "not recorded"
    if isinstance(value, list):
        return ",".join(_shown(v) for v in value)
    return str(value).lower() if isinstance(value, bool) else str(value)


class Manifest:
    """The run's manifest, kept in memory and written atomically to ``run.json``."""

    def __init__(self, path: str, data: dict[str, Any]) -> None:
        self.path = path
        self.data = data
        self._saved_at = 0.0

    @property
    def chunks(self) -> dict[str, dict[str, Any]]:
        """Chunk name -> ``{state, tiles, seconds, worker, provider, error}``."""
        return self.data["chunks"]

    def is_done(self, name: str, path: str) -> bool:
        """True when the chunk was finished by an earlier run and its file is still there."""
        return self.chunks.get(name, {}).get("state") == DONE and os.path.isfile(path)

    def record(self, name: str, **fields: Any) -> None:
        """Update one chunk's entry."""
        self.chunks.setdefault(name, {}).update(fields)

    def record_worker(self, address: str, info: dict[str, Any]) -> None:
        """Remember which provider and threads a worker process runs with."""
        self.data.setdefault("workers", {})[address] = info

    def save(self, every_s: float = 0.0) -> None:
        """Write ``run.json``; with ``every_s``, at most that often."""
        now = time.monotonic()
        if every_s and now - self._saved_at < every_s:
            return
        self.data["updated"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        write_text_atomic(self.path, json.dumps(self.data, indent=1, sort_keys=False) + "\n")
        self._saved_at = now


def open_output_dir(job: ScaleJob, force: bool) -> Manifest:
    """Check the output folder and return the manifest to run with.

    A missing or empty folder starts a new run. A folder with a ``run.json`` of the same
    identity is resumed. ``force`` restarts a folder that holds a run of something else.

    Raises:
        InputError: the folder holds files that are not a run, or a run of another model,
            input, grid or tiling and ``force`` is not given.
    """
    folder = job.output_dir
    _make_folder(folder)
    path = os.path.join(folder, MANIFEST)
    identity = job_identity(job)
    entries = _run_entries(folder)
    if MANIFEST in entries:
        resumed = _resume(folder, path, identity, force)
        if resumed is not None:
            return resumed
    manifest = Manifest(path, {"format": FORMAT, "identity": identity, "chunks": {}, "workers": {}, "runs": []})
    manifest.save()
    return manifest


def _make_folder(folder: str) -> None:
    """Create the output folder when missing.

    Raises:
        InputError: a file or a dangling link, or a folder that cannot be created.
    """
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise InputError.of("output_dir_is_file", folder=folder)
    if os.path.islink(folder) and not os.path.exists(folder):
        raise InputError.of("output_dir_dangling_link", folder=folder, target=os.readlink(folder))
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as err:
        raise InputError.of("output_dir_not_creatable", folder=folder, reason=err.strerror) from err


def _run_entries(folder: str) -> list[str]:
    """The output folder's entries (sorted).

    Raises:
        InputError: the folder holds other files and no ``run.json``.
    """
    entries = sorted(os.listdir(folder))
    if entries and MANIFEST not in entries:
        shown = ", ".join(entries[:5]) + (", ..." if len(entries) > 5 else "")
        raise InputError.of("output_dir_not_a_run", folder=folder, entries=shown, manifest=MANIFEST)
    return entries


def _resume(folder: str, path: str, identity: dict[str, Any], force: bool) -> Manifest | None:
    """The earlier run's manifest when it has this identity; None after discarding it (``force``).

    Raises:
        InputError: an unreadable manifest, or a run of something else and no ``force``.
    """
    try:
        with open(path, encoding="utf-8") as handle:
            old = json.load(handle)
    except (OSError, ValueError) as err:
        raise InputError.of("manifest_unreadable", path=path, reason=str(err)) from err
    if old.get("format") != FORMAT:
        raise InputError.of("not_a_manifest", path=path)
    changed = differences(old.get("identity", {}), identity)
    if not changed:
        _remove_partials(folder)
        return Manifest(path, old)
    files = changed_files(old.get("identity", {}), identity)
    if files and list(changed) == ["input"] and not force:
        more = f" (and {len(files) - 1} more)" if len(files) > 1 else ""
        raise InputError.of("input_changed_since_run", file=files[0], more=more, folder=folder)
    if not force:
        raise InputError.of("other_run_in_folder", folder=folder, differences="; ".join(changed.values()))
    _discard_run(folder)
    return None


def _remove_partials(folder: str) -> None:
    """Delete temporary chunk files and folders left by an interrupted run (never complete ones)."""
    chunks = os.path.join(folder, CHUNKS_DIR)
    if os.path.isdir(chunks):
        for name in os.listdir(chunks):
            if name.startswith(".") and ".partial" in name:
                path = os.path.join(chunks, name)
                if os.path.isdir(path):  # a chunk's polygon layer, written in a hidden folder
                    shutil.rmtree(path, ignore_errors=True)
                else:
                    os.remove(path)


def _discard_run(folder: str) -> None:
    """Remove a previous run's files (only those a run writes)."""
    shutil.rmtree(os.path.join(folder, CHUNKS_DIR), ignore_errors=True)
    base = os.path.join(folder, os.path.splitext(MOSAIC)[0])
    for stale in (base + ".vrt", base + ".qml", base + ".vrt.aux.xml", os.path.join(folder, MANIFEST)):
        if os.path.exists(stale):
            os.remove(stale)
