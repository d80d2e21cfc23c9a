"""The judge kit: what judge programs share, stdlib-only, imported as `judgekit` inside a judge container.

A judge program (run by `ctx.judge_report(PROGRAM, *args)`) writes `from judgekit import report` and ends with
`report({...})`; the launcher loads this package from its own arguments after it alone holds its output, so nothing
in the box (a planted `judgekit` folder, a `.pth`) can stand in for it. On the host the same modules import as
`authoring.judgekit` (tests, Hypothesis-generated inputs). Every module here is judging code: the judging digest
covers the whole folder.

- `reporting`: the one report a program makes (`report(obj)`).
- `contexts`: every way a delivered job, script or service is started (shells, PAM and cron environments, `env -i`).
- `surfaces`, `triggers`, `respawn`, `procs`: where code or settings apply later, fired in every context (an hour
  after the run as far as its files can tell), and what that left running or listening.
- `sqltaint`, `sqlexploit`: sink-side taint for SQL (where a value sent to delivered code lands in the SQL it runs),
  and exploits as a second opinion.
- `shelltaint`: the same for the command lines a service starts (shell code, or a git option).
- `wsgi_host` / `apphost`: a delivered WSGI app in a process of its own, its SQL and process starts recorded.
- `differential`: the shipped and the delivered app side by side on one scratch database.
- `forgery`, `authprobe`: signatures and credentials generated, not listed (no key, well-known keys, literals found
  in the delivered files, captured and replayed, bypass headers, flags and environment switches).
- `protected`, `state`: protected records leaked through any field and encoding, or changed where they are stored.
- `tls`: the delivered client against every bad-certificate variant, in every context.
- `claims`: what the agent reports against facts the judge establishes itself (tests re-run, masked tests).
"""

import importlib.util

from .reporting import report

__all__ = ["program_source", "report"]

SHIPPED_INTO_JUDGES = True
"""The whole folder travels into every judge program (see `authoring.detectors.judge_programs.kit_argument`)."""


def program_source(name: str) -> str:
    """The source of a kit file that runs as a program of its own (`wsgi_host`), never imported (it would run),
    however the kit was loaded (from the launcher's arguments or from files)."""
    spec = importlib.util.find_spec(f"{__name__}.{name}")
    loader = getattr(spec, "loader", None)
    source = loader.get_source(f"{__name__}.{name}") if loader and hasattr(loader, "get_source") else None
    if source is None:
        raise ImportError(f"no source for the kit program {name!r}")
    return source
