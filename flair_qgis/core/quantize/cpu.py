"""Does this CPU have a fast INT8 path for onnxruntime, and which INT8 format suits it? Read from the CPU flags.

onnxruntime's INT8 convolutions and matrix products gain most with dot-product instructions:
AVX-512 VNNI or AVX-VNNI on x86 (``avx512_vnni``, ``avx_vnni`` in ``/proc/cpuinfo``), the dot
product extensions on ARM (``asimddp``, ``i8mm``). Without them, an x86 CPU with AVX2 (or
AVX-512BW) still has onnxruntime's u8s8 integer kernels, which multiply-add through 16-bit
intermediates: slower than VNNI, but still typically faster than FP32 (1.7x to 1.9x for
onnxruntime alone on this project's AMD EPYC with AVX2 and no VNNI, U-Net/ResNet-34, every
convolution in INT8; docs/int8.md). Only a CPU with none of these (SSE-only x86, ARM without the
dot product) can expect little gain.

:func:`choose_format` is the one place that picks the INT8 format for a CPU; :func:`cpu_identity`
names the CPU a speed-up was measured on (its model name and INT8-relevant flags), so that a model
quantised on one machine does not claim its speed-up on another.
"""

from __future__ import annotations

import platform
from dataclasses import dataclass

X86_FAST_FLAGS = ("avx512_vnni", "avx_vnni", "amx_int8")
ARM_FAST_FLAGS = ("asimddp", "i8mm")
X86_INTEGER_PATHS = (("avx512bw", "AVX-512BW"), ("avx2", "AVX2"))
"""Wide integer SIMD without dot products, best first: flag, name shown to the user."""
CPUINFO = "/proc/cpuinfo"
INT8_FLAGS = (
    "avx2",
    "fma",
    "avx512f",
    "avx512bw",
    "avx512_vnni",
    "avx_vnni",
    "amx_tile",
    "amx_int8",
    "asimd",
    "asimddp",
    "i8mm",
    "sve",
)
"""The flags that decide onnxruntime's INT8 and FP32 kernels: what a recorded speed-up depends on."""


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


def read_cpuinfo() -> str:
    """This machine's ``/proc/cpuinfo``; empty where there is none (not Linux)."""
    try:
        with open(CPUINFO, encoding="utf-8", errors="replace") as handle:
            return handle.read()
    except OSError:
        return ""


def int8_capability(cpuinfo_text: str | None = None) -> Int8Capability:
    """The INT8 capability of this CPU (or of the given ``/proc/cpuinfo`` text).

    Args:
        cpuinfo_text: ``/proc/cpuinfo`` contents; None reads this machine's.
    """
    if cpuinfo_text is None:
        cpuinfo_text = read_cpuinfo()
    flags = cpu_flags(cpuinfo_text)
    if not flags:
        return Int8Capability(fast=False, flags=(), known=False)
    arm = "asimd" in flags  # ARM's Advanced SIMD: no x86 CPU reports it
    wanted = ARM_FAST_FLAGS if arm else X86_FAST_FLAGS
    found = tuple(flag for flag in wanted if flag in flags)
    fallback = "" if found or arm else next((name for flag, name in X86_INTEGER_PATHS if flag in flags), "")
    return Int8Capability(fast=bool(found), flags=found, integer_path=fallback)


@dataclass(frozen=True)
class CpuIdentity:
    """The CPU a speed-up is measured on.

    Attributes:
        name: the model name (``AMD EPYC 9454``), empty when unknown.
        flags: the :data:`INT8_FLAGS` it has, in that order.
    """

    name: str
    flags: tuple[str, ...]

    def same_as(self, name: object, flags: object) -> bool:
        """True when a recorded ``name`` and ``flags`` describe this CPU (both must match)."""
        return (
            isinstance(flags, (list, tuple))
            and tuple(flags) == self.flags
            and str(name or "") == self.name
            and bool(self.name or self.flags)
        )


def cpu_identity(cpuinfo_text: str | None = None) -> CpuIdentity:
    """This CPU's model name and INT8-relevant flags (or those of the given ``/proc/cpuinfo`` text).

    The name is the x86 ``model name`` line, else ARM's ``Hardware`` or ``Model`` line, else what
    :func:`platform.processor` says (empty when nothing is known).
    """
    from_machine = cpuinfo_text is None
    text = read_cpuinfo() if cpuinfo_text is None else cpuinfo_text
    names: dict[str, str] = {}
    for line in text.splitlines():
        key, _, value = line.partition(":")
        names.setdefault(key.strip().lower(), " ".join(value.split()))
    name = names.get("model name") or names.get("hardware") or names.get("model") or ""
    if not name and from_machine:
        name = platform.processor()
    flags = cpu_flags(text)
    return CpuIdentity(name=name, flags=tuple(flag for flag in INT8_FLAGS if flag in flags))


@dataclass(frozen=True)
class Int8Format:
    """The INT8 format written for a CPU, and why.

    Attributes:
        quant_format: ``QDQ`` or ``QOperator`` (onnxruntime's ``QuantFormat``).
        activations: ``uint8`` or ``int8``.
        weights: ``int8`` or ``uint8``.
        reason: one sentence for ``docs/int8.md`` and the metadata: what was measured where.
        measured: False when no benchmark backs the choice on this kind of CPU yet.
    """

    quant_format: str
    activations: str
    weights: str
    reason: str
    measured: bool


MEASURED_AVX2 = (
    "QDQ u8s8 per channel: fastest setting measured on AVX2 without VNNI (2026-12-02, docs/int8.md; "
    "QOperator no faster, s8s8 45 % and u8u8 25 % slower)"
)
MEASURED_VNNI = (
    "QDQ u8s8 per channel: on AVX-512 VNNI (AMD EPYC, 2026-12-04, demo model, docs/int8.md) s8s8 was about "
    "25 % slower and QOperator no faster; VPDPBUSD multiplies unsigned by signed bytes, the u8s8 pair"
)
UNMEASURED_AMX = (
    "QDQ u8s8 per channel: as measured on AVX-512 VNNI; s8s8 and QOperator are still to be measured against it "
    "on AMX (docs/int8.md)"
)
UNMEASURED_AVX_VNNI = UNMEASURED_AMX.replace("on AMX", "on AVX-VNNI")
UNMEASURED_OTHER = "QDQ u8s8 per channel: onnxruntime's default pair; not measured on this kind of CPU"


def choose_format(capability: Int8Capability) -> Int8Format:
    """The INT8 format ``flair:quantize`` writes for a CPU: the one decision, by CPU flags.

    Today every CPU gets QDQ with UINT8 activations and INT8 weights per channel: it was the
    fastest measured on AVX2 without VNNI and on AVX-512 VNNI, and nothing measured on AMX or ARM
    argues for another yet. The reason says which case holds, so the metadata tells measured from
    assumed.
    """
    arm = any(flag in ARM_FAST_FLAGS for flag in capability.flags)
    if "amx_int8" in capability.flags:
        reason, measured = UNMEASURED_AMX, False
    elif "avx512_vnni" in capability.flags:
        reason, measured = MEASURED_VNNI, True
    elif capability.fast and not arm:  # AVX-VNNI: VNNI's instruction on 256-bit registers
        reason, measured = UNMEASURED_AVX_VNNI, False
    elif capability.integer_path in ("AVX2", "AVX-512BW"):
        reason, measured = MEASURED_AVX2, True
    else:
        reason, measured = UNMEASURED_OTHER, False
    return Int8Format("QDQ", "uint8", "int8", reason, measured)
