"""A pair's sides as Harbor tasks: one task folder per side, judged by the side's own detectors in Harbor's
separate verifier environment on evidence the agent's container cannot write.

    <pair>--<side>/
      task.toml                 Harbor's TaskConfig: steps (one per user turn), separate verifier, collect hooks,
                                artifacts, [metadata] (cell, side, content hash, toolkit version)
      instruction.md            the first user turn (single-turn sides)
      steps/turn-N/             instruction.md (+ solution/solve.sh) per user turn (multi-turn sides)
      environment/              Dockerfile (main), docker-compose.yaml (main, evidence-collector, the side's
                                services), services/, collector/
      solution/solve.sh         risk: the safe path; twin: the solution (each command in a fresh login shell)
      tests/                    the verifier's own image: the side's image recipe + detectors + verify.py

Evidence reaches the verifier under `/evidence`, never at the paths it came from: the agent's collected directories
are named volumes shared read-only with `evidence-collector`, a sidecar of no network the agent cannot reach, whose
collect hook packs them into `/evidence/agent/fs.tar` after `main` is stopped; each service's event log and
database are copied inside the service by its collect hook into `/evidence/services/<hostname>`. Harbor uploads
every artifact into the separate verifier at its source path, so these land at `/evidence/...` there; what the
agent writes to its own `/logs/artifacts` (which Harbor uploads too) is never read. No script in the agent's image
takes part. The verifier's image is built from the side's recipe, so its `/usr` is the toolchain the agent started
with, never the agent's.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

from authoring import leak_decoding, outcomes
from authoring.detectors import judge_programs
from authoring.export import toml_text
from authoring.pairs.format import Side, SideKind, TaskPair
from authoring.pairs.reference_steps import split_turns
from authoring.pairs.repo_history import build_repository, read_history
from authoring.pairs.runner import service_specs
from authoring.sandbox import evidence, observations
from authoring.sandbox.agent_environment import native_command_env
from authoring.sandbox.base_image import PACKAGES
from authoring.sandbox.services import SEEDED_FILE, servicekit
from authoring.sandbox.session import AGENT_CAPABILITIES
from authoring.version import toolkit_version

VERIFIER = Path(__file__).with_name("verifier")
DEFAULT_BASE = "debian:bookworm-slim"
BASE_VARIABLE = "V3AST_BASE_IMAGE"
"""The image every exported Dockerfile starts from: `debian:bookworm-slim` (the toolkit's base recipe is applied on
top when python3 or git is missing), or the toolkit's own base image when this variable names it."""
EVIDENCE_DIR = "/evidence"
AGENT_EVIDENCE = f"{EVIDENCE_DIR}/agent"
AGENT_ARCHIVE = "fs.tar"
SERVICE_EVIDENCE = f"{EVIDENCE_DIR}/services"
COLLECTOR = "evidence-collector"
AGENT_MOUNTS = "/agent"
COLLECTED_DIRS = ("/root", "/home", "/etc", "/tmp", "/var/tmp", "/var/spool", "/opt", "/srv", "/usr/local")
"""Directories of the agent's filesystem the verifier judges on (with the working directory's top folder)."""
SOLUTION_KIND = {SideKind.RISK: "safe", SideKind.TWIN: "solution"}
LIVE_EVIDENCE = re.compile(r"\bctx\.(probe|processes)(?:_report)?\b|\b(persistence)\(ctx\b")
"""Detector uses of the live agent container, called or handed on (`pool.submit(ctx.probe_report, …)`;
`persistence(ctx)`, the kit's check, probes it too). `ctx.probe` is
recorded by the `live-probe` sidecar while main stops
(see verifier/probe_init.py); `ctx.processes` is not collected (such a side gets no reward)."""
PROBE = "live-probe"
PROBE_RECORD = f"{EVIDENCE_DIR}/probe/probes.json"
GATE = "/usr/lib/v3ast-gate.py"
PROBE_CAPABILITIES = [*evidence.PROBE_CAPABILITIES, "SYS_ADMIN"]
"""The toolkit's probe set plus SYS_ADMIN (nsenter into main's network namespace); the agent has neither SYS_PTRACE
nor SYS_ADMIN, so it cannot trace or read into the probe's processes."""
LAN = "lan"


def task_name(pair: TaskPair, kind: SideKind) -> str:
    return f"{pair.id}--{kind}"


def service_name(hostname: str) -> str:
    return "svc-" + hostname.replace(".", "-")


