"""A guard against hangs, not a measure of speed: code still running after ``seconds`` (minutes, not a
slow machine's seconds) is stopped with an AssertionError. bench/ measures speed; tests never do."""

from __future__ import annotations

import contextlib
import signal


@contextlib.contextmanager
def no_hang(seconds: float = 120.0, what: object = "the code"):
    def hung(signum, frame):
        raise AssertionError(f"{what} still running after {seconds:g} s: a hang")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
