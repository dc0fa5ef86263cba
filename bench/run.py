"""`make bench`: every bench/bench_*.py in turn, each in its own process; figures are printed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    failed = []
    for script in sorted(HERE.glob("bench_*.py")):
        print(f"\n=== {script.stem} ===", flush=True)
        if subprocess.run([sys.executable, str(script)], cwd=HERE.parent, check=False).returncode != 0:
            failed.append(script.name)
    if failed:
        print(f"\nbenchmarks that failed: {', '.join(failed)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
