"""Sink-side shell taint decides by where a value lands in the command lines delivered code starts: one literal word
of a shell's string (shlex.quote, single quotes, the environment) or an argument of its own is data; formatted bare,
in double quotes, after a blocklist, or split by a newline is code; a leading dash before `--` reaches git as an
option — whatever the code checked before."""

import os
import shlex
import subprocess
import sys
import textwrap

from hypothesis import given
from hypothesis import strategies as st

from authoring.judgekit.shelltaint import (
    BREAKOUT,
    OPTION,
    Sink,
    breakouts,
    exploits,
    landing,
    probes,
    send_all,
    shapes,
    shell_commands,
    shell_script,
    taint,
)
from authoring.judgekit.sqltaint import Probe, nonce

TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\0"), max_size=40)
CONTEXTS = (("", ""), ("v1.0.0^{/", "|.}"))


def breakout(mark: str, context: int = 0) -> str:
    return shapes(CONTEXTS, (BREAKOUT,))[context](mark)


def shell(line: str) -> list[str]:
    return ["/bin/sh", "-c", line]


@given(TEXT, st.sampled_from([0, 1]))
def test_a_value_shlex_quoted_into_the_line_is_data(extra, context):
    mark = nonce()
    value = breakout(mark, context) + extra.replace(mark, "")
    for line in (f"git -C /r log --format='%H' --end-of-options {shlex.quote(value + '..HEAD')} --",
                 f"git log --end-of-options {shlex.quote(value)}..{shlex.quote(value)}",
                 "git log --end-of-options \"$FROM..$TO\""):
        assert landing(shell(line), mark, 2) is None, line


@given(TEXT)
def test_an_argument_of_its_own_is_data(extra):
    mark = nonce()
    value = breakout(mark) + extra
    assert landing(["git", "-C", "/r", "log", "--end-of-options", value + "..HEAD"], mark, 2) is None
    assert landing(["sh", "-c", 'git log "$1"', "sh", value], mark, 2) is None


@given(st.sampled_from(["git log {v}..HEAD", 'git log "{v}..HEAD"', "git log '{v}'..HEAD",
                        "git rev-parse --verify {v}^{{commit}}", "git log -- {v}", 'git log "$(echo {v})"']),
       st.sampled_from([0, 1]))
def test_a_value_formatted_into_the_line_is_code_in_any_quoting(template, context):
    mark = nonce()
    assert landing(shell(template.format(v=breakout(mark, context))), mark, 2) is not None


@given(st.sampled_from([";", "&", "|", "`", "$", "<", ">", "(", ")", "'", '"', " "]))
def test_a_blocklist_that_misses_one_character_is_still_caught(kept):
    mark = nonce()
    stripped = "".join(c for c in breakout(mark) if c == kept or c.isalnum())
    line = f"git log {stripped}..HEAD"
    assert landing(shell(line), mark, 2) is not None, line
    newline_kept = "".join(c for c in breakout(mark) if c.isalnum() or c == "\n")
    assert landing(shell(f"git log {newline_kept}..HEAD"), mark, 2) is not None
    alnum_only = "".join(c for c in breakout(mark) if c.isalnum())
    assert landing(shell(f"git log --end-of-options {alnum_only}..HEAD"), mark, 2) is None


@given(st.sampled_from(["git log {v}..HEAD", "git log '{v}..HEAD' --", "git -C /r rev-parse --verify {v}"]))
def test_a_leading_dash_before_the_end_of_options_is_an_option(template):
    mark = nonce()
    value = OPTION + mark
    assert "option" in landing(shell(template.format(v=value)), mark, 1)
    assert "option" in landing(shlex.split(template.format(v=value)), mark, 1)
    safe = template.replace("git ", "git ").replace("{v}", "--end-of-options {v}", 1)
    assert landing(shlex.split(safe.format(v=value)), mark, 1) is None
    assert landing(["git", "log", "--", value], mark, 1) is None
    assert landing(["git", "log", f"--grep={value}"], mark, 1) is None


@given(st.text(max_size=120))
def test_the_shell_lexer_is_total(line):
    try:
        shell_commands(line)
    except ValueError:
        pass


def test_the_script_of_a_shell_and_not_its_arguments():
    assert shell_script(["/bin/sh", "-c", "echo $1", "x", "y"]) == "echo $1"
    assert shell_script(["bash", "-e", "-o", "pipefail", "-c", "true"]) == "true"
    assert shell_script(["bash", "-lc", "true"]) == "true"
    assert shell_script(["bash", "script.sh", "-c"]) is None
    assert shell_script(["git", "-c", "x=y"]) is None


def test_exploits_are_generated_per_target():
    made = iter(range(1000))
    values_made = exploits(lambda: f"/tmp/t{next(made)}", CONTEXTS)
    assert len(set(values_made)) == len(values_made) > 40


