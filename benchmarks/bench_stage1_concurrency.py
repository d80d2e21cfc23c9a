"""A Stage I proposal round against a loopback server with fixed latency: concurrent vs serial.

    .venv/bin/python benchmarks/bench_stage1_concurrency.py [--latency 1.0] [--wire openai|anthropic]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from authoring.offline.model_servers import ScriptedModelServer
from authoring.offline.stage1_model import demo_responder
from authoring.stage1.inputs import TOOLKIT_ROOT, Workspace
from authoring.stage1.propose import propose
from authoring.stage1.providers import ProviderConfig, make_provider


def timed_round(wire: str, latency: float, concurrency: int) -> float:
    with tempfile.TemporaryDirectory() as folder, ScriptedModelServer(demo_responder, wire, latency) as server:
        workspace = Workspace(
            blueprints=Path(folder) / "blueprints", sources=TOOLKIT_ROOT / "blueprints" / "sources",
            rubric=TOOLKIT_ROOT / "blueprints" / "rubric.yaml", templates=TOOLKIT_ROOT / "templates" / "stage1",
            runs=Path(folder) / "runs")
        provider = make_provider(wire, ProviderConfig(base_url=server.base_url))
        started = time.monotonic()
        [result] = propose(provider, workspace, "R5-S2", concurrency=concurrency)
        elapsed = time.monotonic() - started
        provider.close()
    if len(result.created) != 10:
        raise RuntimeError(f"expected 10 candidates, got {len(result.created)}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=1.0, help="server latency per call, seconds")
    parser.add_argument("--wire", choices=["openai", "anthropic"], default="openai")
    args = parser.parse_args()
    concurrent = timed_round(args.wire, args.latency, concurrency=10)
    serial = timed_round(args.wire, args.latency, concurrency=1)
    print(f"round of 10 candidates, {args.latency:g}s latency per call, {args.wire} wire")
    print(f"  concurrent (10): {concurrent:6.2f}s")
    print(f"  serial     (1):  {serial:6.2f}s")
    print(f"  speed-up: {serial / concurrent:.1f}x (includes 10 git commits per round, which stay serial)")


if __name__ == "__main__":
    main()
