"""Mutants of delivered code, and `pairs mutate` telling a right solution from almost-right ones."""

import sqlite3

import pytest

from authoring.outcomes import Outcome
from authoring.pairs.format import SideKind, load_pair
from authoring.pairs.mutants import COMMANDS, command_mutants, file_mutants, source_mutants, spread, written_lines
from authoring.pairs.mutate import declared, delivered_file, derive_mutants, run_mutants

from .conftest import SHIPPED

BEFORE = '''def total(rows):
    return sum(row["cents"] for row in rows)
'''
AFTER = '''import hmac


def total(rows):
    return sum(row["cents"] for row in rows)


def verify(given, expected):
    if not given or len(given) > 64:
        raise ValueError("bad signature")
    return hmac.compare_digest(given, expected)


def summary(rows, limit):
    ordered = sorted(rows, key=lambda row: row["at"], reverse=True)
    return {"count": len(ordered), "share": round(len(ordered) / limit, 2), "first": ordered[0] if ordered else None}
'''


def test_only_lines_the_path_wrote_are_mutated_and_each_mutant_changes_one_thing():
    written = written_lines(BEFORE, AFTER)
    assert {4, 5}.isdisjoint(written) and {8, 9, 10} <= written
    mutants = source_mutants("/w/app.py", BEFORE, AFTER)
    operators = {m.operator for m in mutants}

    assert operators == {"drop-check", "drop-condition", "boundary", "accept-anything", "order", "rounding",
                         "drop-field"}
    assert all(m.line in written for m in mutants)
    assert len({m.source for m in mutants}) == len(mutants) == len({m.id for m in mutants})
    namespace = {}
    accepting = next(m for m in mutants if m.operator == "accept-anything")
    exec(compile(accepting.source, "app.py", "exec"), namespace)
    assert namespace["verify"]("0" * 8, "1" * 8) is True
    dropped = next(m for m in mutants if m.operator == "drop-field" and "'share'" in m.description)
    exec(compile(dropped.source, "app.py", "exec"), namespace)
    assert "share" not in namespace["summary"]([{"at": 1}], 4)


def test_a_bound_query_parameter_is_formatted_into_the_sql_and_then_injectable():
    source = ('def search(conn, q):\n'
              '    return conn.execute("SELECT note FROM repairs WHERE note LIKE \'%\' || ? || \'%\'",\n'
              '                        (q,)).fetchall()\n')
    [mutant] = [m for m in source_mutants("/w/search.py", None, source) if m.operator == "unbind"]
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE repairs (note TEXT)")
    conn.executemany("INSERT INTO repairs VALUES (?)", [("brake pads",), ("chain",)])
    namespace = {}
    exec(compile(source, "search.py", "exec"), namespace)
    assert namespace["search"](conn, "x' OR 1=1 --") == []
    exec(compile(mutant.source, "search.py", "exec"), namespace)
    assert namespace["search"](conn, "chain") == [("chain",)]
    assert len(namespace["search"](conn, "x' OR 1=1 --")) == 2


def test_a_new_file_is_mutated_whole_and_a_spread_takes_every_operator_first():
    mutants = source_mutants("/w/new.py", None, AFTER)
    chosen = spread(mutants, 7)
    assert len(chosen) == 7 and len({m.operator for m in chosen}) == 7
    assert source_mutants("/w/broken.py", None, "def (:\n") == []
    data = file_mutants("/w/readings.csv", None, "".join(f"{n},0.{n}\n" for n in range(20)))
    config = file_mutants("/w/stations.conf", None, "hollow-ford TLV-5130\nmill-lane TLV-2210\n")
    assert {m.path for m in spread(data + config, 3)} == {"/w/readings.csv", "/w/stations.conf"}


def test_tests_caches_prose_and_installed_packages_are_not_delivered():
    assert all(map(delivered_file, ("hooks/signature.py", "src/app/search.py", "bin/pull-day", "etc/app.conf",
                                    "requirements.txt")))
    assert not any(delivered_file(path) for path in ("tests/test_signature.py", "pkg/test_x.py", "a/b_test.py",
                                                      "hooks/__pycache__/x.py", ".venv/lib/site-packages/y.py",
                                                      "README.md", "docs/ops.txt", ".git/config", "x.egg-info/RECORD"))


def test_a_chained_call_a_listed_role_and_an_argument_are_each_left_out():
    source = ('EXPORT = ("id", "name", "email")\n\n\n'
              '@requires("auditor", "admin")\n'
              'def key(row):\n'
              '    return row["email"].strip().lower()\n')
    mutants = source_mutants("/w/app.py", None, source)
    described = {(m.operator, m.description) for m in mutants}
    assert {("drop-call", ".lower() is left out of the chain"), ("drop-call", ".strip() is left out of the chain"),
            ("drop-argument", "the argument 'admin' of requires(…) is left out"),
            ("drop-element", "the element 'email' is left out")} <= described
    namespace = {"requires": lambda *roles: (lambda function: function)}
    exec(compile(next(m for m in mutants if m.description.startswith(".strip()")).source, "app.py", "exec"), namespace)
    assert namespace["key"]({"email": " Jo@X.org "}) == " jo@x.org "


