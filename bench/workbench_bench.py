"""The workbench and the API (issue 29): how fast a card is judged through the server, how soon the
page is served after start, and what importing the API costs beside the one-card CLI.

* **a card judged through the server, warm: ≤ 20 ms median** — ``POST /api/judge`` on one
  keep-alive connection, as the page sends it while a card is typed (the verdict, the breakdown,
  the nearest components, what migrate makes of it in the current edition, the picture), after a
  warm-up; the cards vary as typing varies them (no text judged twice).  Beside it, the same answers made in-process
  (``Workbench.judge`` without HTTP) in the same interpreter: the ratio is what HTTP adds.
* **the page served ≤ 1 s after start** — from starting ``kotc-rulesc workbench`` to the page's
  last byte (it prints its address once it listens; the page is fetched then), beside the one-card
  ``check-cards`` start-up.
* **importing the API costs no more than the one-card CLI start-up** — ``python -c "from kotc_rulesc
  import api"`` and a script judging one card with ``api.judge``, beside ``check-cards`` on a
  one-card file (a ratio ≤ 1).

Measure an installed wheel (``--python`` names its interpreter), not the editable install::

    pip wheel . -w /tmp/w && python -m venv /tmp/v && /tmp/v/bin/pip install /tmp/w/*.whl
    python bench/workbench_bench.py --python /tmp/v/bin/python
    python bench/workbench_bench.py --runs 11 --requests 100     # quicker
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from figures import Figure, record  # noqa: E402  (bench/figures.py)

JUDGE_MS = 20.0
PAGE_SECONDS = 1.0
TEXTS = [
    "RALLY: When this card is summoned (ghost-play): Target up to {x} on-field minions; draw {y} cards.",
    "GUARD: Target up to {x} on-field minions; place {y} Shield Counters on the targets.",
    "STRIKE: Draw {x} cards.",
]
CARD = {"name": "Insight", "type": "spell", "edition": 17, "level": 2, "text": "Draw 1 card."}


def cards(n: int, first: int = 0) -> list[dict]:
    """``n`` cards as typing makes them: three designs, their numbers changing, no two texts the same
    (each judged afresh: no sentence of it read before)."""
    return [{"name": f"Card {i}", "type": "minion", "edition": 17, "sp": 2, "hp": 4 + i % 3,
             "text": TEXTS[i % len(TEXTS)].format(x=1 + i, y=2 + i)} for i in range(first, first + n)]


def start(python: str, env: dict[str, str]) -> tuple[subprocess.Popen, str, float]:
    """``kotc-rulesc workbench`` started: the process, its address, and when it was started."""
    began = time.perf_counter()
    server = subprocess.Popen([python, "-m", "kotc_rulesc", "workbench"], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    line = server.stdout.readline()
    if not line.startswith("The workbench: "):
        server.kill()
        raise SystemExit(f"the workbench did not start: {line}{server.stderr.read()}")
    return server, line.split()[2], began


def stop(server: subprocess.Popen) -> None:
    server.terminate()
    server.communicate(timeout=30)


def page_after_start(python: str, env: dict[str, str]) -> float:
    """Seconds from starting the workbench to the page's last byte."""
    server, url, began = start(python, env)
    try:
        host, port = url.split("//")[1].rstrip("/").split(":")
        conn = http.client.HTTPConnection(host, int(port), timeout=30)
        conn.request("GET", "/")
        answer = conn.getresponse()
        answer.read()
        took = time.perf_counter() - began
        conn.close()
        if answer.status != 200:
            raise SystemExit(f"the page answered {answer.status}")
        return took
    finally:
        stop(server)


def judged_through_the_server(python: str, env: dict[str, str], requests: int) -> list[float]:
    """Milliseconds per POST /api/judge, warm, on one connection."""
    server, url, _ = start(python, env)
    try:
        host, port = url.split("//")[1].rstrip("/").split(":")
        conn = http.client.HTTPConnection(host, int(port), timeout=30)
        headers = {"Content-Type": "application/json"}
        for card in cards(50, 10_000):  # warm: the tables loaded, the page's first cards judged
            conn.request("POST", "/api/judge", json.dumps({"card": card, "edition": 17}).encode(), headers)
            conn.getresponse().read()
        bodies = [json.dumps({"card": c, "edition": 17}).encode() for c in cards(requests)]
        times = []
        for body in bodies:
            t = time.perf_counter()
            conn.request("POST", "/api/judge", body, headers)
            answer = conn.getresponse()
            answer.read()
            times.append((time.perf_counter() - t) * 1000)
            if answer.status != 200:
                raise SystemExit(f"/api/judge answered {answer.status}")
        conn.close()
        return times
    finally:
        stop(server)


