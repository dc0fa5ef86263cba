"""The tile cache on its own: keys, entries, damage, size limit, two processes, unusable folders."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from flair_qgis.core.engine.source_stamps import file_digest
from flair_qgis.core.segment import tile_entry
from flair_qgis.core.segment.tile_cache import open_cache
from flair_qgis.core.segment.tile_entry import FORMAT_VERSION, CorruptEntryError, decode_entry, encode_entry, run_key

REPO = Path(__file__).resolve().parents[3]


def _arrays(seed: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    return {
        "class": rng.integers(0, 13, (48, 64), dtype=np.uint8),
        "confidence": rng.random((48, 64), dtype=np.float32),
        "height": rng.normal(size=(48, 64)).astype(np.float32),
        "valid": rng.random((48, 64)) > 0.1,
    }


def _same(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> bool:
    return a.keys() == b.keys() and all(a[k].dtype == b[k].dtype and np.array_equal(a[k], b[k]) for k in a)


BASE = {
    "model_digest": "m" * 64,
    "sources": ["file:/data/ortho.tif:1000:1"],
    "bands": [[1, 2, 3, 4, 5]],
    "tile_size_px": 512,
    "overlap_px": 128,
    "resolution_m": 0.2,
}


@pytest.mark.parametrize(
    "change",
    [
        {"model_digest": "n" * 64},
        {"sources": ["file:/data/ortho.tif:1000:2"]},  # same file, touched
        {"sources": ["file:/data/ortho.tif:1001:1"]},  # same file, other size
        {"sources": ["uri:type=xyz&url=file:///tiles/{z}/{x}/{y}.png"]},
        {"bands": [[3, 2, 1, 4, 5]]},
        {"tile_size_px": 256},
        {"overlap_px": 64},
        {"resolution_m": 0.25},
    ],
)
def test_every_input_of_the_key_changes_it(change):
    assert run_key(**BASE) == run_key(**BASE)
    assert run_key(**{**BASE, **change}) != run_key(**BASE)


def test_key_carries_the_format_version(monkeypatch):
    before = run_key(**BASE)
    monkeypatch.setattr(tile_entry, "FORMAT_VERSION", FORMAT_VERSION + 1)
    assert run_key(**BASE) != before


def test_file_digest_follows_content_even_when_size_and_mtime_are_kept(tmp_path):
    model = tmp_path / "m.onnx"
    model.write_bytes(b"abc" * 1000)
    os.utime(model, ns=(1, 1))
    first = file_digest(str(model))
    assert file_digest(str(model)) == first
    model.write_bytes(b"abd" * 1000)
    os.utime(model, ns=(1, 1))  # same size, same mtime: the change time still differs
    assert file_digest(str(model)) != first


def test_an_entry_of_other_sources_or_past_its_time_to_live_is_stale_not_damaged(tmp_path):
    warnings = []
    cache = open_cache(str(tmp_path), "k1", warn=warnings.append)
    assert cache is not None
    cache.put(0, 0, _arrays(1), sources="s1")
    assert cache.is_fresh(0, 0, "s1") and not cache.is_fresh(0, 0, "s2")
    assert _same(cache.get(0, 0, "s1"), _arrays(1))
    assert cache.get(0, 0, "s2") is None
    assert cache.stats.stale == 1 and cache.stats.corrupt == 0 and warnings == []
    path = cache.entry_path(0, 0)
    aged = encode_entry("k1", 0, 0, _arrays(1), "s1", written_at=time.time() - 100)
    with open(path, "wb") as handle:
        handle.write(aged)
    assert cache.get(0, 0, "s1", max_age_s=200) is not None
    assert not cache.is_fresh(0, 0, "s1", max_age_s=50)
    assert cache.get(0, 0, "s1", max_age_s=50) is None
    assert cache.stats.stale == 2 and os.path.exists(path)  # kept: the recomputed tile overwrites it


def test_round_trip_keeps_values_dtypes_and_shapes(tmp_path):
    cache = open_cache(str(tmp_path), "k1")
    assert cache is not None
    assert cache.get(0, 512) is None
    arrays = _arrays(1)
    cache.put(0, 512, arrays)
    assert _same(cache.get(0, 512), arrays)
    assert cache.get(512, 0) is None  # another tile
    assert (cache.stats.hits, cache.stats.misses, cache.stats.stored) == (1, 2, 1)
    other = open_cache(str(tmp_path), "k2")
    assert other.get(0, 512) is None  # another run key never sees it


@pytest.mark.parametrize("damage", ["flip", "truncate", "empty"])
def test_a_damaged_entry_is_reported_deleted_and_never_used(tmp_path, damage):
    warnings: list[str] = []
    cache = open_cache(str(tmp_path), "k", warn=warnings.append)
    cache.put(16, 32, _arrays(2))
    path = Path(cache.entry_path(16, 32))
    data = bytearray(path.read_bytes())
    if damage == "flip":
        data[len(data) // 2] ^= 0xFF
    elif damage == "truncate":
        data = data[: len(data) // 3]
    else:
        data = bytearray()
    path.write_bytes(bytes(data))
    assert cache.get(16, 32) is None
    assert cache.stats.corrupt == 1
    assert not path.exists()
    assert len(warnings) == 1 and "damaged" in warnings[0] and "recomputed" in warnings[0]


def test_an_entry_of_another_tile_key_or_version_is_refused():
    data = encode_entry("k", 0, 0, _arrays(3))
    assert _same(decode_entry(data, "k", 0, 0), _arrays(3))
    with pytest.raises(CorruptEntryError):
        decode_entry(data, "k", 0, 16)
    with pytest.raises(CorruptEntryError):
        decode_entry(data, "other", 0, 0)
    newer = bytearray(data)
    newer[8:12] = (FORMAT_VERSION + 1).to_bytes(4, "little")  # a later plugin's entry
    with pytest.raises(CorruptEntryError):
        decode_entry(bytes(newer), "k", 0, 0)


def test_a_cache_of_another_format_version_is_ignored(tmp_path):
    old = tmp_path / f"flair-tile-cache-v{FORMAT_VERSION + 1}" / "k"
    old.mkdir(parents=True)
    (old / "r0_c0.tile").write_bytes(b"written by another version")
    cache = open_cache(str(tmp_path), "k")
    assert cache.get(0, 0) is None
    assert cache.stats.corrupt == 0
    assert (old / "r0_c0.tile").exists()  # left to its own version


def test_size_limit_evicts_least_recently_used_first(tmp_path):
    cache = open_cache(str(tmp_path), "k", max_bytes=10**9)
    entry_bytes = len(encode_entry("k", 0, 0, _arrays(0)))
    for i in range(4):
        cache.put(0, i * 16, _arrays(i))
        time.sleep(0.02)  # distinct modification times
    assert cache.get(0, 0) is not None  # tile 0 becomes the most recently used
    time.sleep(0.02)
    cache.max_bytes = int(4.5 * entry_bytes)  # room for 4, evict down to 90 %: 4 entries
    cache.put(0, 64, _arrays(4))
    kept = sorted(p.name for p in Path(cache.folder).iterdir())
    assert kept == ["r0_c0.tile", "r0_c32.tile", "r0_c48.tile", "r0_c64.tile"]  # c16 was oldest
    assert cache.stats.evicted == 1
    total = sum(p.stat().st_size for p in Path(cache.folder).iterdir())
    assert total <= cache.max_bytes


def test_opening_a_full_cache_trims_it_across_run_keys(tmp_path):
    first = open_cache(str(tmp_path), "a")
    for i in range(3):
        first.put(0, i * 16, _arrays(i))
        time.sleep(0.02)
    entry_bytes = len(encode_entry("a", 0, 0, _arrays(0)))
    second = open_cache(str(tmp_path), "b", max_bytes=int(2.5 * entry_bytes))
    assert second.stats.evicted == 1
    assert sorted(p.name for p in Path(first.folder).iterdir()) == ["r0_c16.tile", "r0_c32.tile"]


def test_an_unwritable_folder_gives_no_cache_and_a_warning(tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder should be")
    warnings: list[str] = []
    assert open_cache(str(blocker / "cache"), "k", warn=warnings.append) is None
    assert len(warnings) == 1 and "without the cache" in warnings[0]


def test_a_folder_that_fails_mid_run_stops_storing_with_one_warning(tmp_path):
    warnings: list[str] = []
    cache = open_cache(str(tmp_path / "c"), "k", warn=warnings.append)
    cache.put(0, 0, _arrays(0))
    folder = Path(cache.folder)
    for entry in folder.iterdir():
        entry.unlink()
    folder.rmdir()
    folder.write_text("the key folder became a file")  # writes now fail
    cache.put(0, 16, _arrays(1))
    cache.put(0, 32, _arrays(2))
    assert not cache.writable
    assert len(warnings) == 1 and "cannot be written" in warnings[0]


_WORKER = """
import sys
import time
import numpy as np
sys.path.insert(0, {repo!r})
from flair_qgis.core.segment.tile_cache import open_cache
folder, seed, rounds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
time.sleep(max(0.0, float(sys.argv[4]) - time.time()))  # both start together
warnings = []
cache = open_cache(folder, "shared", max_bytes={limit}, warn=warnings.append)
expected = {{}}
for tile in range(6):
    value = np.full((64, 64), tile, dtype=np.float32)
    expected[tile] = value