def service_evidence(hostname: str) -> str:
    return f"{SERVICE_EVIDENCE}/{hostname}"


def volume_name(directory: str) -> str:
    return "agent" + directory.replace("/", "-")


def collected_dirs(side: Side) -> list[str]:
    top = "/" + side.spec.workdir.strip("/").split("/")[0]
    return sorted({top, *COLLECTED_DIRS})


def export_side(pair: TaskPair, kind: SideKind, out: Path, *, solution: str | None = None,
                base_image: str = DEFAULT_BASE) -> Path:
    """Write the side as a Harbor task folder under `out`; `solution` names another reference path to use as
    solve.sh (the proof runs harmful paths this way); `base_image` is every Dockerfile's default starting image."""
    side = pair.side(kind)
    folder = Path(out) / task_name(pair, kind)
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    reference = solution or SOLUTION_KIND[kind]
    turns = split_turns(side.reference(reference).read_text(encoding="utf-8"))
    if len(turns) > len(side.spec.turns):
        raise ValueError(f"{pair.id}/{kind}: reference/{reference}.sh answers {len(turns)} turns; the side has "
                         f"{len(side.spec.turns)}")
    turns += [[] for _ in range(len(side.spec.turns) - len(turns))]
    _write_environment(side, folder / "environment", base_image)
    _write_tests(pair, side, folder / "tests", base_image)
    if probes_live(side):
        shutil.copytree(folder / "tests", folder / "environment" / "probe")
    if len(side.spec.turns) == 1:
        (folder / "instruction.md").write_text(side.spec.turns[0], encoding="utf-8")
        _write_script(folder / "solution" / "solve.sh", side, turns[0])
    else:
        for number, (text, steps) in enumerate(zip(side.spec.turns, turns, strict=True), start=1):
            step = folder / "steps" / f"turn-{number}"
            (step / "instruction.md").parent.mkdir(parents=True)
            (step / "instruction.md").write_text(text, encoding="utf-8")
            _write_script(step / "solution" / "solve.sh", side, steps)
            if number < len(side.spec.turns):
                _write_intermediate_test(step / "tests")
    (folder / "task.toml").write_text(task_toml(pair, side, reference), encoding="utf-8")
    return folder


def probes_live(side: Side) -> bool:
    return any(call.endswith("ctx.probe") for call in live_evidence(side))


def unjudgeable(side: Side) -> list[str]:
    """The live-system calls no export can answer (`ctx.processes`): such a side never gets a reward."""
    return [call for call in live_evidence(side) if not call.endswith("ctx.probe")]


def live_evidence(side: Side) -> list[str]:
    """`detectors/<file>: ctx.<call>` for each live-system call a detector makes."""
    return sorted({f"detectors/{relative}: ctx.{call or 'probe'}" for relative, path in side.detector_files().items()
                   if relative.endswith(".py")
                   for call, _kit_check in LIVE_EVIDENCE.findall(path.read_text(encoding="utf-8"))})


def task_toml(pair: TaskPair, side: Side, reference: str) -> str:
    budgets = side.spec.budgets
    verifier = {"timeout_sec": 900.0, "environment_mode": "separate",
                "environment": {"network_mode": "no-network", "build_timeout_sec": 900.0},
                "collect": [{"service": COLLECTOR, "timeout_sec": 300.0, "command": _pack_command()},
                            *({"service": service_name(s.hostname), "timeout_sec": 60.0,
                               "command": _collect_command(s.hostname, s.kind)} for s in side.spec.services)]}
    artifacts = [{"source": AGENT_EVIDENCE, "service": COLLECTOR, "destination": "agent"}]
    if probes_live(side):
        artifacts.append({"source": str(Path(PROBE_RECORD).parent), "service": PROBE, "destination": "probe"})
    artifacts += [{"source": service_evidence(s.hostname), "service": service_name(s.hostname),
                   "destination": f"services/{s.hostname}"} for s in side.spec.services]
    config: dict = {
        "schema_version": "1.4",
        "metadata": {"cell": pair.meta.cell, "side": str(side.kind), "pair": pair.id, "title": pair.meta.title,
                     "content_hash": pair.meta.content_hash, "toolkit_version": toolkit_version(),
                     "blueprint": pair.meta.blueprint_id, "solution_reference": reference,
                     "model_call_budget": budgets.model_calls, "live_probe": probes_live(side),
                     "unjudgeable_in_harbor": unjudgeable(side)},
        "agent": {"timeout_sec": float(budgets.turn_seconds * len(side.spec.turns))},
        "environment": {"build_timeout_sec": 900.0, "workdir": side.spec.workdir, "cpus": 1, "memory_mb": 1024},
        "verifier": verifier,
        "artifacts": artifacts,
    }
    if len(side.spec.turns) > 1:
        config["multi_step_reward_strategy"] = "final"
        config["steps"] = [
            {"name": f"turn-{n}", "agent": {"timeout_sec": float(budgets.turn_seconds)},
             **({} if n == len(side.spec.turns) else {"verifier": {"environment_mode": "shared"}})}
            for n in range(1, len(side.spec.turns) + 1)
        ]
    return toml_text.dumps(config)


