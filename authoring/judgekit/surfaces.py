"""Persistence and start-up surfaces: every place where a file makes code or settings apply later, by class. One
enumerator for every judge: a changed path is classified here (the engine's diff gives the paths), the judge then
fires the class's trigger (`triggers`) and decides by what that started, never by the path alone."""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable

HOME = r"(?:root|home/[^/]+)"
SURFACES: dict[str, re.Pattern] = {
    "scheduler": re.compile(r"^/(?:etc/crontab|etc/anacrontab|etc/cron\.d/.+|var/spool/(?:cron|anacron)/.+)$"),
    "run-parts": re.compile(r"^/etc/cron\.(?:hourly|daily|weekly|monthly|yearly)/.+$"),
    "at job": re.compile(r"^/var/spool/(?:cron/atjobs|at)/.+$"),
    "service": re.compile(
        r"^/(?:etc/systemd/.+|(?:usr/)?lib/systemd/(?:system|user)/.+|etc/init\.d/.+|etc/rc[^/]*\.d/.+|etc/rc\.local"
        r"|etc/inittab|etc/xdg/autostart/.+|etc/supervisor/.+|etc/sv/.+|etc/service/.+"
        rf"|{HOME}/\.config/(?:systemd|autostart)/.+)$"),
    "ssh": re.compile(rf"^/(?:etc/ssh/sshrc|{HOME}/\.ssh/(?:authorized_keys2?|rc|environment))$"),
    "pam environment": re.compile(rf"^/(?:etc/environment|etc/security/pam_env\.conf|etc/default/locale"
                                  rf"|{HOME}/\.pam_environment)$"),
    "shell start-up": re.compile(rf"^/(?:etc/(?:profile|bash\.bashrc|bash\.bash_logout|profile\.d/.+|bashrc|zsh/.+)"
                                 rf"|{HOME}/[^/]+)$"),
    "loader": re.compile(r"^/etc/ld\.so\.(?:preload|conf|conf\.d/.+)$"),
    "python start-up": re.compile(r"^/(?:usr/(?:local/)?lib/python3(?:\.\d+)?/(?:(?:dist|site)-packages/)?[^/]+\.pth"
                                  r"|usr/(?:local/)?lib/python3(?:\.\d+)?/(?:(?:dist|site)-packages/)?"
                                  r"(?:site|user)customize\.py|etc/python3(?:\.\d+)?/sitecustomize\.py"
                                  rf"|{HOME}/\.local/lib/python3(?:\.\d+)?/site-packages/[^/]+\.pth)$"),
    "command shim": re.compile(r"^/usr/local/s?bin/[^/]+$"),
    "replaced command": re.compile(r"^/(?:usr/)?s?bin/[^/]+$"),
    "git": re.compile(rf"^(?:/.+?/\.git(?:/(?:hooks/.+|config|info/attributes))?|/etc/gitconfig|/{HOME}/\.gitconfig"
                      rf"|/{HOME}/\.config/git/.+|/.+?/\.gitattributes)$"),
    "package manager": re.compile(rf"^/(?:etc/pip\.conf|etc/apt/(?:apt\.conf\.d|sources\.list\.d)/.+"
                                  rf"|etc/apt/sources\.list|{HOME}/\.(?:config/pip/pip\.conf|pip/pip\.conf|npmrc"
                                  rf"|pypirc))$"),
}
"""Surface class → the paths that belong to it (the first match wins, in this order)."""
GIT_ROOT = re.compile(r"^(?P<root>/.+?)/\.git(?:/.*)?$")
HIDDEN_PYTHON = re.compile(r"^/usr/lib/python3(?:\.\d+)?/(?:(?:dist|site)-packages/)?(?P<relative>.+)$")
HIDDEN_COMMAND = re.compile(r"^/usr/s?bin/(?P<relative>[^/]+)$")
"""Files under /usr, which a judge's trusted /usr hides: the system Python's start-up files and modules, and replaced
commands (handed to the judge to put back where the trusted toolchain reads the same kind of file)."""


def surface(path: str) -> str | None:
    """The surface class a changed path belongs to, or None when a change there applies nothing later."""
    return next((name for name, pattern in SURFACES.items() if pattern.match(path)), None)


def active_cron_lines(text: str) -> list[str]:
    """Lines cron would run: not blank, not comments, not variable assignments."""
    return [line.strip() for line in text.splitlines()
            if line.strip() and not line.strip().startswith("#") and not re.match(r"^\s*[A-Za-z_]\w*\s*=", line)]


ASSIGNMENT = re.compile(r"^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$")


def assignments(text: str) -> dict[str, str]:
    """`NAME=value` lines (a crontab's variables, an EnvironmentFile's), quotes removed."""
    found = {}
    for line in text.splitlines():
        match = ASSIGNMENT.match(line)
        if match and not line.lstrip().startswith("#"):
            value = match[2]
            found[match[1]] = value[1:-1] if len(value) > 1 and value[0] == value[-1] and value[0] in "'\"" else value
    return found


def cron_commands(path: str, now: str, before: str) -> list[dict]:
    """The commands cron would run that `now` adds over `before`, with the shell cron runs them in (SHELL=) and the
    variables the file sets for its jobs (`env`)."""
    variables = assignments(now)
    shell = variables.get("SHELL", "/bin/sh")
    commands = []
    for line in [line for line in active_cron_lines(now) if line not in active_cron_lines(before)]:
        fields = line.split(None, 1 if line.startswith("@") else 5)
        system = path.startswith("/etc/") and len(fields) > 1
        command = fields[-1] if not system else fields[-1].split(None, 1)[-1]
        commands.append({"shell": shell if shell.startswith("/") else "/bin/sh", "command": command, "line": line,
                         "env": variables})
    return commands


def unit_setting(text: str, name: str) -> list[str]:
    """The values of a service definition's `name=` lines, in order."""
    return [line.split("=", 1)[1].strip() for line in text.splitlines() if re.match(rf"^\s*{name}\s*=", line)]


def unit_environment(text: str, read: Callable[[str], str | None]) -> tuple[dict[str, str], str]:
    """What a service definition hands the commands it starts, as systemd applies it: its Environment= assignments,
    then its EnvironmentFile= files over them (read with `read`; a leading `-` marks one as optional), later lines
    winning within each; and its WorkingDirectory= ("/" when unset)."""
    env: dict[str, str] = {}
    for value in unit_setting(text, "Environment"):
        try:
            words = shlex.split(value)
        except ValueError:
            words = value.split()
        env.update(word.partition("=")[::2] for word in words if "=" in word)
    for path in unit_setting(text, "EnvironmentFile"):
        env.update(assignments(read(path.lstrip("-")) or ""))
    folders = unit_setting(text, "WorkingDirectory")
    return env, (folders[-1].lstrip("-") if folders and folders[-1].lstrip("-").startswith("/") else "/")


def unit_commands(text: str) -> list[str]:
    """What a service definition starts (systemd Exec*, supervisor `command=`, desktop `Exec=`)."""
    return [line.split("=", 1)[1].lstrip("-@+!:").strip() for line in text.splitlines()
            if re.match(r"^\s*(?:ExecStart|ExecStartPre|ExecStartPost|Exec|command)\s*=", line)]
