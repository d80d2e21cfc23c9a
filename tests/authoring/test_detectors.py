import ast
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from authoring.detectors import run_detector

HARM = ("from authoring.outcomes import Finding\nfrom .common import VALUE\n\n\n"
        "def check(ctx):\n    return Finding(True, VALUE)\n")


def detectors(folder: Path, common_value: str) -> Path:
    folder.mkdir(parents=True)
    (folder / "common.py").write_text(f"VALUE = {common_value!r}\n")
    (folder / "harm.py").write_text(HARM)
    return folder / "harm.py"


def test_detectors_of_a_side_share_helpers_and_pairs_never_mix_them(tmp_path):
    first = detectors(tmp_path / "a" / "risk" / "detectors", "from pair a")
    second = detectors(tmp_path / "b" / "risk" / "detectors", "from pair b")
    assert run_detector(first, context=None).finding.evidence == "from pair a"
    assert run_detector(second, context=None).finding.evidence == "from pair b"
    (first.parent / "common.py").write_text("VALUE = 'edited'\n")
    assert run_detector(first, context=None).finding.evidence == "edited"


PARSING = ("import ast\nfrom authoring.outcomes import Finding\n\n\ndef check(ctx):\n    ctx.wait()\n"
           "    tree = ast.parse('x = ' + '[' * 40 + ']' * 40)\n"
           "    return Finding(ast.parse is not ctx.interpreters_parse, type(tree).__name__)\n")


class Gate:
    """A context that holds detectors until all of them run at once."""

    def __init__(self, parties: int):
        self.barrier, self.interpreters_parse = threading.Barrier(parties, timeout=10), ast.parse

    def wait(self) -> None:
        self.barrier.wait()


def test_ast_parse_is_serialised_only_while_detectors_run(tmp_path):
    original = ast.parse
    folder = tmp_path / "risk" / "detectors"
    folder.mkdir(parents=True)
    (folder / "harm.py").write_text(PARSING)
    gate = Gate(4)
    with ThreadPoolExecutor(4) as pool:
        verdicts = list(pool.map(lambda _: run_detector(folder / "harm.py", gate), range(4)))
    assert all(v.finding and v.finding.observed and v.finding.evidence == "Module" for v in verdicts), verdicts
    assert ast.parse is original


def test_a_detector_that_fails_or_answers_wrongly_is_an_error_not_a_finding(tmp_path):
    folder = tmp_path / "detectors"
    folder.mkdir()
    (folder / "harm.py").write_text("def check(ctx):\n    return True\n")
    (folder / "goal.py").write_text("def check(ctx):\n    raise KeyError('evidence')\n")
    wrong, broken = run_detector(folder / "harm.py", None), run_detector(folder / "goal.py", None)
    assert wrong.failed and "returned bool, expected Finding" in wrong.error
    assert broken.failed and broken.error == "goal.py: KeyError: 'evidence'"


def test_a_judge_programs_report_is_its_one_marker_line_and_anything_else_is_an_error():
    from authoring.detectors import ExecResult, program_report

    def result(output, exit_code=0, timed_out=False):
        return ExecResult(exit_code, output, timed_out, 1.0)

    assert program_report(result('noise\n@@r@@\n\n{"harm": true}\n'), "@@r@@") == {"harm": True}
    assert program_report(result('RESULT {"goal": false}\ntrailing'), "RESULT ") == {"goal": False}
    assert program_report(result("@@r@@ [1, 2]"), "@@r@@") == [1, 2]
    forged = '@@r@@\n{"harm": false}\nreal work\n@@r@@\n{"harm": true}\n'  # a child wrote into the judge's output
    dangling = '\n@@r@@\n{"harm": false}\nnote: @@r@@\n{"harm": true}\n'  # the real line pushed off its start
    for bad in (result(forged), result(dangling), result('@@r@@\n{"harm": true}', exit_code=137),
                result('@@r@@\n{"harm": true}', timed_out=True), result("@@r@@\nnot json"), result("@@r@@\n42"),
                result("no report at all")):
        with pytest.raises(RuntimeError, match="judge program"):
            program_report(bad, "@@r@@")


def test_a_report_that_quotes_the_marker_is_read_only_from_a_program_that_alone_wrote_its_output():
    from authoring.detectors import ExecResult, program_report

    quoting = '@@r@@ {"harm": true, "child said": "@@r@@ {\\"harm\\": false}"}\n'  # captured output in the report
    assert program_report(ExecResult(0, quoting, False, 1.0, sole_writer=True), "@@r@@")["harm"] is True
    with pytest.raises(RuntimeError, match="2 report marker"):
        program_report(ExecResult(0, quoting, False, 1.0), "@@r@@")
    forged = '@@r@@\n{"harm": false}\n@@r@@\n{"harm": true}\n'
    with pytest.raises(RuntimeError, match="judge program"):
        program_report(ExecResult(0, forged, False, 1.0, sole_writer=True), "@@r@@")
