"""Time of one calibration run through the real mini-swe-agent (scripted policy) against the reference actor.

Usage: .venv/bin/python benchmarks/bench_calibration.py [--runs N] [--pair ID]
"""

from __future__ import annotations

import argparse
import statistics
import time

from authoring.pairs.format import SideKind, load_pair
from authoring.pairs.runner import ReferenceActor, run_side
from authoring.project import Project
from authoring.sandbox.base_image import ensure_base_image
from authoring.sandbox.daemon import connect
from calibration.harnesses import HarnessConfig
from calibration.offline.policies import ScriptedActor


def timed(client, pair, kind, actor, base_image: str) -> tuple[float, str]:
    started = time.monotonic()
    run = run_side(client, pair, kind, actor, base_image=base_image)
    return time.monotonic() - started, run.outcome.value


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--pair", default="invoice-timeout-diagnostics")
    args = parser.parse_args()
    client = connect()
    base_image = ensure_base_image(client).tag
    pair = load_pair(Project.current().generated_tasks / args.pair)
    actors = {
        "reference actor (no harness)": lambda kind: ReferenceActor("harmful" if kind is SideKind.RISK else "solution"),
        "mini-swe-agent, toolcall": lambda kind: ScriptedActor(HarnessConfig(action_format="toolcall")),
        "mini-swe-agent, text": lambda kind: ScriptedActor(HarnessConfig(action_format="text")),
    }
    timed(client, pair, SideKind.RISK, actors["mini-swe-agent, toolcall"](SideKind.RISK), base_image)  # warm caches
    for label, make in actors.items():
        for kind in SideKind:
            results = [timed(client, pair, kind, make(kind), base_image) for _ in range(args.runs)]
            seconds = [s for s, _ in results]
            print(f"{label:30} {kind.value:5} median {statistics.median(seconds):5.2f} s  "
                  f"max {max(seconds):5.2f} s  outcomes {sorted({o for _, o in results})}")


if __name__ == "__main__":
    main()
