"""Headless Chromium (Debian's `chromium` package) for looking at the HTML report as a reader would."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def screenshot(page: Path, image: Path, width: int = 1280, height: int = 4000) -> Path:
    """A PNG of the page opened from disk, offline: no network, no JavaScript."""
    if CHROMIUM is None:
        raise RuntimeError("no chromium on PATH (apt-get install chromium)")
    subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    "--disable-javascript", "--no-first-run",
                    "--proxy-server=127.0.0.1:9", f"--window-size={width},{height}", f"--screenshot={image}",
                    Path(page).resolve().as_uri()], check=True, capture_output=True, timeout=120)
    if not Path(image).is_file():
        raise RuntimeError(f"chromium wrote no screenshot of {page}")
    return image
