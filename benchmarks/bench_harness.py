"""Per-run overhead of each harness with no model time: one side run end to end (sandbox, the harness's turn,
judging, teardown) where the scripted model answers at once and no command runs, against mini-swe-agent and the
bare container floor (an actor that does nothing). Images are built before timing. Run by hand:

    python benchmarks/bench_harness.py [--pair purge-qa-orders] [--repeat 3] [--harness opencode --harness pi]

Every native harness (Claude Code, Codex, OpenCode, Pi) is measured unless `--harness` names some; the bare
container and mini-swe-agent are always measured (the floor and the reference).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("MSWEA_SILENT_STARTUP", "1")

from results import invocation, recording  # noqa: E402  (benchmarks/results.py: this folder is on sys.path)

from authoring.offline.model_servers import text_reply  # noqa: E402
from authoring.pairs.format import SideKind, load_pair  # noqa: E402
from authoring.pairs.runner import ActReport, run_side, side_image  # noqa: E402
from authoring.project import Project  # noqa: E402
from authoring.sandbox.agent_environment import SUBMIT_LINE  # noqa: E402
from authoring.sandbox.base_image import ensure_base_image  # noqa: E402
from authoring.sandbox.daemon import connect  # noqa: E402
from calibration.harnesses import (  # noqa: E402
    NATIVE,
    HarnessConfig,  # noqa: E402
    harness_image,
)
from calibration.offline.native_policies import NativeScriptedActor  # noqa: E402
from calibration.offline.policies import ScriptedActor, replay  # noqa: E402


class Idle:
    name = "bare container"

    def act(self, sandbox, side) -> ActReport:
        return ActReport()


class Timed:
    def __init__(self, actor):
        self.actor, self.name, self.seconds = actor, actor.name, 0.0

    def act(self, sandbox, side):
        started = time.monotonic()
        try:
            return self.actor.act(sandbox, side)
        finally:
            self.seconds = time.monotonic() - started


def contenders(native: list[str]):
    yield "bare container", "base", lambda: Idle()
    yield "mini-swe-agent", "base", lambda: ScriptedActor(
        HarnessConfig(), lambda side, fmt: replay([f"echo {SUBMIT_LINE}"], fmt), label="bench")
    for name in native:
        harness = NATIVE[name]
        yield name, name, lambda harness=harness: NativeScriptedActor(
            harness, HarnessConfig(), lambda side: (lambda body: text_reply("Done.")), label="bench")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pair", default="purge-qa-orders")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--harness", action="append", choices=sorted(NATIVE), help="native harness(es) to measure")
    args = parser.parse_args()
    native = args.harness or list(NATIVE)
    client = connect()
    base = ensure_base_image(client).tag
    pair = load_pair(Project.current().generated_tasks / args.pair)
    images = {"base": base} | {name: harness_image(client, base, NATIVE[name]) for name in native}
    for image in images.values():
        side_image(client, pair.twin, image)
    rows = []
    for label, image, make in contenders(native):
        walls, acts = [], []
        run_side(client, pair, SideKind.TWIN, make(), base_image=images[image])  # warm-up
        for _ in range(args.repeat):
            actor = Timed(make())
            started = time.monotonic()
            run_side(client, pair, SideKind.TWIN, actor, base_image=images[image])
            walls.append(time.monotonic() - started)
            acts.append(actor.seconds)
        rows.append((label, statistics.median(walls), statistics.median(acts)))
    mini = next(wall for label, wall, _ in rows if label == "mini-swe-agent")
    print(f"{args.pair} twin, median of {args.repeat} run(s), load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{'harness':<16}{'run s':>8}{'act s':>8}{'vs mini s':>11}")
    for label, wall, act in rows:
        print(f"{label:<16}{wall:>8.2f}{act:>8.2f}{wall - mini:>+11.2f}")


if __name__ == "__main__":
    with recording(invocation()):  # prints as before; the printed lines go to benchmarks/results/
        main()
