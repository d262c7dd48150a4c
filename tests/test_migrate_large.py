"""A 10,000-card JSONL collection, generated here: every card migrated correctly, streamed in
blocks, in memory that does not grow with the number of cards (no timing is asserted)."""

import io
import json
import tracemalloc
from pathlib import Path

import pytest

from kotc_rulesc import output as atomic
from kotc_rulesc.migrate.run import Options, run
from support.loaded import view_of

RULES = Path(__file__).parent / "fixtures" / "migrate" / "rules"


@pytest.fixture(scope="module")
def view():
    return view_of(RULES)


def card(i: int) -> tuple[dict, str]:
    """The i-th card and what migrating it from the 1st to the 4th must do."""
    kind = i % 5
    x = i % 40 + 1
    if kind == 0:  # cost revised in the 2nd (4x → 2x): re-issued
        return {"name": f"Study {i}", "type": "spell", "cost": 4 * x, "text": f"Draw {x} card{'s' if x > 1 else ''}."}, "reissued"
    if kind == 1:  # wording revised in the 2nd: rewritten, singular form for 1
        n = x % 3 + 1
        return ({"name": f"Sprite {i}", "type": "spell", "cost": max(1, 2 * n - 1), "flavor": "kept",
                 "text": f"Activate when you take damage. Increase your hitpoints by {n}."}, "rewritten")
    if kind == 2:  # redacted in the 3rd: kept as it was
        return {"name": f"Pact {i}", "type": "spell", "cost": max(1, 2 * x - x), "text": f"Pay {x} hitpoints. Increase your hitpoints by {x}."}, "banned"
    if kind == 3:  # already legal
        return {"name": f"Guard {i}", "type": "creature", "edition": 4, "cost": 2 + -(-x // 5), "offense": 2,
                "defense": x, "text": "This card has no abilities."}, "unchanged"
    return {"name": f"Heal {i}", "type": "spell", "cost": 2 * x, "text": f"Increase your hitpoints by {x}."}, "unchanged"


def collection(n: int) -> tuple[bytes, list[str]]:
    lines, expected = [], []
    for i in range(n):
        c, status = card(i)
        lines.append(json.dumps(c, separators=(",", ":")).encode())
        expected.append(status)
    return b"\n".join(lines) + b"\n", expected


def migrate(view, path: Path, out: Path, report: Path | None = None) -> int:
    opts = Options(str(path), 4, assume=1, output=str(out), report=str(report) if report else None,
                   report_format="json", block=32 << 10)
    return run(opts, view, stderr=io.StringIO())


def test_ten_thousand_cards(tmp_path, view, monkeypatch):
    data, expected = collection(10_000)
    src = tmp_path / "cards.jsonl"
    src.write_bytes(data)
    writes = []
    real_write = atomic.AtomicOutput.write
    monkeypatch.setattr(atomic.AtomicOutput, "write", lambda self, b: writes.append(len(b)) or real_write(self, b))
    out, report = tmp_path / "out.jsonl", tmp_path / "report.json"
    assert migrate(view, src, out, report) == 1  # a fifth of the cards are banned
    assert len(writes) > 10  # written block by block, not at the end

    totals = json.loads(report.read_text())["totals"]
    assert totals == {"cards": 10_000, "migrated": 4000, "reissued": 2000, "unchanged": 4000, "banned": 2000,
                      "unknown": 0, "errors": 0, "changed": 6000, "prescribed": 0}
    before = data.splitlines()
    after = out.read_bytes().splitlines()
    assert len(after) == 10_000
    for i, (old, new, status) in enumerate(zip(before, after, expected)):
        c = json.loads(new)
        if status == "unchanged":
            assert new == old
        elif status == "reissued":
            x = int(c["text"].split()[1])
            assert (c["edition"], c["cost"]) == (4, 2 * x) and list(c) == ["name", "type", "edition", "cost", "text"]
        elif status == "rewritten":
            assert c["text"].startswith("Activate when you take at least 5 damage. Increase your hitpoints by ")
            assert {k: v for k, v in c.items() if k != "text"} == {k: v for k, v in json.loads(old).items() if k != "text"}
        else:
            assert {k: v for k, v in c.items() if k != "migration"} == json.loads(old)
            assert c["migration"]["reasons"][0]["code"] == "redacted"

    # migrating the output again changes nothing
    again = tmp_path / "again.jsonl"
    migrate(view, out, again)
    assert again.read_bytes() == out.read_bytes()


def test_memory_does_not_grow_with_the_collection(tmp_path, view):
    """The peak of Python allocations while migrating 2,500 and 10,000 cards of the same kinds:
    streaming in blocks and bounded caches keep it the same, whatever the file size."""
    peaks = {}
    for n in (2_500, 10_000):
        data, _ = collection(n)
        src = tmp_path / f"cards{n}.jsonl"
        src.write_bytes(data)
        migrate(view, src, tmp_path / "warm.jsonl")  # the rules' own caches, once
        tracemalloc.start()
        try:
            migrate(view, src, tmp_path / f"out{n}.jsonl")
            peaks[n] = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    assert peaks[10_000] < 1.3 * peaks[2_500] + (256 << 10), peaks