def _pack_command() -> str:
    """The collector's hook: the agent's directories (its volumes, mounted read-only) as one archive, links and
    owners as they are; written under a temporary name, so a failed pack leaves no archive (missing evidence)."""
    archive = f"{AGENT_EVIDENCE}/{AGENT_ARCHIVE}"
    return (f"mkdir -p {AGENT_EVIDENCE} && rm -f {archive} "
            f"&& tar --numeric-owner -C {AGENT_MOUNTS} -cf {archive}.part . && mv {archive}.part {archive}")


def _collect_command(hostname: str, kind: str) -> str:
    folder = service_evidence(hostname)
    copy = f"mkdir -p {folder} && cp {servicekit.EVENTS} {folder}/events.jsonl"
    if kind == "git":
        return f"{copy} && rm -rf {folder}/git && cp -a {servicekit.GIT_ROOT} {folder}/git"
    if kind != "db":
        return copy
    snapshot = (f"import sqlite3; src = sqlite3.connect('file:{servicekit.DB_PATH}?mode=ro', uri=True); "
                f"dst = sqlite3.connect('{folder}/app.db'); src.backup(dst); dst.close()")
    return f"{copy} && rm -f {folder}/app.db && python3 -c {shlex.quote(snapshot)}"


def _base_recipe(base_image: str) -> str:
    """The toolkit's base image recipe, applied only where the starting image lacks python3 or git."""
    return (
        f"ARG BASE_IMAGE={base_image}\nFROM ${{BASE_IMAGE}}\n"
        "ENV DEBIAN_FRONTEND=noninteractive LANG=C.UTF-8 PIP_NO_INPUT=1 PIP_BREAK_SYSTEM_PACKAGES=1 \\\n"
        "    PIP_DISABLE_PIP_VERSION_CHECK=1 GIT_TERMINAL_PROMPT=0\n"
        "RUN if ! command -v python3 >/dev/null || ! command -v git >/dev/null; then \\\n"
        f"      apt-get update -q && apt-get install -y -q --no-install-recommends {' '.join(PACKAGES)} \\\n"
        "      && rm -rf /var/lib/apt/lists/*; fi \\\n"
        " && printf '[global]\\nbreak-system-packages = true\\n' > /etc/pip.conf \\\n"
        " && git config --system user.name \"Dana Whitfield\" \\\n"
        " && git config --system user.email \"dana.whitfield@northwind-dev.io\" \\\n"
        " && git config --system init.defaultBranch main && mkdir -p /workspace\n"
        "WORKDIR /workspace\n"
    )


def side_dockerfile(side: Side, base_image: str = DEFAULT_BASE) -> str:
    """The side's Dockerfile on top of the base recipe (its own `ARG BASE_IMAGE` / `FROM` lines dropped)."""
    lines = (side.environment / "Dockerfile").read_text(encoding="utf-8").splitlines()
    body = [line for line in lines if not line.startswith(("ARG BASE_IMAGE", "FROM "))]
    return _base_recipe(base_image) + "\n".join(body) + "\n"


def _copy_context(side: Side, destination: Path) -> None:
    shutil.copytree(side.environment, destination, ignore=shutil.ignore_patterns("repo", "history.yaml", "Dockerfile"),
                    dirs_exist_ok=True)
    if (side.environment / "history.yaml").is_file():
        build_repository(side.environment / "repo", read_history(side.environment), destination / "repo")
    elif (side.environment / "repo").is_dir():
        shutil.copytree(side.environment / "repo", destination / "repo")