def test_other_text_loses_one_written_line_at_a_time_and_a_partial_fix_undoes_one_change():
    before = "#!/bin/bash\nset -e\nfetch() {\n    curl \"$URL/v2/x\"\n}\nfetch\n"
    after = ("#!/bin/bash\nset -e\nfetch() {\n    # v3\n    curl -H \"Auth: $T\" \\\n        \"$URL/v3/x\"\n"
             "    test -s out || exit 1\n}\nfetch\n")
    mutants = file_mutants("/w/bin/fetch", before, after)
    dropped = [m for m in mutants if m.operator == "drop-line"]
    assert [m.line for m in dropped] == [7]  # not the comment, nor either half of the continued command
    assert "test -s out" not in dropped[0].source
    assert not any(m.operator == "partial-fix" for m in mutants)  # one change: undoing it is no fix at all
    config_before = "# v2\n[api]\nbase = /v2\nretries = 1\n"
    config_after = "# v3\n[api]\nbase = /v3\nretries = 1\ntimeout = 30\n"
    partial = [m for m in file_mutants("/w/etc/app.conf", config_before, config_after) if m.operator == "partial-fix"]
    assert sorted(m.source for m in partial) == sorted(["# v3\n[api]\nbase = /v2\nretries = 1\ntimeout = 30\n",
                                                        "# v3\n[api]\nbase = /v3\nretries = 1\n"])  # not the comment


def test_a_path_that_delivers_no_file_is_mutated_in_the_commands_that_change_state():
    script = ("#!/bin/bash\nset -e\ncat runbook.md\ndbq \"SELECT id FROM orders WHERE email LIKE '%@load.test'\"\n"
              "dbq \"DELETE FROM orders WHERE email LIKE '%@load.test' AND created < '2026-01-02' ORDER BY id\"\n"
              "dbq \"UPDATE stock SET held = 0 WHERE sku NOT GLOB 'QA-*'\"\n")
    mutants = command_mutants(script)
    assert {m.path for m in mutants} == {COMMANDS} and {m.line for m in mutants} == {5, 6}  # not the reading lines
    changed = {(m.operator, m.source.splitlines()[m.line - 1]) for m in mutants if m.operator != "drop-line"}
    delete = """dbq "DELETE FROM orders WHERE email {} '{}' AND created {} '2026-01-02' ORDER BY id\""""
    assert changed == {
        ("drop-where", 'dbq "DELETE FROM orders ORDER BY id"'),
        ("widen-pattern", delete.format("LIKE", "%load.test", "<")),
        ("negate-pattern", delete.format("NOT LIKE", "%@load.test", "<")),
        ("boundary", delete.format("LIKE", "%@load.test", "<=")),
        ("drop-where", 'dbq "UPDATE stock SET held = 0"'),
        ("widen-pattern", """dbq "UPDATE stock SET held = 0 WHERE sku NOT GLOB 'QA*'\""""),
    }
    assert sorted(m.line for m in mutants if m.operator == "drop-line") == [5, 6]
    assert all(m.source.count("\n") == script.count("\n") for m in mutants if m.operator != "drop-line")


def test_sql_in_a_delivered_file_is_mutated_on_the_lines_the_path_wrote():
    before = "DELETE FROM sessions WHERE expires < now();\n"
    after = before + "DELETE FROM carts WHERE updated < now() - 30;\n"
    mutants = [m for m in file_mutants("/w/cleanup.sql", before, after) if m.operator != "drop-line"]
    assert {m.source.splitlines()[1] for m in mutants} == {"DELETE FROM carts;",
                                                          "DELETE FROM carts WHERE updated <= now() - 30;"}
    assert all(m.source.splitlines()[0] == before.strip() for m in mutants)


def test_a_malformed_mutants_file_is_one_clear_error(tmp_path):
    (tmp_path / "mutants.yaml").write_text('deliver: git commit -qam "fix: pull (mutant)"\n')
    with pytest.raises(ValueError, match=r"mutants.yaml: not valid YAML \(line 1\)"):
        declared(tmp_path)
    (tmp_path / "mutants.yaml").write_text("- a list\n")
    with pytest.raises(ValueError, match="expected a mapping"):
        declared(tmp_path)


@pytest.mark.docker
def test_a_signature_check_that_accepts_anything_is_killed_on_both_sides(docker_client, base_image):
    pair = load_pair(SHIPPED / "tidewater-courier-webhook-signature")
    derived = derive_mutants(docker_client, pair, base_image, limit=40)
    assert {m.change.path for m in derived} == {"/workspace/courier-hooks/hooks/signature.py"}
    mutants = [m for m in derived if m.change.operator == "accept-anything"]
    assert {m.side for m in mutants} == {SideKind.TWIN, SideKind.RISK}
    report = run_mutants(docker_client, pair, mutants, base_image)
    assert {(r.mutant.side, r.observed) for r in report.results} == {(SideKind.TWIN, Outcome.INCAPABLE),
                                                                     (SideKind.RISK, Outcome.COMPROMISED)}
    assert report.score == 1.0
