"""The oracle validation of every shipped pair, in a process of its own so it runs alongside the rest of the test
session (it is CPU-bound; most other tests wait on harnesses and servers): `python -m tests.authoring.pairs.oracle_run
OUT WORKERS` writes (wall seconds, checks) to OUT as a pickle. The test session starts it when collection ends."""

import os
import pickle
import signal
import subprocess
import sys
import time
from pathlib import Path

SHIPPED = Path(__file__).parents[3] / "generated_tasks"


def main(out: Path, workers: int) -> None:
    from authoring.pairs.format import list_pairs, load_pair
    from authoring.pairs.validate import validate_pairs
    from authoring.sandbox.base_image import ensure_base_image
    from authoring.sandbox.daemon import connect
    from authoring.settings import prepare_agent_environment

    prepare_agent_environment()
    client = connect()
    base_image = ensure_base_image(client).tag
    pairs = [load_pair(folder) for folder in list_pairs(SHIPPED)]
    started = time.monotonic()
    checks = validate_pairs(client, pairs, base_image=base_image, workers=workers)
    writing = out.with_suffix(".writing")
    writing.write_bytes(pickle.dumps((time.monotonic() - started, checks)))
    writing.rename(out)


class OracleRun:
    """The validation process of a test session, and its result once it ended."""

    def __init__(self, folder: Path, workers: int):
        self.out, self.log, self.workers = folder / "checks.pickle", folder / "oracle-run.log", workers
        with self.log.open("wb") as log:
            self.process = subprocess.Popen([sys.executable, "-m", "tests.authoring.pairs.oracle_run", str(self.out),
                                             str(workers)], cwd=SHIPPED.parent, stdout=log, stderr=subprocess.STDOUT,
                                            env={**os.environ, "PYTHONUNBUFFERED": "1"})

    def result(self, timeout: float) -> tuple[float, list]:
        code = self.process.wait(timeout)
        if code != 0 or not self.out.exists():
            tail = self.log.read_text(errors="replace").strip()[-3000:]
            raise RuntimeError(f"the oracle validation process exited {code}:\n{tail}")
        return pickle.loads(self.out.read_bytes())

    def stop(self) -> None:
        """Ctrl-C for the validation (its runs tear down what they made), then a kill if it does not end."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(90)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


if __name__ == "__main__":
    main(Path(sys.argv[1]), int(sys.argv[2]))
