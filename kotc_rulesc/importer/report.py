"""The report of an import (``import-edition --report FILE``), as text or JSON: every change, every
uncertain match with its candidates, the decisions, and every sentence no component accounts for."""

from __future__ import annotations

import json
from typing import Any

from ..documents.guide import clean
from ..model import ordinal

__all__ = ["report", "report_json", "report_text"]


def report_json(imp, draft: str) -> dict[str, Any]:
    ch, rv = imp.changes, imp.review
    new_now = {id(c.sentence) for c in rv.changes if c.status == "new"}
    status = (lambda s: "new" if id(s) in new_now else "as before") if rv.compared else (lambda s: "not compared")
    return {
        "edition": imp.n,
        "follows": imp.n - 1,
        "draft": draft,
        "clean_slate": ch.clean_slate,
        "sources": imp.sources,
        "counts": ch.counts(),
        "new": [{"id": x.id, "kind": x.entry.kind, "text": x.entry.clean_text, "formula": x.entry.formula,
                 "ultra": x.entry.ultra, "uncertain": bool(x.candidates)} for x in ch.new],
        "reworded": [{"component": r.component.id, "old": str(r.component.text), "new": r.entry.clean_text,
                      "row": {"old": r.row.old, "new": r.row.new} if r.row else None, "into": r.into,
                      "similarity": round(r.similarity, 3)} for r in ch.reworded],
        "formulas": [{"component": r.component.id, "text": r.entry.clean_text,
                      "was": r.component.formula.notation() if r.component.formula is not None else None,
                      "now": r.entry.formula, "listed": r.listed,
                      "level": {"text": r.level[0], "edition": r.level[1]} if r.level else None} for r in ch.reformulated],
        "limits": [{"component": c.id, "was": dict(c.limits), "now": e.limits} for c, e in ch.relimited],
        "removed": [{"component": r.component.id, "text": str(r.component.text),
                     "listed": {"text": r.listed[0], "edition": r.listed[1]} if r.listed else None,
                     "candidates": [{"text": c.text, "similarity": round(c.similarity, 3)} for c in r.candidates]}
                    for r in ch.removed],
        "reinstated": [{"component": c.id, "text": e.clean_text} for c, e in ch.reinstated],
        "uncertain": [{"text": q.entry.clean_text, "kind": q.entry.kind, "drafted_as": q.id,
                       "candidates": [{"component": c.component, "text": c.text, "similarity": round(c.similarity, 3)}
                                      for c in q.candidates]} for q in ch.questions],
        "decisions": [{"topic": d.topic, "drafted": d.drafted, "quotes": list(d.quotes)} for d in imp.decisions],
        "unaccounted": [{"section": s.section, "path": list(s.path), "sentence": s.text, "status": status(s)}
                        for s in rv.prose],
        "gone": [{"section": c.sentence.section, "sentence": c.sentence.text} for c in rv.changes if c.status == "gone"],
    }


def report_text(imp, draft: str) -> str:
    data = report_json(imp, draft)
    n = imp.n
    out = [f"Import of the {ordinal(n)} edition into {draft}, against the {ordinal(n - 1)}"
           + (" (a clean slate: every text is new)" if data["clean_slate"] else ""), ""]
    out.append("Changes, by kind:")
    out += [f"  {k:<22} {v}" for k, v in data["counts"].items()]
    sections = (
        ("New components", [f"{x['id']}: ({x['formula'] or 'no formula'}) “{x['text']}”"
                            + (f" [+{x['ultra']}]" if x["ultra"] else "") + (" — UNCERTAIN, see below" if x["uncertain"] else "")
                            for x in data["new"]]),
        ("Reworded", [f"{r['component']}: “{r['old']}” → “{r['new']}”"
                      + (f" (row “{r['row']['old']}” → “{r['row']['new']}”)" if r["row"] else f" (unlisted; {r['similarity']:.2f} alike)")
                      + (f", into {r['into']}" if r["into"] else "") for r in data["reworded"]]),
        ("Formulas changed", [f"{r['component']}: {r['was']} → {r['now']}" + (" (listed: Revised Levels)" if r["listed"] else " (unlisted)")
                              for r in data["formulas"]]),
        ("Limits changed", [f"{r['component']}: {r['was']} → {r['now']}" for r in data["limits"]]),
        ("Removed", [f"{r['component']}: “{r['text']}”" + (" (listed)" if r["listed"] else " (no list names it)") for r in data["removed"]]),
        ("Reinstated", [f"{r['component']}: “{r['text']}”" for r in data["reinstated"]]),
        ("Uncertain matches (drafted as new components; the candidates and how alike they are)",
         [f"“{q['text']}” ({q['kind']}, drafted as {q['drafted_as']}):\n"
          + "\n".join(f"      {c['similarity']:.2f}  {c['component']}: “{c['text']}”" for c in q["candidates"])
          for q in data["uncertain"]]),
        ("Decisions for the maintainer", [f"[{d['topic']}] {d['drafted']}" + "".join(f"\n      {q}" for q in d["quotes"])
                                          for d in data["decisions"]]),
    )
    for title, items in sections:
        out += ["", f"{title}: {len(items) or 'none'}"]
        out += [f"  - {item}" for item in items]
    out += ["", f"Sentences of the guide no component accounts for: {len(data['unaccounted'])}"
            + ("" if imp.review.compared else " (no previous guide given: not compared)")]
    where = None
    for s in data["unaccounted"]:
        if s["section"] != where:
            where = s["section"]
            out.append(f"  {' > '.join(s['path'][1:]) or where}:")
        mark = {"new": "NEW  ", "as before": "     ", "not compared": "     "}[s["status"]]
        out.append(f"    {mark}{clean(s['sentence'])}")
    if data["gone"]:
        out += ["", f"Sentences of the {ordinal(n - 1)} guide this one no longer prints: {len(data['gone'])}"]
        out += [f"  {s['section']}: {clean(s['sentence'])}" for s in data["gone"]]
    return "\n".join(out) + "\n"


def report(imp, fmt: str, draft: str) -> str:
    if fmt == "json":
        return json.dumps(report_json(imp, draft), ensure_ascii=False, indent=2) + "\n"
    return report_text(imp, draft)
