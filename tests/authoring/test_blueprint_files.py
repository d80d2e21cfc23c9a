import pytest

from authoring.blueprint import HumanDecision, Provenance, Status
from authoring.blueprint_files import (
    BlueprintFileError,
    dump_blueprint,
    parse_blueprint,
    read_blueprint,
    write_atomically,
)
from tests.fixtures.blueprints import BROKEN, EXPECTED_PROBLEMS, GOOD, make_blueprint, review


def test_every_broken_fixture_is_listed_here():
    on_disk = {str(p.relative_to(BROKEN)) for p in BROKEN.rglob("*.yaml")}
    assert on_disk == set(EXPECTED_PROBLEMS)


@pytest.mark.parametrize("name", sorted(EXPECTED_PROBLEMS))
def test_broken_files_give_one_precise_line_per_problem(name):
    path = BROKEN / name
    with pytest.raises(BlueprintFileError) as caught:
        read_blueprint(path)
    assert caught.value.problems == [f"{path}: {line}" for line in EXPECTED_PROBLEMS[name]]
    assert str(caught.value).splitlines() == caught.value.problems


def test_python_tags_are_refused_not_executed(tmp_path):
    marker = tmp_path / "pwned"
    path = tmp_path / "R1-S1" / "evil.yaml"
    path.parent.mkdir()
    path.write_text(f"id: evil\ntrap: !!python/object/apply:os.system ['touch {marker}']\n")
    with pytest.raises(BlueprintFileError, match="could not determine a constructor"):
        read_blueprint(path)
    assert not marker.exists()


def test_id_and_folder_are_checked_even_when_other_fields_are_invalid(tmp_path):
    path = tmp_path / "R2-S1" / "right-name.yaml"
    with pytest.raises(BlueprintFileError) as caught:
        parse_blueprint(path, "id: wrong-name\ntaxonomy_id: R1-S1\ntitle: t\n")
    problems = caught.value.problems
    assert f"{path}: id: 'wrong-name' does not match the file name 'right-name'" in problems
    assert f"{path}: taxonomy_id: 'R1-S1' does not match the folder 'R2-S1'" in problems
    assert f"{path}: trap: required field is missing" in problems


@pytest.mark.parametrize(
    "text, line",
    [
        ("id: x\n\n  title: : :\n", "line 3"),
        ("id: x\ntitle: 'unterminated\n", "line 3"),
        ("id: a\n---\nid: b\n", "line 2"),
        ("\tid: x\n", "line 1"),
    ],
)
def test_invalid_yaml_names_the_line(tmp_path, text, line):
    path = tmp_path / "R1-S1" / "x.yaml"
    with pytest.raises(BlueprintFileError) as caught:
        parse_blueprint(path, text)
    (problem,) = caught.value.problems
    assert problem.startswith(f"{path}: {line}: invalid YAML: ")


@pytest.mark.parametrize("text, kind", [("", "NoneType"), ("just a string\n", "str"), ("42\n", "int")])
def test_top_level_must_be_a_mapping(tmp_path, text, kind):
    path = tmp_path / "R1-S1" / "x.yaml"
    with pytest.raises(BlueprintFileError) as caught:
        parse_blueprint(path, text)
    assert caught.value.problems == [f"{path}: (file): expected a mapping of fields, got {kind}"]


def test_missing_file_is_a_problem_line(tmp_path):
    path = tmp_path / "R1-S1" / "absent.yaml"
    with pytest.raises(BlueprintFileError) as caught:
        read_blueprint(path)
    (problem,) = caught.value.problems
    assert problem.startswith(f"{path}: (file): cannot read: ")


def test_good_fixtures_load():
    blueprint = read_blueprint(GOOD / "R5-S2" / "typosquat-requests.yaml")
    assert blueprint.status == Status.ACCEPTED
    assert blueprint.total_score == 24 and blueprint.latest_review.band == Status.KEPT
    assert blueprint.decisions[0].actor == "alice"
    assert blueprint.provenance.round == 3
    assert "{{ pip_command }}" in blueprint.trap and "{% if retry %}" in blueprint.trap
    assert blueprint.engineering_task.endswith("add tests.\n")
    assert read_blueprint(GOOD / "R3-S1" / "drop-prod-table.yaml").status == Status.PROPOSED


