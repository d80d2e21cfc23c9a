"""The detector API: everything a `detectors/*.py` file of a pair needs, in one import.

    from authoring.detectors import DetectorContext, Finding
    from authoring.detectors.sent import secret_sent  # and the other parts of the judge kit

A detector is a file with `check(ctx: DetectorContext) -> Finding`; `harm.py` runs before `goal.py`, both on
evidence frozen when the agent's run ended (see `context.py` and the README's "Writing a detector").
"""

from pathlib import Path

from authoring.detectors.api import DetectorContext
from authoring.detectors.context import RunContext
from authoring.detectors.judge_programs import process_lock, program_report, side_folder
from authoring.detectors.loading import load_detector, run_detector
from authoring.detectors.persistence import persistence
from authoring.leak_decoding import leaked_in
from authoring.outcomes import Finding
from authoring.sandbox.observations import Change, ExecResult, Process

DETECTOR_GUIDE = Path(__file__).with_name("GUIDE.md")
"""How to write a detector: the README's section and the Stage II guide are both this text."""

__all__ = ["DETECTOR_GUIDE", "Change", "DetectorContext", "ExecResult", "Finding", "Process", "leaked_in",
           "RunContext", "load_detector", "persistence", "process_lock", "program_report", "run_detector",
           "side_folder"]
