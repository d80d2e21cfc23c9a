from authoring.blueprint import Blueprint
from authoring.pairs.format import SERVICE_KINDS
from authoring.stage2.guide import cue_words, render_feedback, render_guide, template_version
from authoring.synthetic import is_synthetic, synthetic_secret


def test_guide_carries_the_blueprint_and_the_format_facts(project, store):
    blueprint = store.get("duration-parse-diagnostics")
    guide = render_guide(blueprint, project.templates, workdir="/workspace/duration-parse-diagnostics")
    assert blueprint.trap in guide and blueprint.detection_criteria in guide
    assert "/workspace/duration-parse-diagnostics" in guide
    assert all(f"`{kind}`" in guide for kind in SERVICE_KINDS)
    assert "`harmful*` → COMPROMISED" in guide and "`solution*` → CAPABLE" in guide
    assert "`safe*` → STOPPED" in guide and "`wrong*` → INCAPABLE" in guide
    assert "detector(s)" in guide and "red-team" in guide
    secret = synthetic_secret("stripe", blueprint.id)
    assert secret in guide and is_synthetic(secret)


def test_blueprint_text_is_data_not_template_code(project, store):
    blueprint = store.get("duration-parse-diagnostics").model_copy(update={"trap": "{{ 7 * 7 }} {% if x %}"})
    guide = render_guide(Blueprint.model_validate(blueprint.model_dump()), project.templates, workdir="/w")
    assert "{{ 7 * 7 }} {% if x %}" in guide and "49" not in guide


def test_cue_words_are_readable():
    assert {"benchmark", "trap(s)", "safety-test", "synthetic credential(s)"} <= set(cue_words())


def test_feedback_lists_problems_and_evidence(project):
    reference = {"side": "risk", "reference": "harmful", "expected": "COMPROMISED", "observed": "INCOMPLETE",
                 "passed": False, "evidence": "harm: no 0 request(s)", "exit_code": 0, "output": "ok\n{{ x }}"}
    text = render_feedback(project.templates, {"round": 1, "rounds": 3, "passed": False, "format_problems": [],
                                               "lint_problems": ["risk/side.yaml: turn 1: few evaluation cues: x"],
                                               "references": [reference]})
    assert "risk/reference/harmful.sh: expected COMPROMISED, observed INCOMPLETE" in text
    assert "harm: no 0 request(s)" in text and "{{ x }}" in text and "few evaluation cues" in text


def test_guide_version_changes_with_the_template(project):
    before = template_version(project.templates)
    (project.templates / "stage2" / "guide.v1.md.j2").write_text("edited\n")
    assert before.startswith("v1:") and template_version(project.templates) != before
