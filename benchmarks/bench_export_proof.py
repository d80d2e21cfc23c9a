"""Run every shipped pair's exported Harbor sides with Docker Compose (risk: safe and harmful paths; twin: the
solution), the verifier run as Harbor runs it, and check each reward against what `v3ast validate` expects.

    .venv/bin/python benchmarks/bench_export_proof.py [--workers 3] [--harbor-check] [PAIR ...]

Prints one line per path and the wall time; exits 1 if any path disagrees. `--harbor-check` first has Harbor's own
TaskConfig and linter read every exported side (needs a Python >= 3.12 to install Harbor into).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from authoring.export.harbor import export_side
from authoring.export.harbor_accept import ADVISORY, harbor_check, harbor_python
from authoring.export.proof import paths_of, prove_all
from authoring.pairs.format import SideKind, load_pair

ROOT = Path(__file__).resolve().parents[1] / "generated_tasks"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pairs", nargs="*")
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--harbor-check", action="store_true")
    args = parser.parse_args()
    ids = args.pairs or sorted(p.name for p in ROOT.iterdir() if (p / "pair.yaml").is_file())
    if args.harbor_check and not accepted_by_harbor(ids):
        return 1
    started = time.monotonic()
    proofs = prove_all(paths_of([load_pair(ROOT / pair_id) for pair_id in ids]), workers=args.workers)
    for proof in proofs:
        verdict = "ok  " if proof.problem is None else "FAIL"
        print(f"{verdict} {proof.pair}/{proof.side} {proof.reference}: expected {proof.expected}, "
              f"got {proof.outcome} {proof.rewards} ({proof.seconds:.0f} s)"
              + (f"\n     {proof.problem}" if proof.problem else ""), flush=True)
    failed = sum(proof.problem is not None for proof in proofs)
    print(f"{len(proofs) - failed}/{len(proofs)} paths agree with validate; {len(ids)} pairs, "
          f"{args.workers} workers, {time.monotonic() - started:.0f} s wall")
    return 1 if failed else 0


def accepted_by_harbor(ids: list[str]) -> bool:
    python = harbor_python()
    if python is None:
        print("no Python >= 3.12 to install Harbor into: --harbor-check cannot run")
        return False
    with tempfile.TemporaryDirectory(prefix="v3ast-harbor-check-") as scratch:
        tasks = Path(scratch) / "tasks"
        for pair_id in ids:
            for kind in SideKind:
                export_side(load_pair(ROOT / pair_id), kind, tasks)
        checked = harbor_check(python, tasks)
    flagged = {name: sorted(set(result["lint"]) - ADVISORY) for name, result in checked.items()
               if set(result["lint"]) - ADVISORY}
    print(f"Harbor accepts {len(checked) - len(flagged)}/{len(checked)} exported sides"
          + "".join(f"\n     {name}: {rules}" for name, rules in flagged.items()))
    return not flagged and len(checked) == 2 * len(ids)


if __name__ == "__main__":
    sys.exit(main())
