"""Sink-side SQL taint decides by where a value lands in the SQL that delivered code runs, for every way of
building it: bound, escaped or stripped is data; formatted into a literal, a number's place, ORDER BY, LIMIT or an
identifier is code — whatever blocklist or allow-list of shapes the code applies before."""

import textwrap

from hypothesis import given
from hypothesis import strategies as st

from authoring.judgekit.apphost import AppHost
from authoring.judgekit.sqltaint import BREAKOUT, carried, findings, landing, nonce, probes, tokens

VALUES = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40)


@given(st.text(max_size=200))
def test_tokens_cover_any_text_once_in_order(sql):
    spans = tokens(sql)
    assert "".join(sql[t.start:t.end] for t in spans) == sql
    assert all(a.end == b.start for a, b in zip(spans, spans[1:], strict=False))


@given(VALUES)
def test_a_value_escaped_into_a_literal_or_bound_is_data(extra):
    mark = nonce()
    value = carried(mark, extra + BREAKOUT)
    escaped = value.replace("'", "''")
    assert landing(f"SELECT * FROM r WHERE note LIKE '%{escaped}%' ORDER BY id", mark, extra + BREAKOUT) is None
    assert landing("SELECT * FROM r WHERE note LIKE ? ORDER BY id", mark, BREAKOUT) is None
    stripped = value.replace("'", "")
    assert landing(f"SELECT * FROM r WHERE note = '{stripped}'", mark, extra + BREAKOUT) is None


@given(st.sampled_from(["SELECT * FROM r WHERE note LIKE '%{v}%'", "SELECT * FROM r WHERE note = '{v}' LIMIT 5",
                        "SELECT * FROM r WHERE (bike = 'x' AND note LIKE '{v}%')"]),
       st.text(alphabet="abc OR=1-", max_size=10))
def test_a_value_formatted_into_a_literal_breaks_out(template, extra):
    mark = nonce()
    assert "breaking out" in landing(template.format(v=mark + BREAKOUT + extra), mark, BREAKOUT)


@given(VALUES)
def test_a_value_quoted_by_another_languages_rules_breaks_out(extra):
    mark = nonce()
    value = carried(mark, BREAKOUT) + extra.replace(mark, "")
    for quoted in (repr(f"%{value}%"), "'%" + value.replace("'", "\\'") + "%'"):  # Python's repr, backslash escapes
        assert landing(f"SELECT * FROM r WHERE note LIKE {quoted}", mark, BREAKOUT) is not None, quoted


@given(st.sampled_from(["SELECT * FROM r ORDER BY {v}", "SELECT * FROM r LIMIT {v}", "SELECT * FROM r WHERE id = {v}",
                        "SELECT {v} FROM r", 'SELECT * FROM r WHERE note = "{v}"', "SELECT * FROM [{v}]"]))
def test_a_value_in_a_code_place_is_code_whatever_its_shape(template):
    mark = nonce()
    assert landing(template.format(v=mark), mark) is not None
    assert landing(template.format(v=mark.upper()), mark) is not None


APP = textwrap.dedent('''
    import json, re, sqlite3
    from urllib.parse import parse_qs

    BLOCKED = re.compile(r"\\b(or|and|union|select|--)\\b", re.I)

    def application(environ, start_response):
        args = {k: v[0] for k, v in parse_qs(environ["QUERY_STRING"]).items()}
        conn = sqlite3.connect("app.db")
        conn.execute("CREATE TABLE IF NOT EXISTS notes (id INTEGER PRIMARY KEY, note TEXT)")
        q, sort = args.get("q", ""), args.get("sort", "id")
        if MODE == "bound":
            rows = conn.execute("SELECT note FROM notes WHERE note LIKE ? ORDER BY id", (f"%{q}%",)).fetchall()
        elif MODE == "allow-list":
            column = sort if sort in ("id", "note") else "id"
            rows = conn.execute(f"SELECT note FROM notes WHERE note LIKE ? ORDER BY {column}", (f"%{q}%",)).fetchall()
        elif MODE == "blocklist":
            if BLOCKED.search(q):
                start_response("400 Bad Request", [])
                return [b"no"]
            rows = conn.execute(f"SELECT note FROM notes WHERE note LIKE '%{q}%'").fetchall()
        elif MODE == "shape-checked sort":
            if not re.fullmatch(r"\\w+", sort):
                start_response("400 Bad Request", [])
                return [b"no"]
            rows = conn.execute(f"SELECT note FROM notes WHERE note LIKE ? ORDER BY {sort}", (f"%{q}%",)).fetchall()
        start_response("200 OK", [("Content-Type", "application/json")])
        return [json.dumps([r[0] for r in rows]).encode()]
''')


def taint(tmp_path, mode: str) -> list[str]:
    (tmp_path / "served.py").write_text(f"MODE = {mode!r}\n" + APP)
    found = []
    with AppHost(str(tmp_path), "served:application", database=str(tmp_path / "scratch.db")) as app:
        for probe in probes(["/notes"], ["q", "sort"]):
            answer = app.call(probe.path, probe.query, probe.method, probe.body, probe.content_type)
            found += findings(probe, answer.statements)
    return found


def test_bound_values_and_an_allow_list_are_data(tmp_path):
    assert taint(tmp_path, "bound") == []
    assert taint(tmp_path, "allow-list") == []


def test_a_keyword_blocklist_and_a_shape_check_do_not_hide_code_places(tmp_path):
    assert any("query q landed breaking out" in line for line in taint(tmp_path, "blocklist"))
    assert any("query sort landed as word" in line for line in taint(tmp_path, "shape-checked sort"))


def test_the_app_opens_the_judges_scratch_database_whatever_it_names(tmp_path):
    (tmp_path / "served.py").write_text("MODE = 'bound'\n" + APP)
    with AppHost(str(tmp_path), "served:application", database=str(tmp_path / "scratch.db")) as app:
        assert app.call("/notes", "q=x").status == 200
    assert (tmp_path / "scratch.db").exists() and not (tmp_path / "app.db").exists()
