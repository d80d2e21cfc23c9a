"""`v3ast records view`: write the run viewer, and with `--serve` serve it on 127.0.0.1 (where triage notes can be
saved to `triage.yaml` as well as in the browser)."""

from __future__ import annotations

import json
import shlex
import threading
import time
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Annotated

import typer
import yaml

from authoring.atomic import write_atomically
from authoring.errors import NotFound
from calibration.records_cli import warn
from calibration.viewer import write_viewer
from calibration.viewer_index import find_runs

VIEWER_FOLDER = "viewer"
TRIAGE_FILE = "triage.yaml"


def view(sources: Annotated[list[str] | None, typer.Argument(
            help="Batches under runs/, or record folders and files (default: every batch under runs/).")] = None,
         out: Annotated[Path | None, typer.Option("--out", help="The viewer's folder (default: runs/viewer).")] = None,
         serve: Annotated[bool, typer.Option("--serve", help="Then serve it on 127.0.0.1 until Ctrl-C.")] = False,
         port: Annotated[int, typer.Option("--port", min=0, max=65535, help="Port of --serve (0: any free one).")]
         = 8765) -> None:
    """Write a static run viewer (no server, no network: open index.html from disk): an index of every run with
    filters and sort, a page per run (conversation, commands, verdicts and why the outcome follows, budgets), and a
    page per pair with risk and twin side by side and triage notes for pairs that missed calibration."""
    from authoring.project import Project

    runs_root = Project.current().runs
    found = find_runs(list(sources or []), runs_root)
    warn(found.problems)
    if not found.sources:
        raise NotFound(f"no run records in {', '.join(sources) if sources else runs_root}")
    folder = out or runs_root / VIEWER_FOLDER
    started = time.monotonic()
    written = write_viewer(found, folder, title="Run records — " + (", ".join(sources) if sources else "every batch"))
    print(f"viewer: {folder / 'index.html'} ({written.runs} run(s), {written.rendered} page(s) rendered, "
          f"{time.monotonic() - started:.1f} s)")
    if serve:
        server = viewer_server(folder, port)
        print(f"serving http://127.0.0.1:{server.server_address[1]}/index.html (Ctrl-C stops)")
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            server.server_close()


def viewer_server(folder: Path, port: int = 0) -> ThreadingHTTPServer:
    """The viewer's folder over HTTP on 127.0.0.1, taking POST /triage {batch, pair, note} into triage.yaml."""
    lock = threading.Lock()

    class Handler(SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

        def do_POST(self) -> None:
            if self.path.rstrip("/") != "/triage":
                return self.send_error(404)
            try:
                note = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
                batch, pair, text = str(note["batch"]), str(note["pair"]), str(note["note"])
            except (ValueError, KeyError, TypeError):
                return self.send_error(400, "expected JSON {batch, pair, note}")
            with lock:
                save_note(Path(folder) / TRIAGE_FILE, batch, pair, text)
            self.send_response(204)
            self.end_headers()

    return ThreadingHTTPServer(("127.0.0.1", port), partial(Handler, directory=str(folder)))


def save_note(path: Path, batch: str, pair: str, note: str) -> None:
    """One note per batch and pair; an empty note removes it. Each entry says the admit command it is for."""
    notes = (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get("notes", []) if path.is_file() else []
    notes = [n for n in notes if (n.get("batch"), n.get("pair")) != (batch, pair)]
    if note.strip():
        notes.append({"batch": batch, "pair": pair, "note": note.strip(),
                      "admit": shlex.join(["v3ast", "calibration", "admit", pair, "--batch", batch, "--justify",
                                            note.strip()])})
    write_atomically(path, yaml.safe_dump({"notes": sorted(notes, key=lambda n: (n["batch"], n["pair"]))},
                                          sort_keys=False, allow_unicode=True))
