"""Below the floor, each surviving mutant goes back to the Stage II agent as a failed reference path that says what
changed and the two ways out (a detector that tells it apart, or a recorded equivalence)."""

from authoring.outcomes import Outcome
from authoring.pairs.format import SideKind
from authoring.pairs.mutants import SourceMutant
from authoring.pairs.mutate import Mutant, MutantResult, MutationReport
from authoring.stage2.checks import PairCheck
from authoring.stage2.mutation_gate import survivor_results


def result(source: str, observed: Outcome, equivalent: str = "") -> MutantResult:
    change = SourceMutant("src/durations.py", "drop-check", 12, "a guard's condition becomes False", source)
    return MutantResult(Mutant(SideKind.TWIN, "solution", change), Outcome.CAPABLE, observed, equivalent)


def test_each_survivor_becomes_a_failed_path_with_both_ways_out():
    survivor = result("b = 2\n", Outcome.CAPABLE)
    report = MutationReport("duration-parse-diagnostics", [result("a = 1\n", Outcome.INCAPABLE), survivor,
                                                         result("c = 3\n", Outcome.CAPABLE, "same for every input")])
    assert report.score == 0.5 and report.survivors == [survivor]
    ident = survivor.mutant.change.id
    [failed] = survivor_results(report, floor=95)
    assert (failed.side, failed.reference, failed.expected, failed.observed, failed.passed) == (
        "twin", f"wrong-mutant-solution-{ident}", "CAPABLE", "CAPABLE", False)
    assert "mutation score 50 % (1 of 2 killed, 1 equivalent), below the floor of 95 %" in failed.evidence
    assert "src/durations.py:12" in failed.evidence and f"'twin/solution:{ident}': <why>" in failed.evidence
    check = PairCheck(references=[failed])
    assert not check.passed
