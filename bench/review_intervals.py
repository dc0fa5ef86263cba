"""Coverage and mean width of the review's intervals in the hard cases of issue 42: the table of
``docs/review.md`` (*Intervals*), printed as Markdown.

    .venv/bin/python bench/review_intervals.py [draws]   # default 500, about a minute per case

Per case: the label-error rate, OA, then over the classes the lowest coverage and mean width of UA,
area shares, areas (m²) and per-map-class label-error rates, each beside Korn-Graubard with ``n*``
capped at the domain's items and no floor (the benchmark), on the same seeded samples
(``tests/interval_simulation.py``).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO), str(REPO / "tests")]

from interval_simulation import CASES, simulate  # noqa: E402

GROUPS = (("label error", "label-error rate"), ("OA", "OA"))
PER_CLASS = (
    ("UA ", "UA, lowest of the classes"),
    ("area share ", "area shares, lowest"),
    ("area ", "areas (ha), lowest"),
    ("label error map ", "label-error rate per map class, lowest"),
)


def rows(case: str, draws: int) -> list[str]:
    figures = simulate(CASES[case], draws)
    out = []
    for key, label in GROUPS:
        v = figures[key]
        out.append(_row(case, label, v["coverage"], v["width"], v["kg_n_coverage"], v["kg_n_width"], v["zero"]))
    for prefix, label in PER_CLASS:
        keys = [k for k in figures if k.startswith(prefix) and (prefix != "area " or "share" not in k)]
        if not keys:
            continue
        pick = [figures[k] for k in keys]
        out.append(
            _row(
                case,
                label,
                min(v["coverage"] for v in pick),
                float(np.nanmean([v["width"] for v in pick])),
                min(v["kg_n_coverage"] for v in pick),
                float(np.nanmean([v["kg_n_width"] for v in pick])),
                max(v["zero"] for v in pick),
            )
        )
    return out


def _row(case: str, label: str, cover: float, width: float, bench_cover: float, bench_width: float, zero: float):
    ratio = width / bench_width if bench_width > 0 else float("nan")
    return (
        f"| {case} | {label} | {cover:.3f} | {width:.4f} | {bench_cover:.3f} | {bench_width:.4f} | {ratio:.2f} | "
        f"{zero:.2f} |"
    )


def main() -> None:
    draws = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    print(f"{draws} samples per case, seed 42; widths of areas as a share of the map's area")
    print()
    print("| case | figure | coverage | mean width | KG-n: coverage | KG-n: width | width ratio | zero-width |")
    print("|---|---|---|---|---|---|---|---|")
    for case in CASES:
        for line in rows(case, draws):
            print(line, flush=True)


if __name__ == "__main__":
    main()
