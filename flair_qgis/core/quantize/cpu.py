"""Does this CPU have a fast INT8 path for onnxruntime? Read from the CPU flags.

onnxruntime's INT8 convolutions and matrix products gain most with dot-product instructions:
AVX-512 VNNI or AVX-VNNI on x86 (``avx512_vnni``, ``avx_vnni`` in ``/proc/cpuinfo``), the dot
product extensions on ARM (``asimddp``, ``i8mm``). Without them, an x86 CPU with AVX2 (or
AVX-512BW) still has onnxruntime's u8s8 integer kernels, which multiply-add through 16-bit
intermediates: slower than VNNI, but still typically faster than FP32 (1.7x to 1.9x for
onnxruntime alone on this project's AMD EPYC with AVX2 and no VNNI, U-Net/ResNet-34, every
convolution in INT8; docs/int8.md). Only a CPU with none of these (SSE-only x86, ARM without the
dot product) can expect little gain.
"""

from __future__ import annotations

from dataclasses import dataclass

X86_FAST_FLAGS = ("avx512_vnni", "avx_vnni", "amx_int8")
ARM_FAST_FLAGS = ("asimddp", "i8mm")
X86_INTEGER_PATHS = (("avx512bw", "AVX-512BW"), ("avx2", "AVX2"))
"""Wide integer SIMD without dot products, best first: flag, name shown to the user."""
CPUINFO = "/proc/cpuinfo"


@dataclass(frozen=True)
class Int8Capability:
    """What the CPU offers INT8 models.

    Attributes:
        fast: True when a dot-product instruction set is present.
        flags: the fast-path flags found (empty when none).
        known: False when the flags could not be read (not Linux): then nothing is claimed.
        integer_path: without a dot product, the x86 integer SIMD onnxruntime falls back to
            (``AVX-512BW``, ``AVX2``); empty when fast, on ARM, or when there is none.
    """

    fast: bool
    flags: tuple[str, ...]
    known: bool = True
    integer_path: str = ""

    @property
    def little_gain(self) -> bool:
        """True when the flags are known and show neither a dot product nor a wide integer SIMD path."""
        return self.known and not self.fast and not self.integer_path

    @property
    def summary(self) -> str:
        """One line for logs and benchmarks: ``INT8: VNNI (avx512_vnni)``, the slower path, or the warning."""
        if not self.known:
            return "INT8: CPU flags unknown on this system"
        if self.fast:
            kind = "dot product" if any(flag in ARM_FAST_FLAGS for flag in self.flags) else "VNNI"
            return f"INT8: {kind} ({', '.join(self.flags)})"
        if self.integer_path:
            return SLOWER_PATH_MESSAGE.format(isa=self.integer_path)
        return LITTLE_GAIN_MESSAGE


SLOWER_PATH_MESSAGE = (
    "INT8: no VNNI on this CPU; onnxruntime uses the slower {isa} integer path (still typically faster than FP32)"
)
LITTLE_GAIN_MESSAGE = "INT8: no VNNI, AVX2 or dot-product instructions on this CPU, expect little gain"


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
    fallback = "" if found or arm else next((name for flag, name in X86_INTEGER_PATHS if flag in flags), "")
    return Int8Capability(fast=bool(found), flags=found, integer_path=fallback)
