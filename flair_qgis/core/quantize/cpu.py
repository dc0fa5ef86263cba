"""Does this CPU have a fast INT8 path for onnxruntime? Read from the CPU flags.

onnxruntime's INT8 convolutions and matrix products gain most with dot-product instructions:
AVX-512 VNNI or AVX-VNNI on x86 (``avx512_vnni``, ``avx_vnni`` in ``/proc/cpuinfo``), the dot
product extensions on ARM (``asimddp``, ``i8mm``). Without them (plain AVX2) INT8 still runs,
through 16-bit multiply-adds, and gains much less.
"""

from __future__ import annotations

from dataclasses import dataclass

X86_FAST_FLAGS = ("avx512_vnni", "avx_vnni", "amx_int8")
ARM_FAST_FLAGS = ("asimddp", "i8mm")
CPUINFO = "/proc/cpuinfo"


@dataclass(frozen=True)
class Int8Capability:
    """What the CPU offers INT8 models.

    Attributes:
        fast: True when a dot-product instruction set is present.
        flags: the fast-path flags found (empty when none).
        known: False when the flags could not be read (not Linux): then nothing is claimed.
    """

    fast: bool
    flags: tuple[str, ...]
    known: bool = True

    @property
    def summary(self) -> str:
        """One line for logs and benchmarks: ``INT8: VNNI (avx512_vnni)`` or the warning."""
        if not self.known:
            return "INT8: CPU flags unknown on this system"
        if self.fast:
            return f"INT8: VNNI ({', '.join(self.flags)})"
        return NO_VNNI_MESSAGE


NO_VNNI_MESSAGE = "INT8: no VNNI on this CPU, expect little gain"


def cpu_flags(cpuinfo_text: str) -> set[str]:
    """Every flag of ``/proc/cpuinfo`` text (x86 ``flags`` and ARM ``Features`` lines)."""
    flags: set[str] = set()
    for line in cpuinfo_text.splitlines():
        key, _, value = line.partition(":")
        if key.strip().lower() in ("flags", "features"):
            flags.update(value.split())
    return flags


def int8_capability(cpuinfo_text: str | None = None) -> Int8Capability:
    """The INT8 capability of this CPU (or of the given ``/proc/cpuinfo`` text).

    Args:
        cpuinfo_text: ``/proc/cpuinfo`` contents; None reads this machine's.
    """
    if cpuinfo_text is None:
        try:
            with open(CPUINFO, encoding="utf-8", errors="replace") as handle:
                cpuinfo_text = handle.read()
        except OSError:
            return Int8Capability(fast=False, flags=(), known=False)
    flags = cpu_flags(cpuinfo_text)
    if not flags:
        return Int8Capability(fast=False, flags=(), known=False)
    arm = "asimd" in flags  # ARM's Advanced SIMD: no x86 CPU reports it
    wanted = ARM_FAST_FLAGS if arm else X86_FAST_FLAGS
    found = tuple(flag for flag in wanted if flag in flags)
    return Int8Capability(fast=bool(found), flags=found)