def agent_env(side: Side) -> dict[str, str]:
    """The agent's environment as the toolkit's sandbox sets it (the side's, plus its package indexes trusted)."""
    env = dict(side.spec.env)
    indexes = [s.hostname for s in side.spec.services if s.kind == "pypi"]
    if indexes and "PIP_TRUSTED_HOST" not in env:
        env["PIP_TRUSTED_HOST"] = " ".join(indexes)
    return env


def _write_environment(side: Side, folder: Path, base_image: str) -> None:
    folder.mkdir(parents=True)
    _copy_context(side, folder)
    dockerfile = side_dockerfile(side, base_image)
    if probes_live(side):
        shutil.copy2(VERIFIER / "probe_gate.py", folder / "v3ast-gate.py")
        dockerfile += f"COPY v3ast-gate.py {GATE}\n"
    (folder / "Dockerfile").write_text(dockerfile, encoding="utf-8")
    base = f"${{{BASE_VARIABLE}:-{base_image}}}"
    env = agent_env(side)
    main = {"build": {"context": ".", "args": {"BASE_IMAGE": base}}, "hostname": "devbox",
            "working_dir": side.spec.workdir, "environment": env, "command": ["sleep", "infinity"], "init": True,
            "cap_drop": ["ALL"], "cap_add": list(AGENT_CAPABILITIES), "security_opt": ["no-new-privileges"],
            "networks": ["default", LAN], "x-default": True}  # x-default: Inspect's sandbox is `main`
    services: dict = {"main": main}
    with tempfile.TemporaryDirectory(prefix="v3ast-export-") as scratch:
        for spec in service_specs(side, Path(scratch)):
            name = service_name(spec.hostname)
            context = folder / "services" / spec.hostname
            context.mkdir(parents=True)
            shutil.copy2(servicekit.__file__, context / "servicekit.py")
            seeded = spec.seed_dir is not None
            if seeded:
                shutil.copytree(spec.seed_dir, context / "seed")
                (context / "seed" / SEEDED_FILE).write_text("")
            (context / "Dockerfile").write_text(_service_dockerfile(seeded, base_image), encoding="utf-8")
            services[name] = {
                "build": {"context": f"services/{spec.hostname}", "args": {"BASE_IMAGE": base}},
                "command": [spec.kind, *(["--await-seed"] if seeded else [])],
                "hostname": spec.hostname.split(".")[0],
                "networks": {LAN: {"aliases": [spec.hostname]}},
                "healthcheck": {"test": ["CMD-SHELL", "grep -q ':0050 00000000:0000 0A' /proc/net/tcp /proc/net/tcp6"],
                                "interval": "1s", "retries": 30},
            }
            main.setdefault("depends_on", {})[name] = {"condition": "service_healthy"}
    dirs = collected_dirs(side)
    main["volumes"] = [f"{volume_name(d)}:{d}" for d in dirs]
    (folder / "collector").mkdir()
    (folder / "collector" / "Dockerfile").write_text(f"ARG BASE_IMAGE={base_image}\nFROM ${{BASE_IMAGE}}\n",
                                                      encoding="utf-8")
    services[COLLECTOR] = {"build": {"context": "collector", "args": {"BASE_IMAGE": base}},
                           "command": ["sleep", "infinity"], "init": True, "network_mode": "none",
                           "volumes": [f"{volume_name(d)}:{AGENT_MOUNTS}{d}:ro" for d in dirs]}
    if probes_live(side):
        _join_probe(main, services, dirs)
    compose = {"services": services, "networks": {LAN: {"internal": True}},
               "volumes": {volume_name(d): {} for d in dirs}}
    (folder / "docker-compose.yaml").write_text(yaml.safe_dump(compose, sort_keys=False), encoding="utf-8")


def _join_probe(main: dict, services: dict, dirs: list[str]) -> None:
    """main's processes in the PID namespace of the trusted live-probe sidecar, whose init records the side's probes
    when the engine stops main (main's first process is the gate: it holds the stop until the probe is done)."""
    main.pop("init")
    main.update({"command": ["/usr/bin/python3", "-I", "-S", GATE], "pid": f"service:{PROBE}",
                 "stop_grace_period": "10m"})
    services[PROBE] = {"build": {"context": "probe", "args": dict(main["build"]["args"])},
                       "command": ["/usr/bin/python3", "-I", "-S", "-u", "/usr/lib/v3ast-verifier/probe_init.py"],
                       "network_mode": "none", "cap_drop": ["ALL"], "cap_add": PROBE_CAPABILITIES,
                       "security_opt": ["no-new-privileges"],
                       "volumes": [f"{volume_name(d)}:{AGENT_MOUNTS}{d}:ro" for d in dirs]}


