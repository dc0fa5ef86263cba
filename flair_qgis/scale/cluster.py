"""Dask clients for a run: an existing scheduler, or a local cluster of worker processes.

Dask is imported here only, lazily: the plugin works without it until a scheduler is asked for.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import sys
from collections.abc import Iterator, Sequence
from typing import Any

from ..core.errors import InputError, NotSupportedError

CONNECT_TIMEOUT_S = 5


def require_dask() -> None:
    """Raise a message saying what to install when ``distributed`` cannot be imported."""
    try:
        import distributed  # noqa: F401
    except ImportError as err:
        raise NotSupportedError.of("dask_missing") from err


def parse_scheduler(text: str | None) -> tuple[str, str | int | None]:
    """``("", None)``, ``("local", N or None)`` or ``("remote", "tcp://host:port")``.

    Raises:
        InputError: anything else.
    """
    text = (text or "").strip()
    if not text:
        return "", None
    if text == "local" or text.startswith("local:"):
        count = text.partition(":")[2]
        if count and not (count.isdigit() and int(count) > 0):
            raise InputError.of("local_workers_too_low", text=text)
        return "local", int(count) if count else None
    if "://" in text:
        return "remote", text
    raise InputError.of("bad_scheduler", text=text)


GPUS_FOR_TESTS = "FLAIR_GPUS_FOR_TESTS"
"""Comma-separated GPU indices standing in for the driver's list on a machine without a GPU (tests)."""


def available_gpus() -> list[str]:
    """The GPU indices a local cluster may pin workers to.

    The driver's list (:func:`~flair_qgis.core.cuda.list_gpus`), narrowed to
    ``CUDA_VISIBLE_DEVICES`` when this process was given some; :data:`GPUS_FOR_TESTS` instead
    when it is set.
    """
    given = os.environ.get(GPUS_FOR_TESTS)
    if given is not None:
        return [g.strip() for g in given.split(",") if g.strip()]
    from ..core.cuda import list_gpus

    indices = [gpu.index for gpu in list_gpus()]
    visible = [g.strip() for g in os.environ.get("CUDA_VISIBLE_DEVICES", "").split(",") if g.strip()]
    return [g for g in visible if g in indices] if visible else indices


def parse_gpus(text: str, available: Sequence[str]) -> list[str]:
    """The GPUs of ``--gpus``: ``all`` or a list like ``0,1``, each one the machine has.

    Raises:
        InputError: no GPU on this machine, or one it does not have.
    """
    if not available:
        raise InputError.of("no_gpu_for_gpus")
    text = text.strip()
    if text == "all":
        return list(available)
    wanted = [g.strip() for g in text.split(",") if g.strip()]
    unknown = [g for g in wanted if g not in available]
    if not wanted or unknown or len(set(wanted)) != len(wanted):
        raise InputError.of("bad_gpus", available=",".join(available), text=text)
    return wanted


