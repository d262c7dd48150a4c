"""The README's and the players' guide's shown outputs, run: each ```sh block followed by a ```text block
is run as written (its first command, from the repository's root, `-o build/…` into a temporary
folder), and every paragraph the page shows must be whole lines of what the command prints (a page
may show an excerpt)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from kotc_rulesc.cli import main

ROOT = Path(__file__).resolve().parent.parent
BLOCK = re.compile(r"```(\w*)\n(.*?)```", re.S)


def _shown(page: str) -> list[tuple[str, str]]:
    blocks = list(BLOCK.finditer((ROOT / page).read_text(encoding="utf-8")))
    pairs = []
    for command, output in zip(blocks, blocks[1:]):
        if command.group(1) == "sh" and output.group(1) == "text":
            line = command.group(2).replace("\\\n", " ").splitlines()[0]
            pairs.append((line.split("  #")[0].strip(), output.group(2)))
    return pairs


EXAMPLES = [(page, *pair) for page in ("README.md", "docs/players.md") for pair in _shown(page)]


def test_the_pages_show_outputs():
    assert sum(page == "README.md" for page, *_ in EXAMPLES) == 2
    assert sum(page == "docs/players.md" for page, *_ in EXAMPLES) == 5


@pytest.mark.parametrize(("page", "command", "shown"), EXAMPLES, ids=[f"{p}:{c[:40]}" for p, c, _ in EXAMPLES])
def test_the_shown_output_is_what_the_command_prints(page, command, shown, tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    args = shlex.split(command)
    assert args[0] == "kotc-rulesc"
    args = [str(tmp_path / a.removeprefix("build/")) if a.startswith("build/") else a for a in args[1:]]
    printed = "\n" + CliRunner().invoke(main, args).stdout
    for paragraph in shown.strip("\n").split("\n\n"):
        assert "\n" + paragraph + "\n" in printed, f"{page}: {command}\n{paragraph}"


def _tried() -> list[tuple[str, str]]:
    """The commands each example collection's header comment says to try (`#   kotc-rulesc …`)."""
    found = []
    for path in sorted((ROOT / "examples").glob("*.yaml")):
        header = re.match(r"(?:#.*\n)*", path.read_text(encoding="utf-8")).group(0)
        joined = re.sub(r"\\\n#\s*", " ", header)
        found += [(path.name, c.split("  #")[0].strip()) for c in re.findall(r"^#\s+(kotc-rulesc .*)$", joined, re.M)]
    return found


@pytest.mark.parametrize(("example", "command"), _tried(), ids=[f"{e}:{c[12:50]}" for e, c in _tried()])
def test_the_commands_an_example_says_to_try_run(example, command, tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    args = [str(tmp_path / a.removeprefix("build/")) if a.startswith("build/") else a for a in shlex.split(command)[1:]]
    result = CliRunner().invoke(main, args)
    shown = f"{example}: {command}\n{result.output}"
    assert result.exit_code in (0, 1) and isinstance(result.exception, (SystemExit, type(None))), shown


def test_the_input_policys_mistyped_option_is_what_click_prints():
    page = (ROOT / "docs" / "input-policy.md").read_text(encoding="utf-8")
    quoted = re.search(r"suggestion \(`(No such option [^`]*)`\)", page)
    for command in ("check-cards", "cost"):
        result = CliRunner().invoke(main, [command, "--editon", "16"])
        assert result.exit_code == 2 and quoted.group(1) in result.output, result.output