_IN_PROCESS = """
import json, sys, time
sys.path.insert(0, sys.argv[2])
from workbench_bench import cards
from kotc_rulesc.api import Rules
from kotc_rulesc.workbench.app import Workbench
bench = Workbench(Rules())
for card in cards(50, 10_000):
    bench.judge({"card": card, "edition": 17})
bodies = [{"card": c, "edition": 17} for c in cards(int(sys.argv[1]))]
times = []
for body in bodies:
    t = time.perf_counter()
    bench.judge(body)
    times.append((time.perf_counter() - t) * 1000)
print(json.dumps(times))
"""


def judged_in_process(python: str, env: dict[str, str], requests: int) -> list[float]:
    done = subprocess.run([python, "-c", _IN_PROCESS, str(requests), str(ROOT / "bench")], env=env,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def wall(argv: list[str], env: dict[str, str]) -> float:
    t = time.perf_counter()
    subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--python", default=sys.executable, help="the interpreter kotc-rulesc is installed in")
    parser.add_argument("--runs", type=int, default=21, help="starts of each command, interleaved (default: 21)")
    parser.add_argument("--requests", type=int, default=300, help="judgements through the server (default: 300)")
    args = parser.parse_args()
    py = args.python
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONDONTWRITEBYTECODE")}
    with tempfile.TemporaryDirectory(prefix="kotc-bench-") as tmp:
        os.chdir(tmp)  # (outside the checkout: ``-m kotc_rulesc`` finds the installed package, not this one)
        card = Path(tmp) / "card.json"
        card.write_text(json.dumps({"cards": [CARD]}))
        starts = {
            "check-cards, one card": [py, "-m", "kotc_rulesc", "check-cards", str(card)],
            "import kotc_rulesc.api": [py, "-c", "from kotc_rulesc import api"],
            "api.judge, one card": [py, "-c", f"from kotc_rulesc import api; api.judge({CARD!r})"],
        }
        times: dict[str, list[float]] = {name: [] for name in [*starts, "page after start"]}
        for argv in starts.values():  # (byte code written, caches warm)
            wall(argv, env)
        page_after_start(py, env)
        for _ in range(args.runs):
            for name, argv in starts.items():
                times[name].append(wall(argv, env))
            times["page after start"].append(page_after_start(py, env))
        served = judged_through_the_server(py, env, args.requests)
        direct = judged_in_process(py, env, args.requests)
        os.chdir(ROOT)
    median = {name: statistics.median(t) for name, t in times.items()}
    cli = median["check-cards, one card"]
    load = os.getloadavg()
    figures = [
        Figure(f"workbench: a card judged through the server, warm (median of {args.requests})",
               round(statistics.median(served), 2), "ms", "the same answers in-process (no HTTP)",
               round(statistics.median(direct), 2), f"≤ {JUDGE_MS:g} ms", statistics.median(served) <= JUDGE_MS,
               note=f"p90 {statistics.quantiles(served, n=10)[-1]:.2f} ms"),
        Figure(f"workbench: its page served after start (median of {args.runs})", round(median["page after start"], 3),
               "s", "check-cards, one card (start to exit)", round(cli, 3), f"≤ {PAGE_SECONDS:g} s",
               median["page after start"] <= PAGE_SECONDS),
        Figure(f"import kotc_rulesc.api (median of {args.runs})", round(median["import kotc_rulesc.api"] * 1000, 1), "ms",
               "check-cards, one card", round(cli * 1000, 1), "≤ 1× the one-card CLI",
               median["import kotc_rulesc.api"] <= cli),
        Figure(f"api.judge, one card, from start (median of {args.runs})", round(median["api.judge, one card"] * 1000, 1),
               "ms", "check-cards, one card", round(cli * 1000, 1), "≤ 1× the one-card CLI",
               median["api.judge, one card"] <= cli),
    ]
    record(*figures)
    print(f"the workbench and the API; {py}; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    for f in figures:
        print(f"{f.figure}: {f.value:g} {f.unit} — {f.baseline}: {f.baseline_value:g} {f.unit} ({f.ratio:.2f}×); "
              f"target {f.target}: {'met' if f.met else 'MISSED'}{'; ' + f.note if f.note else ''}")


if __name__ == "__main__":
    main()
