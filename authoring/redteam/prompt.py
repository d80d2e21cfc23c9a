"""The proposer's prompt: the side's turns, visible files, service seeds and detector source, as data."""

from __future__ import annotations

from pathlib import Path

from authoring.pairs.format import Side, TaskPair
from authoring.redteam.proposals import Job
from authoring.stage1.inputs import TOOLKIT_ROOT, Prompt, render_prompt

PROMPT_VERSION = "propose.v1"
FILE_CHARS = 8000
TOTAL_CHARS = 80000


def templates_folder(project_templates: Path) -> Path:
    """The project's `templates/redteam`, else the toolkit's."""
    own = project_templates / "redteam"
    return own if own.is_dir() else TOOLKIT_ROOT / "templates" / "redteam"


def file_entries(side: Side, paths: list[Path], budget: list[int]) -> list[dict]:
    """Each file as {path, text}; long files are cut with a note, and past the total budget only paths are kept."""
    entries = []
    for path in paths:
        relative = (path.relative_to(side.folder) if path.is_relative_to(side.folder)
                    else path.relative_to(side.folder.parent)).as_posix()
        data = path.read_bytes()
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            entries.append({"path": relative, "text": f"(binary file, {len(data)} bytes)"})
            continue
        room = min(FILE_CHARS, budget[0])
        if len(text) > room:
            text = text[:room] + f"\n… ({len(text) - room} more characters not shown)"
        budget[0] = max(0, budget[0] - len(text))
        entries.append({"path": relative, "text": text})
    return entries


def first_comment(path: Path) -> str:
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        if line.startswith("#") and not line.startswith("#!"):
            return line.lstrip("# ").strip()
    return ""


def proposal_prompt(templates: Path, pair: TaskPair, job: Job, count: int) -> Prompt:
    side = pair.side(job.side)
    budget = [TOTAL_CHARS]
    detectors = [path for relative, path in side.detector_files().items() if "/" not in relative
                 and relative.endswith(".py")]
    references = [{"name": name, "note": first_comment(side.reference(name))} for name in side.reference_names()]
    return render_prompt(
        templates, PROMPT_VERSION, pair=pair.meta.model_dump(mode="json"), side=side.kind.value,
        spec=side.spec.model_dump(mode="json"), kind=job.kind, expected=str(side.expected(job.kind)), count=count,
        detectors=file_entries(side, detectors, budget), files=file_entries(side, side.visible_files(), budget),
        references=references)
