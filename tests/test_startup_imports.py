"""What the latency-critical commands import (issue 16; ``bench/startup.py`` times them).

A non-timed check: ``check-cards`` and ``cost`` on one card read the compiled tables and need
no YAML, schema, template or diff library, no other command's module, not the replay that folds
the rules, and no class whose methods ``@dataclass`` would generate at import (the core's value
classes are plain ``__slots__`` classes, :class:`kotc_rulesc.value.Value`); ``check``, ``show`` and ``diff`` on rules whose
compiled tables are up to date read no rules file.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: never imported on these paths
HEAVY = ("ruamel", "jsonschema", "jinja2", "difflib", "tempfile", "orjson", "kotc_rulesc.loader", "kotc_rulesc.codegen",
         "kotc_rulesc.render")
#: the replay that folds the rules' history: the compiled tables need none of it (they hold the values of
#: the kinds of history event, kotc_rulesc.history, but nothing replays them)
REPLAY = {"kotc_rulesc.fold", "kotc_rulesc.view"}

_PROBE = """
import json, sys
from kotc_rulesc.cli import main
try:
    main(sys.argv[1:])
except SystemExit as exc:
    code = exc.code
heavy = sorted({m for m in sys.modules for h in %r if m == h or m.startswith(h + ".")})
commands = sorted(m for m in sys.modules if m.startswith("kotc_rulesc.commands.") and not m.endswith("_arg"))
dataclasses = sorted(f"{m.__name__}.{name}" for m in list(sys.modules.values())
                     if getattr(m, "__name__", "").startswith(("kotc_rulesc", "kotc_tables"))
                     for name, value in vars(m).items()
                     if isinstance(value, type) and value.__module__ == m.__name__ and hasattr(value, "__dataclass_fields__"))
ours = sorted(m for m in sys.modules if m.startswith("kotc_rulesc."))
print(json.dumps({"code": code, "heavy": heavy, "commands": commands, "dataclasses": dataclasses, "ours": ours}))
""" % (HEAVY,)


def _imports(*args: str, env: dict | None = None) -> dict:
    done = subprocess.run([sys.executable, "-c", _PROBE, *args], capture_output=True, text=True, env=env)
    assert done.stdout, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def card(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("card") / "card.json"
    path.write_text(json.dumps({"cards": [{"name": "Insight", "type": "spell", "edition": 17, "text": "Draw 2 cards."}]}))
    return str(path)


@pytest.mark.parametrize("command", ["check-cards", "cost"])
def test_one_card_imports_only_what_judging_it_needs(command, card):
    seen = _imports(command, "--edition", "17", card)
    assert seen["code"] in (0, 1)
    assert seen["heavy"] == []
    assert seen["commands"] == ["kotc_rulesc.commands.card_commands"]
    assert REPLAY.isdisjoint(seen["ours"]) and "kotc_rulesc.catalog" in seen["ours"]
    assert seen["dataclasses"] == []


@pytest.mark.parametrize("args", [["check"], ["show", "-e", "17"], ["diff", "9", "11-pre"], ["editions"]])
def test_unchanged_rules_are_read_from_their_tables(args, tmp_path):
    """rules/ beside an up-to-date generated/ is served by the tables; a copy without its tables,
    or with tables of other rules, is read from the YAML."""
    import shutil

    seen = _imports(*args, "--rules", str(ROOT / "rules"))
    assert seen["code"] == 0
    assert [m for m in seen["heavy"] if m != "difflib"] == []  # (show and diff word-diff the wordings)
    copy = tmp_path / "rules"
    shutil.copytree(ROOT / "rules", copy)
    seen = _imports(*args, "--rules", str(copy))
    assert seen["code"] == 0 and "kotc_rulesc.loader" in seen["heavy"]
    shutil.copytree(ROOT / "generated", tmp_path / "generated")
    assert [m for m in _imports(*args, "--rules", str(copy))["heavy"] if m != "difflib"] == []
    (copy / "edition-17.yaml").write_bytes((copy / "edition-17.yaml").read_bytes() + b"\n# changed\n")
    assert "kotc_rulesc.loader" in _imports(*args, "--rules", str(copy))["heavy"]


def test_the_engine_reads_the_tables_with_the_standard_library_alone():
    """A program that wants the engine imports kotc_rulesc: every catalog and pass of the tables
    loads with the standard library alone, and without the replay that folds the YAML."""
    code = (
        "import json, sys\n"
        "from kotc_rulesc.tables import TablesView\n"
        "view = TablesView()\n"
        "catalogs = [view.catalog(key) for key in view.keys]\n"
        "passes = view.passes()\n"
        "print(json.dumps({'modules': sorted(sys.modules), 'passes': len(passes)}))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    seen = json.loads(done.stdout.strip().splitlines()[-1]) if done.stdout else done.stderr
    assert seen["passes"] > 0
    others = {m.split(".")[0] for m in seen["modules"]} - set(sys.stdlib_module_names)
    others -= {"__main__", "kotc_rulesc", "kotc_tables", "_distutils_hack"}  # (and the editable install's finder)
    assert all(m.startswith("__editable__") for m in others), others
    assert REPLAY.isdisjoint(seen["modules"])


def test_the_program_freezes_what_start_up_loaded_and_main_alone_does_not():
    """cli.run (the console script, python -m kotc_rulesc) moves the objects loaded before the
    command out of the cyclic collector's way; main, as tests and library users call it, does not."""
    code = (
        "import gc, sys\n"
        "from kotc_rulesc.cli import main, run\n"
        "sys.argv = ['kotc-rulesc', '--version']\n"
        "for entry in (lambda: main(['--version']), run):\n"
        "    try:\n"
        "        entry()\n"
        "    except SystemExit:\n"
        "        pass\n"
        "    print(gc.get_freeze_count(), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    after_main, after_run = map(int, done.stderr.split())
    assert after_main == 0 and after_run > 1000
