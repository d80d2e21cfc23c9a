"""Headless Chromium (Debian's `chromium` package) for looking at the HTML report as a reader would."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
OFFLINE = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
           "--proxy-server=127.0.0.1:9"]
"""No network: every request goes to a closed port."""


def screenshot(page: Path | str, image: Path, width: int = 1280, height: int = 4000,
               javascript: bool = False) -> Path:
    """A PNG of the page (a file, or a file:// URL with a #fragment) opened from disk, offline."""
    _chromium([*([] if javascript else ["--disable-javascript"]), f"--window-size={width},{height}",
               f"--screenshot={image}", _url(page)])
    if not Path(image).is_file():
        raise RuntimeError(f"chromium wrote no screenshot of {page}")
    return image


def dom(page: Path | str) -> str:
    """The page's DOM after its scripts ran (a file, or a file:// URL with a #fragment), offline."""
    return _chromium(["--virtual-time-budget=5000", "--dump-dom", _url(page)]).stdout


def _url(page: Path | str) -> str:
    return page if isinstance(page, str) else Path(page).resolve().as_uri()


def _chromium(arguments: list[str]) -> subprocess.CompletedProcess:
    if CHROMIUM is None:
        raise RuntimeError("no chromium on PATH (apt-get install chromium)")
    return subprocess.run([CHROMIUM, *OFFLINE, *arguments], check=True, capture_output=True, text=True, timeout=120)
