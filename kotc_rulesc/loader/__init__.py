"""Load ``rules/*.yaml``, every problem collected and located: each file read and checked against the
schema (:mod:`.files`: a malformed file stops here, causing no cascade), their meaning declared
(:mod:`.editions`, :mod:`.inherited`), the history replayed (:class:`kotc_rulesc.fold.Replay`); last,
on clean rules, no two texts of one edition may read alike.
"""

from __future__ import annotations

from pathlib import Path

from ..bundled import rules_dir as default_rules_dir
from ..errors import Problem, ProblemsFound
from ..fold import Replay, collisions
from ..model import EditionDecl, RuleSet
from ..rules_folder import FILE_NAME, listing
from .editions import Declarer
from .files import Reporter, edition_validator, read_file, schema_problems

__all__ = ["check_rules", "default_rules_dir", "load_rules"]


def load_rules(directory: str | Path | None = None) -> RuleSet:
    """Load and check every rules file; raises :class:`ProblemsFound` listing all problems."""
    rules, problems = check_rules(directory)
    if problems:
        raise ProblemsFound(problems)
    assert rules is not None
    return rules


def check_rules(directory: str | Path | None = None) -> tuple[RuleSet | None, list[Problem]]:
    """Load what can be loaded and return it with every problem found."""
    root = Path(directory) if directory is not None else default_rules_dir()
    # (a folder given, to --rules or to the API's Rules: its path is what to check)
    hint = "pass --rules DIR" if directory is None else "give the folder that holds the edition-NN.yaml files"
    if not root.is_dir():
        return None, [Problem(str(root), 0, 0, "no such rules directory", hint, unreadable=True)]
    try:
        paths, odd = listing(root)
    except OSError as exc:
        return None, [Problem(str(root), 0, 0, f"the rules directory cannot be listed: {exc.strerror or exc}", unreadable=True)]
    if odd:  # never opened (a FIFO would wait for a writer): named, and nothing else read
        return None, [Problem(_display(path), 0, 0, f"is {kind}, not a rules file",
                              "a rules file is a regular file; remove this one or put the edition's file in its place",
                              unreadable=True) for path, kind in odd]
    if not paths:
        return None, [Problem(str(root), 0, 0, "no rules files (edition-NN.yaml) in this directory", hint, unreadable=True)]
    validator = edition_validator()
    reporters: dict[str, Reporter] = {}
    loaded = []  # each file read and valid by the schema (a file that is not stops the load here)
    for path in paths:
        display = _display(path)
        rep = reporters[display] = Reporter(display)
        m = FILE_NAME.match(path.name)
        if not m:  # (named, not read: an editor's copy of a rules file would be a second edition)
            rep.whole(f"rules file names look like edition-NN.yaml, not {path.name!r}",
                      "rename it, or move it out of the rules folder: every .yaml file in it is a rules file")
            continue
        data = read_file(path, rep)
        if data is not None and not isinstance(data, dict):
            rep.at(data, None, "an edition file is a mapping (edition: N, …), not a " + type(data).__name__)
        elif data is not None and schema_problems(data, rep, validator):
            loaded.append((path, m, data, rep))
    if len(loaded) < len(paths):
        return None, sorted(set(p for r in reporters.values() for p in r.problems))
    declarer = Declarer()
    editions: list[EditionDecl] = []
    previous: int | None = None
    for index, (path, m, data, rep) in enumerate(loaded):
        pre = bool(data.get("pre_release"))
        if m and (int(m.group(1)) != data["edition"] or bool(m.group(2)) != pre):
            want = f"edition-{data['edition']:02d}{'-pre' if pre else ''}.yaml"
            other = f", or write edition: {int(m.group(1))}" if int(m.group(1)) != data["edition"] else ""  # (a typo either side)
            rep.at(data, "edition", f"edition: {data['edition']}{' (pre-release)' if pre else ''} but the file is named {path.name}",
                   f"rename it {want}{other}")
        editions.append(declarer.edition(rep, data, previous, index == 0))
        if not pre:
            previous = data["edition"]
    declarer.check_sources()
    problems = [p for r in reporters.values() for p in r.problems]
    rules = RuleSet(tuple(editions), declarer.sources, str(root))
    rules.history = Replay(rules)
    problems += rules.history.problems
    if problems:
        return None, sorted(set(problems))
    problems = collisions(rules)
    return (None if problems else rules), sorted(set(problems))


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except (ValueError, RuntimeError, OSError):  # (not below it; a loop of links)
        return str(path)