@contextlib.contextmanager
def open_client(
    scheduler: str | None, workers: int | None, threads_per_worker: int = 1, gpus: Sequence[str] = ()
) -> Iterator[Any]:
    """A connected ``distributed.Client``, closed (with its local cluster) on exit.

    Args:
        scheduler: address of an existing scheduler, or None for a local cluster.
        workers: worker processes of the local cluster; None for one per core.
        threads_per_worker: Dask threads (and onnxruntime threads) per local worker.
        gpus: GPU indices: the local cluster has one worker per GPU instead, named ``gpu<i>``,
            started with ``CUDA_VISIBLE_DEVICES=<i>`` (it sees that GPU only) and the resource
            ``GPU=1`` (one chunk at a time on it).

    Raises:
        InputError: the scheduler cannot be reached, or has no worker.
        NotSupportedError: Dask is not installed.
    """
    require_dask()
    from distributed import Client, LocalCluster

    if scheduler:
        try:
            _reachable(scheduler)
            client = Client(scheduler, timeout=CONNECT_TIMEOUT_S)
        except (OSError, TimeoutError, ValueError) as err:
            raise InputError.of(
                "scheduler_unreachable", scheduler=scheduler, seconds=CONNECT_TIMEOUT_S, reason=str(err)[:200]
            ) from err
        try:
            _wait_for_workers(client, scheduler)
            yield client
        finally:
            client.close()
        return
    count = workers or max(1, (os.cpu_count() or 1) // threads_per_worker)
    _fix_spawn_executable()
    options = dict(
        threads_per_worker=threads_per_worker,
        processes=True,
        silence_logs=logging.CRITICAL,
        dashboard_address=":0" if _has_dashboard() else None,
    )
    cluster = _gpu_cluster(gpus, options) if gpus else LocalCluster(n_workers=count, **options)
    try:
        with Client(cluster) as client:
            if gpus:
                client.wait_for_workers(len(gpus))
            yield client
    finally:
        cluster.close()


def _gpu_cluster(gpus: Sequence[str], options: dict[str, Any]) -> Any:
    """A local cluster of one worker process per GPU, each pinned to its GPU (what dask-cuda's
    ``LocalCUDACluster`` does, without dask-cuda): the nanny sets ``CUDA_VISIBLE_DEVICES`` in
    the worker process before it starts, and a worker it restarts gets the same GPU."""
    from distributed import LocalCluster

    class GpuCluster(LocalCluster):
        def new_worker_spec(self) -> dict[str, Any]:
            taken = set(self.worker_spec)
            gpu = next(g for g in gpus if f"gpu{g}" not in taken)
            ((_name, spec),) = super().new_worker_spec().items()
            env = {**spec["options"].get("env", {}), "CUDA_VISIBLE_DEVICES": gpu}
            worker = {**spec["options"], "env": env, "resources": {"GPU": 1}, "name": f"gpu{gpu}"}
            return {f"gpu{gpu}": {**spec, "options": worker}}

    cluster = GpuCluster(n_workers=0, **options)
    cluster.scale(len(gpus))
    return cluster


def _reachable(address: str) -> None:
    """Fail at once when nothing listens at a ``tcp://host:port`` (Dask would retry until its timeout)."""
    scheme, _, rest = address.partition("://")
    host, _, port = rest.rpartition(":")
    if scheme != "tcp" or not port.isdigit():
        return  # other transports (tls, ucx, inproc): Dask's own connect decides
    socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_TIMEOUT_S).close()


def _wait_for_workers(client: Any, scheduler: str) -> None:
    try:
        client.wait_for_workers(1, timeout=CONNECT_TIMEOUT_S)
    except TimeoutError as err:
        raise InputError.of("scheduler_without_workers", scheduler=scheduler) from err


def _has_dashboard() -> bool:
    try:
        import bokeh  # noqa: F401
    except ImportError:
        return False
    return True


def _fix_spawn_executable() -> None:
    """Make local worker processes start a Python, also when the host program (QGIS) is not one."""
    if os.path.basename(sys.executable).startswith("python"):
        return
    import multiprocessing

    python = os.path.join(sys.exec_prefix, "bin", f"python{sys.version_info.major}.{sys.version_info.minor}")
    if os.path.exists(python):
        multiprocessing.set_executable(python)


def dashboard_link(client: Any) -> str | None:
    """The Dask dashboard's address, or None when the scheduler serves none."""
    try:
        services = client.scheduler_info().get("services", {})
    except (OSError, TimeoutError):
        return None
    return client.dashboard_link if "dashboard" in services else None


def ship_by_value() -> None:
    """Send :mod:`.remote` to the cluster by value (see its docstring)."""
    import cloudpickle

    from . import remote

    if remote.__name__ not in cloudpickle.list_registry_pickle_by_value():
        cloudpickle.register_pickle_by_value(remote)


def check_workers(client: Any) -> dict[str, dict[str, Any]]:
    """Run :func:`.remote.probe_worker` on every worker; their reports by address.

    Raises:
        InputError: some workers cannot import what a chunk needs; the message names each.
    """
    from . import remote

    ship_by_value()
    reports = client.run(remote.probe_worker)
    broken = {address: r["missing"] for address, r in reports.items() if r["missing"]}
    if broken:
        lines = "; ".join(f"worker {address} lacks {', '.join(missing)}" for address, missing in sorted(broken.items()))
        raise InputError.of("workers_lack_packages", workers=lines)
    return reports


def pinned_gpus(reports: dict[str, dict[str, Any]], gpus: Sequence[str]) -> list[str]:
    """One line per worker of a ``--gpus`` cluster: the GPU it sees (its ``CUDA_VISIBLE_DEVICES``).

    Raises:
        InputError: a worker sees no GPU, several, or the same as another worker.
    """
    seen = {address: report.get("gpu") for address, report in reports.items()}
    if sorted(str(g) for g in seen.values()) != sorted(gpus):
        shown = ", ".join(f"{address}: {gpu}" for address, gpu in sorted(seen.items()))
        raise InputError.of("workers_not_pinned", seen=shown, expected=",".join(gpus))
    return [f"worker {address} uses GPU {gpu} (CUDA_VISIBLE_DEVICES={gpu})" for address, gpu in sorted(seen.items())]