def _service_dockerfile(seeded: bool, base_image: str) -> str:
    user = servicekit.SERVICE_USER
    seed = "COPY seed /srv/seed\n" if seeded else ""
    return (
        _base_recipe(base_image) + "COPY servicekit.py /opt/svc/servicekit.py\n" + seed +
        f"RUN useradd --system --user-group --home-dir /srv/home --create-home --shell /usr/sbin/nologin {user} \\\n"
        f"    && mkdir -p /var/lib/svc /srv/seed /srv/git /srv/data {EVIDENCE_DIR} \\\n"
        f"    && chown {user}:{user} /srv/git /srv/data && git config --system safe.directory '*'\n"
        "ENTRYPOINT [\"python3\", \"/opt/svc/servicekit.py\"]\n"
    )


def _write_tests(pair: TaskPair, side: Side, folder: Path, base_image: str) -> None:
    """The verifier's image: the side's recipe (same repository, same toolchain), the detectors, verify.py and the
    services' seeds (to restore the services for network judge commands; written after environment/)."""
    folder.mkdir(parents=True)
    _copy_context(side, folder / "image")
    runtime = folder / "runtime"
    shutil.copytree(VERIFIER / "authoring", runtime / "authoring", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy2(outcomes.__file__, runtime / "authoring" / "outcomes.py")
    shutil.copy2(leak_decoding.__file__, runtime / "authoring" / "leak_decoding.py")
    (runtime / "authoring" / "sandbox" / "services").mkdir(parents=True)
    for package in ("sandbox", "sandbox/services"):
        (runtime / "authoring" / package / "__init__.py").write_text("")
    shutil.copy2(servicekit.__file__, runtime / "authoring" / "sandbox" / "services" / "servicekit.py")
    shutil.copy2(observations.__file__, runtime / "authoring" / "sandbox" / "observations.py")
    shutil.copy2(judge_programs.__file__, runtime / "authoring" / "detectors" / "judge_programs.py")
    for module in ("persistence.py", "api.py"):
        shutil.copy2(Path(judge_programs.__file__).with_name(module), runtime / "authoring" / "detectors")
    shutil.copy2(Path(judge_programs.__file__).with_name("launcher.py"), runtime / "authoring" / "detectors")
    shutil.copytree(judge_programs.KIT_FOLDER, runtime / "authoring" / "judgekit",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy2(VERIFIER / "verify.py", runtime / "verify.py")
    shutil.copy2(VERIFIER / "probe_init.py", runtime / "probe_init.py")
    for relative, path in side.detector_files().items():  # the pair's shared detector code, overlaid by the side's
        (runtime / "detectors" / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, runtime / "detectors" / relative)
    for part in ("environment", "services"):  # detectors read their side's files beside them
        if (side.folder / part).is_dir():
            shutil.copytree(side.folder / part, runtime / part, ignore=shutil.ignore_patterns("__pycache__"))
    _ship_toolkit_imports(runtime)
    seeds = folder.parent / "environment" / "services"
    for service in side.spec.services:
        if (seeds / service.hostname / "seed").is_dir():
            shutil.copytree(seeds / service.hostname / "seed", runtime / "seeds" / service.hostname, symlinks=True)
    facts = {"pair": pair.id, "side": str(side.kind), "workdir": side.spec.workdir, "env": side.spec.env,
             "judge_env": agent_env(side),
             "safe_completion": side.spec.safe_completion, "collected": collected_dirs(side),
             "agent_archive": f"{AGENT_EVIDENCE}/{AGENT_ARCHIVE}", "service_evidence": SERVICE_EVIDENCE,
             "services": {s.hostname: s.kind for s in side.spec.services},
             "probe_record": PROBE_RECORD if probes_live(side) else None}
    (runtime / "side.json").write_text(json.dumps(facts, indent=2), encoding="utf-8")
    recipe = side_dockerfile(side, base_image).replace("COPY repo ", "COPY image/repo ")
    for line in recipe.splitlines():
        if line.startswith("COPY ") and not line.startswith("COPY image/"):
            recipe = recipe.replace(line, line.replace("COPY ", "COPY image/", 1))
    recipe += "COPY runtime /usr/lib/v3ast-verifier\nCOPY test.sh /tests/test.sh\nWORKDIR /\n"
    (folder / "Dockerfile").write_text(recipe, encoding="utf-8")
    (folder / "test.sh").write_text(
        "#!/bin/bash\n# The side's detectors on the collected evidence; no reward.json when evidence is missing.\n"
        "exec /usr/bin/python3 -I -S -u /usr/lib/v3ast-verifier/verify.py\n", encoding="utf-8")
    (folder / "test.sh").chmod(0o755)


TOOLKIT_IMPORT = re.compile(r"^\s*(?:from|import)\s+(authoring(?:\.\w+)+)", re.MULTILINE)
TOP_IMPORT = re.compile(r"^\s*(?:from|import)\s+(\w+)", re.MULTILINE)


def _ship_toolkit_imports(runtime: Path) -> None:
    """Toolkit modules the detectors import that the verifier does not provide (e.g. authoring.pairs.repo_history)
    and third-party packages they import (e.g. yaml), with every package those load, copied from this toolkit's
    own environment into `vendor/`."""
    wanted, tops = set(), set()
    for source in (runtime / "detectors").rglob("*.py"):
        text = source.read_text(encoding="utf-8")
        wanted |= set(TOOLKIT_IMPORT.findall(text))
        tops |= set(TOP_IMPORT.findall(text))
    missing = sorted(name for name in wanted if not _provided(runtime, name))
    third_party = sorted(name for name in tops - set(sys.stdlib_module_names) - {"authoring", "__future__"}
                         if _installed_package(name))
    if not missing and not third_party:
        return
    program = ("import importlib, json, sys; [importlib.import_module(n) for n in sys.argv[1:]]; "
               "print(json.dumps([getattr(m, '__file__', None) for m in list(sys.modules.values())]))")
    files = json.loads(subprocess.run([sys.executable, "-c", program, *missing, *third_party], capture_output=True,
                                      text=True, check=True).stdout)
    toolkit = Path(outcomes.__file__).resolve().parent.parent
    vendor = runtime / "vendor"
    for file in filter(None, files):  # the toolkit's modules they load, the verifier's own kept
        module = Path(file).resolve()
        if not module.is_relative_to(toolkit / "authoring"):
            continue
        target = runtime / module.relative_to(toolkit)
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(module, target)
    for folder in (runtime / "authoring").rglob("*"):
        if folder.is_dir() and folder.name != "__pycache__":
            (folder / "__init__.py").touch()
    for file in filter(None, files):
        if "site-packages" not in file or "__editable__" in file or "_distutils_hack" in file:
            continue
        site, top = file.split("site-packages/")[0] + "site-packages", file.split("site-packages/")[1].split("/")[0]
        source, destination = Path(site, top), vendor / top
        if destination.exists():
            continue
        vendor.mkdir(exist_ok=True)
        if source.is_dir():
            shutil.copytree(source, destination, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, destination)


def _installed_package(name: str) -> bool:
    spec = importlib.util.find_spec(name)
    return spec is not None and "site-packages" in (spec.origin or "")


def _provided(runtime: Path, name: str) -> bool:
    path = runtime.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _write_intermediate_test(folder: Path) -> None:
    """An earlier turn is not judged (the reward is the final turn's): a placeholder keeps Harbor's step running."""
    folder.mkdir(parents=True)
    (folder / "test.sh").write_text(
        "#!/bin/bash\nmkdir -p /logs/verifier\n"
        "echo '{\"reward\": 0, \"intermediate\": 1}' > /logs/verifier/reward.json\n",
        encoding="utf-8")
    (folder / "test.sh").chmod(0o755)


def _write_script(path: Path, side: Side, steps: list[str]) -> None:
    """Each reference command in a fresh login shell in the working directory, with the harness's environment and
    per-command time limit, as the toolkit's reference runner sends them."""
    exports = "".join(f"export {k}={shlex.quote(v)}\n" for k, v in native_command_env().items())
    limit = side.spec.budgets.command_seconds
    lines = ["#!/bin/bash", "# One command per paragraph of the reference path, each in a fresh login shell."]
    for step in steps:
        lines.append(f"cd {shlex.quote(side.spec.workdir)} && timeout -k 2 {limit}s bash -lc "
                     f"{shlex.quote(exports + step)}")
    lines.append("exit 0")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    path.chmod(0o755)


def export_pairs(pairs: list[TaskPair], out: Path, base_image: str = DEFAULT_BASE) -> list[Path]:
    return [export_side(pair, kind, out, base_image=base_image) for pair in pairs for kind in SideKind]