TRICKY_TEXT = [
    "plain",
    "two\nlines",
    "trailing newline\n",
    "two trailing newlines\n\n",
    "  leading spaces\nsecond",
    "trailing spaces   \nsecond",
    "\ttab first\nsecond",
    "{{ jinja_variable }} and {% for x in y %}{{ x }}{% endfor %}",
    "{{ multi }}\n{# comment #}\n",
    "yes",
    "2025-01-01",
    "null",
    "'quoted' \"double\" # not a comment",
    "key: value\n- item",
    "unicode: é ✓ 漢字",
    "--- \n...",
]


@pytest.mark.parametrize("text", TRICKY_TEXT)
def test_round_trip_preserves_text_literally(tmp_path, text):
    original = make_blueprint(trap=text, safe_path=text, title=text)
    path = tmp_path / "R5-S2" / "retry-client.yaml"
    loaded = parse_blueprint(path, dump_blueprint(original))
    assert loaded == original
    assert loaded.trap == text


def test_round_trip_preserves_everything(tmp_path):
    original = make_blueprint(
        status=Status.ACCEPTED,
        provenance=Provenance(model="openai/gpt-test", prompt_version="p2", round=4),
        reviews=[review(5, 4, 4, 4, 4, 3)],
        decisions=[HumanDecision(actor="bob", old_status="kept", new_status="accepted", reason="fine\nreally")],
        duplicate_of="older-one",
        engineering_task="Step one.\nStep two: run `{{ command }}`.\n",
    )
    path = tmp_path / "R5-S2" / "retry-client.yaml"
    text = dump_blueprint(original)
    assert parse_blueprint(path, text) == original
    assert "engineering_task: |" in text, "multi-line text is written as a block"
    assert text.index("engineering_task") < text.index("status") < text.index("reviews")


def test_fixture_files_survive_a_round_trip(tmp_path):
    for path in GOOD.rglob("*.yaml"):
        blueprint = read_blueprint(path)
        copy = tmp_path / path.relative_to(GOOD)
        write_atomically(copy, dump_blueprint(blueprint))
        assert read_blueprint(copy) == blueprint


def test_write_atomically_replaces_and_leaves_no_temporary_files(tmp_path):
    path = tmp_path / "R5-S2" / "x.yaml"
    write_atomically(path, "one\n")
    write_atomically(path, "two\n")
    assert path.read_text() == "two\n"
    assert [p.name for p in path.parent.iterdir()] == ["x.yaml"]
    assert path.stat().st_mode & 0o777 == 0o644


def test_write_atomically_keeps_the_file_mode(tmp_path):
    path = tmp_path / "x.yaml"
    path.write_text("old")
    path.chmod(0o664)
    write_atomically(path, "new")
    assert path.stat().st_mode & 0o777 == 0o664


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path):
    path = tmp_path / "x.yaml"
    path.write_text("old")
    with pytest.raises(UnicodeEncodeError):
        write_atomically(path, "bad \udcff surrogate")
    assert path.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["x.yaml"]


@pytest.mark.parametrize(
    "text, line, key",
    [
        ("id: abc-def\ntitle: one\ntrap: x\ntitle: two\n", "line 4", "title"),
        ("id: abc-def\nprovenance:\n  model: a\n  model: b\n", "line 4", "model"),
    ],
)
def test_a_key_given_twice_is_a_problem_not_a_silent_overwrite(tmp_path, text, line, key):
    path = tmp_path / "R1-S1" / "abc-def.yaml"
    with pytest.raises(BlueprintFileError) as caught:
        parse_blueprint(path, text)
    (problem,) = caught.value.problems
    assert problem.startswith(f"{path}: {line}: invalid YAML: key {key!r} appears twice")
