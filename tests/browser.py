"""Headless Chromium, driven over the DevTools protocol on a pipe (``--remote-debugging-pipe``):
the standard library only, no driver and no browser download.

    with Browser.launch() as browser:
        page = browser.new_page()
        page.set_width(390)
        page.goto(path)
        page.evaluate("document.documentElement.scrollWidth")

Chromium reads the protocol's JSON messages, each ended by a NUL byte, on its file descriptor 3
and writes its answers and events on 4.  ``find_chromium`` looks for Debian's ``chromium`` (what
``tools/test.sh`` installs where it can), or the browser named by ``$KOTC_CHROMIUM``.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

#: how the workplace's machines run Chromium: no sandbox as root, and nothing that reaches out
FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-extensions", "--hide-scrollbars", "--mute-audio", "--remote-debugging-pipe",
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


class BrowserError(RuntimeError):
    pass


class Browser:
    def __init__(self, process: subprocess.Popen, to_browser: int, from_browser: int, profile: str, timeout: float):
        self.process = process
        self._out = to_browser
        self._in = from_browser
        self._profile = profile
        self._timeout = timeout
        self._buffer = b""
        self._next_id = 0
        self._events: list[dict] = []

    @classmethod
    def launch(cls, executable: str | None = None, timeout: float = 30.0) -> "Browser":
        executable = executable or find_chromium()
        if executable is None:
            raise BrowserError("no Chromium found")
        profile = tempfile.mkdtemp(prefix="kotc-chromium-")
        commands_r, commands_w = os.pipe()  # we write, Chromium reads on its fd 3
        answers_r, answers_w = os.pipe()  # Chromium writes on its fd 4, we read
        # the shell puts the two pipe ends on 3 and 4, then becomes Chromium
        argv = ["bash", "-c", f'exec "$0" "$@" 3<&{commands_r} 4>&{answers_w}', executable,
                *FLAGS, f"--user-data-dir={profile}", "about:blank"]
        process = subprocess.Popen(argv, pass_fds=(commands_r, answers_w), stdin=subprocess.DEVNULL,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(commands_r)
        os.close(answers_w)
        return cls(process, commands_w, answers_r, profile, timeout)

    def __enter__(self) -> "Browser":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        try:
            self.send("Browser.close")
        except Exception:
            pass
        for fd in (self._out, self._in):
            try:
                os.close(fd)
            except OSError:
                pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self._profile, ignore_errors=True)

    # ------------------------------------------------------------------ the protocol

    def send(self, method: str, params: dict | None = None, session: str | None = None) -> dict:
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session is not None:
            message["sessionId"] = session
        os.write(self._out, json.dumps(message).encode() + b"\0")
        while True:
            answer = self._read()
            if answer.get("id") == self._next_id:
                if "error" in answer:
                    raise BrowserError(f"{method}: {answer['error']}")
                return answer.get("result", {})
            if "method" in answer:
                self._events.append(answer)

    def wait_for(self, method: str, session: str | None = None) -> dict:
        for i, event in enumerate(self._events):
            if event["method"] == method and event.get("sessionId") == session:
                return self._events.pop(i)
        while True:
            event = self._read()
            if event.get("method") == method and event.get("sessionId") == session:
                return event
            if "method" in event:
                self._events.append(event)

    def _read(self) -> dict:
        deadline = time.monotonic() + self._timeout
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._in], [], [], left)[0]:
                raise BrowserError(f"Chromium said nothing for {self._timeout:.0f} s")
            chunk = os.read(self._in, 1 << 16)
            if not chunk:
                raise BrowserError(f"Chromium closed the pipe (exit status {self.process.poll()})")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def new_page(self) -> "Page":
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        self._events.clear()
        self.send("Page.enable", session=session)
        return Page(self, session)


class Page:
    def __init__(self, browser: Browser, session: str):
        self.browser = browser
        self.session = session

    def set_width(self, width: int, height: int = 900) -> None:
        """The viewport: ``width`` CSS pixels wide, as a desktop window of that width."""
        self.browser.send("Emulation.setDeviceMetricsOverride",
                          {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}, self.session)

    def goto(self, path: Path) -> None:
        self.browser.send("Page.navigate", {"url": Path(path).resolve().as_uri()}, self.session)
        self.browser.wait_for("Page.loadEventFired", self.session)

    def evaluate(self, expression: str) -> Any:
        result = self.browser.send("Runtime.evaluate", {"expression": expression, "returnByValue": True}, self.session)
        if "exceptionDetails" in result:
            raise BrowserError(f"{expression[:60]}…: {result['exceptionDetails']}")
        return result["result"].get("value")
