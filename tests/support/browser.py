"""Headless Chromium for the docs' browser test, driven by Playwright for Python (the ``playwright``
package of the test extra) on the machine's own Chromium: Debian's ``chromium`` (what
``tools/test.sh`` installs where it can), or the browser ``$KOTC_CHROMIUM`` names.  Playwright's
own browser download is never used (``executable_path``), and nothing reaches the network.

    with launch() as browser:
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.goto(path.as_uri())
"""

from __future__ import annotations

import contextlib
import os
import shutil
from typing import Iterator

#: how the workplace's machines run Chromium: no sandbox as root, and nothing that reaches out
#: (Playwright adds its own --headless and the pipe it talks on)
FLAGS = (
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-extensions", "--hide-scrollbars", "--mute-audio",
)


def find_chromium() -> str | None:
    named = os.environ.get("KOTC_CHROMIUM")
    if named:
        return named
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        found = shutil.which(name)
        if found:
            return found
    return None


def unavailable() -> str | None:
    """Why the browser test cannot run here, or ``None``."""
    if find_chromium() is None:
        return os.environ.get("KOTC_BROWSER_UNAVAILABLE") or (
            "no Chromium on this machine: `bash tools/test.sh` installs Debian's chromium where it can "
            "(as root with apt-get); or set KOTC_CHROMIUM to a Chromium or Chrome executable")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed: `bash tools/test.sh` installs the test extra (pip install -e '.[test]')"
    return None


@contextlib.contextmanager
def launch() -> Iterator:
    """A headless Chromium (Playwright's ``Browser``), closed at the end."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=find_chromium(), args=list(FLAGS), headless=True)
        try:
            yield browser
        finally:
            browser.close()
