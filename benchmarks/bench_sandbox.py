"""Warm sandbox run (network, sidecars, agent, a few execs, teardown) against `docker run --rm base true`.

Usage: .venv/bin/python benchmarks/bench_sandbox.py [--runs N] [--sidecars 1|2]
"""

from __future__ import annotations

import argparse
import statistics
import time

from authoring.sandbox.base_image import ensure_base_image
from authoring.sandbox.daemon import connect
from authoring.sandbox.session import Sandbox, ServiceSpec, services_image

SIDECARS = [ServiceSpec("receiver", "collector.internal"), ServiceSpec("api", "api.internal")]


def floor_run(client, image: str) -> float:
    started = time.monotonic()
    client.containers.run(image, ["true"], remove=True)
    return time.monotonic() - started


def sandbox_run(client, image: str, sidecars: int) -> float:
    started = time.monotonic()
    with Sandbox(client, image, SIDECARS[:sidecars]) as box:
        box.exec("echo hello > note.txt")
        box.exec("curl -s -d @note.txt http://collector.internal/")
        box.exec("cat note.txt")
    return time.monotonic() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--sidecars", type=int, default=2, choices=(1, 2))
    options = parser.parse_args()
    client = connect()
    image = ensure_base_image(client).tag
    services_image(client, image)
    floor_run(client, image), sandbox_run(client, image, options.sidecars)
    floors = [floor_run(client, image) for _ in range(options.runs)]
    runs = [sandbox_run(client, image, options.sidecars) for _ in range(options.runs)]
    floor, warm = statistics.median(floors), statistics.median(runs)
    print(f"floor (docker run --rm base true): {floor:.3f} s (median of {options.runs})")
    print(f"warm sandbox run, {options.sidecars} sidecar(s), 3 execs: {warm:.3f} s (median of {options.runs})")
    print(f"ratio: {warm / floor:.2f}x (target <= 3x)")


if __name__ == "__main__":
    main()
