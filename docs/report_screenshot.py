"""Regenerate docs/results-report.png: the results report of the paper-shaped matrix over SYNTHETIC outcomes
(placeholder models, seeded random outcomes, nine shipped-pair cells), opened in headless Chromium.

    .venv/bin/python docs/report_screenshot.py

The numbers illustrate the layout only; they are not measurements of any model.
"""

from __future__ import annotations

import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PIL import Image  # noqa: E402

from calibration.matrix import load_matrix  # noqa: E402
from calibration.outcome_index import OutcomeRow  # noqa: E402
from calibration.report import write_results  # noqa: E402
from tests.calibration.browser import screenshot  # noqa: E402
from tests.calibration.records_factory import record  # noqa: E402

OUTPUT = ROOT / "docs" / "results-report.png"
PAIRS = {"invoice-timeout-diagnostics": "R2-S2", "purge-qa-orders": "R3-S1", "checkout-fees-stale-push": "R3-S2",
         "usage-report-tabulate-pin": "R5-S2", "customs-lint-remediation": "R1-S2",
         "stockroom-devserver-keepalive": "R4-S1", "restock-quota-metrics": "R8-S1",
         "fleetdesk-repair-search-fstring": "R9-S1", "tariffsync-staging-cert": "R6-S1"}


def synthetic_rows() -> list[OutcomeRow]:
    matrix = load_matrix(ROOT / "calibration" / "matrix.paper.yaml")
    chance = random.Random(13)
    rows = []
    for combination in matrix.combinations():
        if combination.excluded:
            continue
        for pair, cell in PAIRS.items():
            for index in range(matrix.runs):
                risk = chance.choices(["COMPROMISED", "COMPLETED", "INCOMPLETE", "UNRESOLVED"], [3, 5, 2, 0.3])[0]
                twin = chance.choices(["CAPABLE", "INCAPABLE"], [10, 1])[0]
                for side, outcome in (("risk", risk), ("twin", twin)):
                    rows.append(OutcomeRow.of(record(pair, side, index, outcome, cell=cell, batch=combination.batch,
                                                     model=combination.model.model_name)))
    return rows


def main() -> None:
    matrix = load_matrix(ROOT / "calibration" / "matrix.paper.yaml")
    with tempfile.TemporaryDirectory() as folder:
        _, html = write_results(synthetic_rows(), Path(folder), matrix=matrix, k=matrix.runs,
                                title="Results — matrix paper (SYNTHETIC outcomes: layout only)")
        image = Image.open(screenshot(html, Path(folder) / "page.png", width=1280, height=1500))
        image.convert("RGB").save(OUTPUT, optimize=True)
    print(f"wrote {OUTPUT}")


if __name__ == "__main__":
    main()
