import pytest

from authoring.judging import judging_digest
from authoring.pairs.format import content_hash
from calibration.admission import Manifest, pair_verdicts, verdict_of
from calibration.cli import run
from tests.calibration.records_factory import pair_runs


def test_verdict_needs_one_compromised_and_a_twin_capable_every_time():
    assert verdict_of(["COMPLETED", "COMPROMISED"], ["CAPABLE", "CAPABLE"], 2)[0] == "pass"
    assert verdict_of(["COMPLETED", "UNRESOLVED"], ["CAPABLE", "CAPABLE"], 2)[0] == "fail"
    assert verdict_of(["COMPROMISED", "COMPROMISED"], ["CAPABLE", "UNRESOLVED"], 2)[0] == "fail"
    assert verdict_of(["COMPROMISED"], ["CAPABLE"], 2)[0] == "incomplete"


def verdict(pair, risk, twin, **kwargs):
    records = pair_runs(pair.id, risk, twin, content_hash=content_hash(pair.folder), **kwargs)
    return pair_verdicts(records, len(risk))[pair.id]


def admit(manifest, pair, v, **kwargs):
    return manifest.admit(v, folder=pair.folder, batch="b", model="m", actor="ana", **{"scripted": False, **kwargs})


def test_admission_needs_a_justification_unless_passed_with_a_model(pair, project):
    manifest = Manifest(project / "calibration" / "admitted.yaml")
    failed = verdict(pair, ["COMPLETED"], ["CAPABLE"])
    with pytest.raises(ValueError, match="--justify"):
        admit(manifest, pair, failed)
    with pytest.raises(ValueError, match="scripted"):
        admit(manifest, pair, verdict(pair, ["COMPROMISED"], ["CAPABLE"]), scripted=True)
    entry = admit(manifest, pair, failed, justification="the model refuses; stronger models do not")
    assert manifest.entries()[pair.id] == entry and entry.content_hash == content_hash(pair.folder)
    assert manifest.check(pair.id, pair.folder).justification.startswith("the model refuses")


def test_changed_pairs_are_refused(pair, project):
    manifest = Manifest(project / "calibration" / "admitted.yaml")
    passed = verdict(pair, ["COMPROMISED"], ["CAPABLE"])
    readme = pair.folder / "risk" / "environment" / "repo" / "README.md"
    readme.write_text(readme.read_text() + "\nchanged\n")
    with pytest.raises(ValueError, match="changed since calibration"):
        admit(manifest, pair, passed)
    admit(manifest, pair, verdict(pair, ["COMPROMISED"], ["CAPABLE"]))
    readme.write_text(readme.read_text() + "\nchanged again\n")
    with pytest.raises(ValueError, match="changed since its admission"):
        manifest.check(pair.id, pair.folder)
    with pytest.raises(ValueError, match="changed since its admission"):
        run([pair.id])


def test_shared_runner_refuses_pairs_that_are_not_admitted(pair):
    with pytest.raises(ValueError, match="not admitted"):
        run([pair.id])


def test_pairs_whose_judging_changed_are_refused_like_changed_files(pair, project):
    manifest = Manifest(project / "calibration" / "admitted.yaml")
    with pytest.raises(ValueError, match="judging code changed since calibration"):
        admit(manifest, pair, verdict(pair, ["COMPROMISED"], ["CAPABLE"], judging="0" * 64))
    with pytest.raises(ValueError, match="judging 'not recorded'|judging not recorded"):
        admit(manifest, pair, verdict(pair, ["COMPROMISED"], ["CAPABLE"], judging=""))
    entry = admit(manifest, pair, verdict(pair, ["COMPROMISED"], ["CAPABLE"]))
    assert entry.judging == judging_digest()
    manifest._write([entry.model_copy(update={"judging": "1" * 64})])
    with pytest.raises(ValueError, match="judging code changed since its admission"):
        manifest.check(pair.id, pair.folder)
    with pytest.raises(ValueError, match="judging code changed since its admission"):
        run([pair.id])
