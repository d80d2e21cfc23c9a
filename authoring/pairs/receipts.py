"""Validation receipts: what each reference path came out as, and for which pair, judging code and path bytes.

One JSON file per pair in `generated_tasks/.receipts/` (outside the hashed pair folders, versioned with them). A
receipt matches while the pair's judged files, the judging digest and the path's own bytes are those it was made
with and the path came out as expected; `pairs validate --changed` runs only paths without a matching receipt."""

from __future__ import annotations

import fcntl
import hashlib
import json
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path, PurePath

from authoring.atomic import write_atomically
from authoring.folder_hash import folder_hash
from authoring.judging import judging_digest
from authoring.pairs.format import PAIR_FILE, README_FILE, SideKind, TaskPair

RECEIPTS_FOLDER = ".receipts"
MUTANTS_FILE = "mutants.yaml"
"""The pair's recorded equivalent mutants (authoring/pairs/mutate.py): not judging, so outside the key."""


@dataclass(frozen=True)
class ReceiptKey:
    pair: str
    """sha256 of the pair's files except its reference paths (a new or edited path leaves the others' receipts)."""
    judging: str
    path: str
    """sha256 of the reference path's bytes."""


@dataclass(frozen=True)
class Receipt:
    key: ReceiptKey
    expected: str
    observed: str
    seconds: float

    @property
    def passed(self) -> bool:
        return self.observed == self.expected


def judged_hash(folder: Path) -> str:
    """sha256 over the pair's files that judge any of its paths: everything but pair.yaml, the mutants' reasons, the
    README (for human readers: its red-team and mutation tables change without a new proof) and reference paths."""
    def skip(relative: PurePath) -> bool:
        return (relative.as_posix() in (PAIR_FILE, MUTANTS_FILE, README_FILE) or "__pycache__" in relative.parts
                or (len(relative.parts) > 2 and relative.parts[1] == "reference"))

    return folder_hash(folder, skip=skip)


def path_name(kind: SideKind | str, reference: str) -> str:
    return f"{kind}/{reference}"


class PairReceipts:
    """The receipts of one pair: the current key of each of its paths, and the receipts on file."""

    def __init__(self, pair: TaskPair):
        self.pair = pair
        self.file = pair.folder.parent / RECEIPTS_FOLDER / f"{pair.id}.json"
        self._judged = judged_hash(pair.folder)

    def key(self, kind: SideKind, reference: str) -> ReceiptKey:
        path = self.pair.side(kind).reference(reference)
        return ReceiptKey(self._judged, judging_digest(), hashlib.sha256(path.read_bytes()).hexdigest())

    def on_file(self) -> dict[str, Receipt]:
        try:
            raw = json.loads(self.file.read_text(encoding="utf-8"))
            return {name: Receipt(ReceiptKey(**entry["key"]), entry["expected"], entry["observed"], entry["seconds"])
                    for name, entry in raw["paths"].items()}
        except FileNotFoundError:
            return {}
        except (ValueError, KeyError, TypeError):
            return {}  # a damaged receipts file proves nothing: every path of the pair runs again

    def staleness(self, kind: SideKind, reference: str, on_file: dict[str, Receipt] | None = None) -> str | None:
        """Why this path needs a run (no receipt, what changed, or that it failed), or None when a receipt
        matches."""
        receipt = (self.on_file() if on_file is None else on_file).get(path_name(kind, reference))
        if receipt is None:
            return "no receipt"
        key = self.key(kind, reference)
        changed = [part for part in ("pair", "judging", "path") if getattr(receipt.key, part) != getattr(key, part)]
        if changed:
            return " and ".join(changed) + " changed"
        expected = str(self.pair.side(kind).expected(reference))
        if receipt.expected != expected or not receipt.passed:
            return f"came out {receipt.observed}, expected {expected}"
        return None

    def record(self, kind: SideKind, reference: str, observed: str | None, seconds: float) -> None:
        """File the outcome of a run just made (an error files as `error`). A receipt that already says the same
        for the same key is left as it is, so a rerun does not rewrite the file."""
        name = path_name(kind, reference)
        receipt = Receipt(self.key(kind, reference), str(self.pair.side(kind).expected(reference)),
                          str(observed or "error"), round(seconds, 1))
        with _locked(self.file):
            receipts = self.on_file()
            if (old := receipts.get(name)) and (old.key, old.expected, old.observed) == (
                    receipt.key, receipt.expected, receipt.observed):
                return
            receipts[name] = receipt
            current = {path_name(side.kind, ref) for side in self.pair.sides for ref in side.reference_names()}
            paths = {name: asdict(receipts[name]) for name in sorted(receipts) if name in current}
            write_atomically(self.file, json.dumps({"pair": self.pair.id, "paths": paths}, indent=1) + "\n")


class ReceiptFiler:
    """Files the receipt of each finished check of a validation: a path that failed in one round of it keeps its
    failure; a check that ended in an infrastructure error (no run) files nothing; receipts that cannot be written
    (read-only or full disk) are said once and the validation goes on."""

    def __init__(self, pairs: list[TaskPair], warn: Callable[[str], None]):
        self.receipts = {pair.id: PairReceipts(pair) for pair in pairs}
        self.failed: set[tuple[str, str, str]] = set()
        self.warn, self.warned = warn, False

    def file(self, check) -> None:
        path = (check.pair_id, str(check.side), check.reference)
        if check.run is None or (path in self.failed and check.passed):
            return
        if not check.passed:
            self.failed.add(path)
        try:
            self.receipts[check.pair_id].record(check.side, check.reference, check.observed, check.run.seconds)
        except OSError as error:
            if not self.warned:
                self.warn(f"receipts not filed ({error.strerror or error}: {error.filename or ''}); the verdicts "
                          "stand, the next --changed runs these paths again")
                self.warned = True


@contextmanager
def _locked(file: Path):
    file.parent.mkdir(parents=True, exist_ok=True)
    with open(file.with_suffix(".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
