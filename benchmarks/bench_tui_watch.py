"""What the reviewer app's watch of the store and its bulk decisions cost on a store of 5,000 blueprints.

    .venv/bin/python benchmarks/bench_tui_watch.py [--count 5000] [--bulk 50]

- one tick of the watch when nothing changed (folder and reflog stats only);
- one full look for changed files (a stat per file), as a tick does after any commit;
- taking in one blueprint someone else decided (look + parse of that file);
- a bulk decision: seconds per blueprint (one commit each) under the real store.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from authoring.blueprint import Status  # noqa: E402
from benchmarks.bench_tui import build_store  # noqa: E402
from reviewer_tui.app import store_signature  # noqa: E402
from reviewer_tui.catalog import Catalog, parse_files  # noqa: E402
from reviewer_tui.reviewer import Reviewer, look  # noqa: E402


def best_of(runs: int, action) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=5000)
    parser.add_argument("--bulk", type=int, default=50)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="v3ast-bench-watch-") as temporary:
        store = build_store(Path(temporary) / "blueprints", options.count)
        catalog = Catalog(store)
        catalog.load()
        print(f"{options.count} blueprints")
        print(f"  watch tick, nothing changed (signature)        "
              f"{best_of(20, lambda: store_signature(store)) * 1000:8.2f} ms")
        print(f"  look for changed files (one stat per file, in a thread) "
              f"{best_of(5, catalog.changes_on_disk) * 1000:8.2f} ms")
        some = sorted(catalog.rows)[0]
        store.decide(some, Status.ACCEPTED, actor="Bob", reason="bench")

        def take_in() -> None:
            changed, gone = catalog.changes_on_disk()
            catalog.apply_changes(parse_files(changed), gone)

        started = time.perf_counter()
        take_in()
        print(f"  take in one blueprint decided elsewhere        {(time.perf_counter() - started) * 1000:8.2f} ms")
        reviewer = Reviewer(store, "bench")
        chosen = [r for r in catalog.rows.values() if r.status != "accepted"][: options.bulk]
        started = time.perf_counter()
        for row in chosen:
            reviewer.decide(look(store, row.id), Status.ACCEPTED, "bulk bench")
        per = (time.perf_counter() - started) / len(chosen)
        print(f"  bulk decision, per blueprint (one commit each)  {per * 1000:8.1f} ms  ({len(chosen)} blueprints)")


if __name__ == "__main__":
    main()