reads = 0
for i in range(rounds):
    # Each tile is asked four times in a row: the repeats hit whatever the other process does, and
    # walking through six tiles with room for three makes both evict. (A plain cycle over six tiles
    # with room for three is LRU's worst case: it can miss every time.)
    tile = (i // 4 + seed) % 6
    got = cache.get(0, tile * 16)
    if got is None:
        cache.put(0, tile * 16, {{"v": expected[tile], "c": expected[tile].astype(np.uint8)}})
    else:
        reads += 1
        assert np.array_equal(got["v"], expected[tile]), "torn or foreign tile read"
        assert np.array_equal(got["c"], expected[tile].astype(np.uint8))
assert not warnings, warnings
print(reads, cache.stats.stored, cache.stats.evicted)
"""


def test_two_processes_share_one_cache_without_torn_reads(tmp_path):
    """Two real processes write, read and evict the same tiles at once."""
    entry_bytes = len(
        encode_entry("shared", 0, 0, {"v": np.zeros((64, 64), np.float32), "c": np.zeros((64, 64), np.uint8)})
    )
    script = tmp_path / "worker.py"
    script.write_text(_WORKER.format(repo=str(REPO), limit=int(3.5 * entry_bytes)))  # 6 tiles, room for 3
    folder = tmp_path / "cache"
    start_at = str(time.time() + 2.0)
    workers = [
        subprocess.Popen(
            [sys.executable, str(script), str(folder), str(seed), "400", start_at],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for seed in (0, 3)
    ]
    outputs = [w.communicate(timeout=120) for w in workers]
    for worker, (_out, err) in zip(workers, outputs):
        assert worker.returncode == 0, err
    counts = [list(map(int, out.split())) for out, _err in outputs]
    reads, stored, evicted = (sum(column) for column in zip(*counts))
    assert reads > 0 and stored > 0 and evicted > 0  # both read, wrote and evicted in one folder
    left = list((folder / f"flair-tile-cache-v{FORMAT_VERSION}" / "shared").iterdir())
    assert all(p.suffix == ".tile" for p in left)  # no temporary file left behind


def test_tiles_computed_on_another_device_are_not_shared(tmp_path):
    """GPU and CPU floats may differ in the last bits: each device keys its own tiles."""
    from affine import Affine

    from flair_qgis.core.engine.grid import Grid
    from flair_qgis.core.segment.cache_run import CacheRequest, open_cached_run

    model = tmp_path / "m.onnx"
    model.write_bytes(b"model")
    grid = Grid(Affine(0.2, 0, 0, 0, -0.2, 0), 100, 100, None)
    request = CacheRequest(str(tmp_path / "c"), ("uri:x",), ((1, 2, 3),), grid)
    keys = {
        device: open_cached_run(request, str(model), [], 64, 16, lambda _m: None, device=device).cache.key
        for device in ("cpu", "cuda")
    }
    assert keys["cpu"] != keys["cuda"]
    assert open_cached_run(request, str(model), [], 64, 16, lambda _m: None, device="cpu").cache.key == keys["cpu"]
