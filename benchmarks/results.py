"""Where benchmarks record what they measured: `benchmarks/results/<name>.json`, read by scripts/docs_performance.py
to write docs/performance.md (so the figures there are the benchmarks' own output, never copied by hand).

    {"benchmark": name, "measured_at": ISO time, "machine": str, "lines": [str, ...]}

A benchmark either calls `save(name, lines)` with the lines it printed, or wraps its run in `recording(name)`, which
keeps printing as before and saves every printed line when the run ends without an error. The last run of a name
replaces the one before; `name` should say what was run (the script and its arguments).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import platform
import re
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
GENERATOR = ROOT / "scripts" / "docs_performance.py"


def machine() -> str:
    """This machine as a benchmark figure needs it: host, cores and the load while it ran."""
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    return f"{platform.node()}: {os.cpu_count()} cores, {platform.system()} {platform.release()}, load {load}"


def file_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._]+", "-", name).strip("-") + ".json"


def save(name: str, lines: list[str], *, results: Path = RESULTS, regenerate: bool = True) -> Path:
    """Write the result of benchmark `name` and regenerate docs/performance.md; returns the file written."""
    results.mkdir(parents=True, exist_ok=True)
    path = results / file_name(name)
    record = {"benchmark": name, "measured_at": datetime.now(UTC).isoformat(timespec="seconds"),
              "machine": machine(), "lines": [line.rstrip("\n") for line in lines]}
    path.write_text(json.dumps(record, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    if regenerate:
        subprocess.run([sys.executable, str(GENERATOR)], check=True)
    return path


class _Tee(io.TextIOBase):
    def __init__(self, stream):
        self.stream, self.text = stream, []

    def write(self, text: str) -> int:
        self.text.append(text)
        return self.stream.write(text)

    def flush(self) -> None:
        self.stream.flush()


@contextlib.contextmanager
def recording(name: str) -> Iterator[None]:
    """Print as usual; when the block ends without an error, save every line it printed as `name`'s result."""
    tee = _Tee(sys.stdout)
    with contextlib.redirect_stdout(tee):
        yield
    lines = "".join(tee.text).splitlines()
    if lines:
        print(f"recorded in {save(name, lines).relative_to(ROOT)}; docs/performance.md regenerated")


def invocation() -> str:
    """The running script and its arguments, as a result's name: `bench_validate.py --every-pair`."""
    return " ".join([Path(sys.argv[0]).name, *sys.argv[1:]])
