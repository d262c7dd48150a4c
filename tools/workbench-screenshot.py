#!/usr/bin/env python3
"""The docs' picture of the workbench (docs/workbench.png): a 17th-edition minion typed into the
workbench, its level and breakdown, verdict, picture and the palette, in headless Chromium.

    .venv/bin/python tools/workbench-screenshot.py            # writes docs/workbench.png
    .venv/bin/python tools/workbench-screenshot.py --out x.png --width 390

The PNG is committed and made by this script, not by `kotc-rulesc build` (whose output stays
deterministic: the build copies the PNG into the docs site as it is).  Chromium is Debian's
``chromium`` (or ``$KOTC_CHROMIUM``), driven by Playwright as the browser tests drive it
(tests/support/browser.py); nothing is downloaded.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from support.browser import launch, unavailable  # noqa: E402  (tests/support/browser.py: the same Chromium, the same flags)

CARD = {
    "name": "Field Marshal",
    "sp": "3",
    "hp": "6",
    "text": "RALLY: When this card is summoned (ghost-play): Target up to 2 on-field minions; draw 1 card.",
    "tutorial": "Ghost-play: it may be used while the card is in the grave.",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "workbench.png"), help="the PNG to write")
    parser.add_argument("--width", type=int, default=1280, help="the window's width (default: 1280)")
    parser.add_argument("--height", type=int, default=1400, help="the window's height (default: 1400)")
    args = parser.parse_args()
    why = unavailable()
    if why is not None:
        raise SystemExit(f"workbench-screenshot: {why}")

    from kotc_rulesc.api import Rules
    from kotc_rulesc.workbench.app import Workbench
    from kotc_rulesc.workbench.server import make_server, serving

    with serving(make_server(Workbench(Rules(), str(ROOT / "examples" / "mixed-collection.yaml")))) as server:
        with launch() as browser:
            page = browser.new_page(viewport={"width": args.width, "height": args.height})
            page.goto(server.url)
            page.wait_for_selector("body[data-ready=true]")
            page.fill("#card-name", CARD["name"])
            page.select_option("#card-type", "minion")
            page.fill("#card-stat-sp", CARD["sp"])
            page.fill("#card-stat-hp", CARD["hp"])
            page.fill("#card-figure", "8")
            page.fill(".ability-text", CARD["text"])
            page.fill(".ability-tutorial", CARD["tutorial"])
            page.fill("#palette-search", "draw")
            page.wait_for_function("() => document.querySelector('#figure-value').dataset.value === '8'")
            page.wait_for_function("() => document.querySelector('#picture').complete")
            page.evaluate("document.activeElement.blur(); window.scrollTo(0, 0)")
            page.screenshot(path=args.out)
    print(args.out)


if __name__ == "__main__":
    main()