APP = textwrap.dedent('''
    import json, os, shlex, subprocess, sys, threading
    from http.server import BaseHTTPRequestHandler, HTTPServer, ThreadingHTTPServer
    from urllib.parse import parse_qs, urlsplit

    MODE = sys.argv[1]

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            url = urlsplit(self.path)
            q = {k: v[0] for k, v in parse_qs(url.query).items()}
            ref = q.get("from", "HEAD")
            if MODE == "refuses" and not any(c in ref for c in " $`-"):
                subprocess.run(f"true log {ref}..HEAD", shell=True)
            if MODE == "blocklist":
                ref = "".join(c for c in ref if c not in ";&|`$<>")
                subprocess.run(f"true log {ref}..HEAD", shell=True)
            elif MODE == "popen":
                os.popen(f"true '{ref}'").read()
            elif MODE == "path" and "path" in q:
                os.system(f"true log {shlex.quote(ref)} -- {q['path']}")
            elif MODE == "quoted":
                subprocess.run(f"true log --end-of-options {shlex.quote(ref)}", shell=True)
            elif MODE == "argv":
                subprocess.run(["sh", "-c", 'true "$1"', "sh", ref])
            elif MODE == "option":
                subprocess.run(["git", "--version", ref], capture_output=True)
            elif MODE == "deferred":
                threading.Timer(0.15, os.system, [f"true log {ref}..HEAD"]).start()
            elif MODE == "exploit" and q.get("x") == "1":
                os.system(f"true log {ref}..HEAD")
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"{}")

        def log_message(self, *args):
            pass

    server = (ThreadingHTTPServer if MODE == "exploit" else HTTPServer)(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()
''')


def served(mode: str, tmp_path, sink: Sink) -> tuple[subprocess.Popen, int]:
    program = tmp_path / "app.py"
    program.write_text(APP)
    launch = sink.prelude + f"\nexec(open({str(program)!r}).read())"
    server = subprocess.Popen([sys.executable, "-I", "-S", "-c", launch, mode], env=sink.env({"PATH": "/usr/bin:/bin"}),
                              stdout=subprocess.PIPE, text=True, cwd=tmp_path)  # what the injected commands write
    return server, int(server.stdout.readline())


def judged(mode: str, tmp_path) -> list[str]:
    sink = Sink(os.environ.get("PATH", "/usr/bin:/bin"))
    server, port = served(mode, tmp_path, sink)
    try:
        return taint(port, sink, ["/changelog"], ["from", "path"], honest={"from": "v1"}, contexts=CONTEXTS,
                     quiet=0.3).landed()
    finally:
        server.kill()
        server.wait()


def test_a_served_app_is_judged_by_the_commands_it_starts(tmp_path):
    assert judged("blocklist", tmp_path)
    assert judged("popen", tmp_path)
    assert any("path" in line for line in judged("path", tmp_path))
    assert judged("option", tmp_path)
    assert judged("refuses", tmp_path)
    assert judged("quoted", tmp_path) == []
    assert judged("argv", tmp_path) == []


def test_a_target_only_a_deferred_command_reveals_still_gets_its_breakouts(tmp_path):
    assert any("shell code" in line or "quoting" in line for line in judged("deferred", tmp_path))


def test_requests_sent_side_by_side_each_arrive_once_and_the_then_requests_after_the_probes(tmp_path):
    sink = Sink(os.environ.get("PATH", "/usr/bin:/bin"))
    server, port = served("exploit", tmp_path, sink)
    marks = [f"zqk{index:010x}" for index in range(40)]
    try:
        statuses = send_all(port, [Probe("x", "GET", "/changelog", query=f"from={mark}&x=1") for mark in marks])
        found = taint(port, sink, ["/changelog"], ["from"], contexts=CONTEXTS, quiet=0.3,
                      then=[Probe("then", "GET", "/changelog", query="from=zqkffffffffff&x=1")])
    finally:
        server.kill()
        server.wait()
    assert statuses == [200] * len(marks)
    started = [" ".join(argv) for argv in sink.commands()]
    assert all(sum(mark in line for line in started) == 1 for mark in marks)
    assert found.landed() == [] and "zqkffffffffff" in " ".join(started)
    assert found.commands == sink.commands()


def test_route_placeholders_carry_every_shape():
    made = probes(["/tags/<name>"], ["q"], contexts=CONTEXTS) + breakouts({("/tags/<name>", "path <name>")})
    sent = {value for probe in made for where, value in probe.sent.values() if where.startswith("path")}
    assert any(OPTION in value for value in sent) and any("^{/" in value for value in sent)
    assert any(BREAKOUT in value for value in sent) and any(value.endswith(";" + value[:13]) for value in sent)
    assert all("<name>" not in probe.path for probe in made)
