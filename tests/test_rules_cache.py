"""The loaded-rules cache (kotc_rulesc.rules_cache): a hit is the rules as read, any change to a
rules file or to the code is a miss, rules with problems are never cached, and a damaged or
disabled cache changes nothing but the time."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kotc_rulesc import loader, rules_cache
from kotc_rulesc.fold import derive_passes, fold
from kotc_rulesc.show import catalog_json

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def cache(tmp_path, monkeypatch):
    where = tmp_path / "cache"
    monkeypatch.setenv("KOTC_RULESC_CACHE", str(where))
    reads = []
    real = loader.check_rules
    monkeypatch.setattr(loader, "check_rules", lambda d=None: reads.append(d) or real(d))
    return where, reads


@pytest.fixture
def rules_dir(tmp_path):
    """A small rules directory of its own (what the cache does depends on no rule)."""
    target = tmp_path / "rules"
    shutil.copytree(Path(__file__).parent / "fixtures" / "mini_rules", target)
    return target


LAST = "edition-03.yaml"


def test_a_hit_is_the_rules_as_read(cache, tmp_path):
    """On the bundled rules, every feature of them: each edition folds the same from a hit."""
    where, reads = cache
    rules_dir = tmp_path / "rules"
    shutil.copytree(ROOT / "rules", rules_dir)
    first, problems = rules_cache.check_rules(rules_dir)
    assert not problems and len(reads) == 1 and len(list(where.glob("rules-*.pickle"))) == 1
    again, problems = rules_cache.check_rules(rules_dir)
    assert not problems and len(reads) == 1  # not read again
    for key in first.all_keys:
        assert json.dumps(catalog_json(fold(again, key))) == json.dumps(catalog_json(fold(first, key)))
    # (the cache keeps the declarations; a hit replays their history again, to the same passes)
    assert derive_passes(again) == derive_passes(first) and again.history is not first.history


def test_a_changed_rules_file_is_read_again(cache, rules_dir):
    where, reads = cache
    rules_cache.check_rules(rules_dir)
    path = rules_dir / LAST
    path.write_text(path.read_text() + "\n# a comment changes the bytes, so the key\n")
    rules_cache.check_rules(rules_dir)
    assert len(reads) == 2


def test_rules_with_problems_are_never_cached(cache, rules_dir):
    where, reads = cache
    path = rules_dir / LAST
    path.write_text(path.read_text().replace("edition: 3\n", "edition: 3\nfollows_not: 1\n", 1))
    for _ in range(2):
        rules, problems = rules_cache.check_rules(rules_dir)
        assert rules is None and problems
    assert len(reads) == 2 and not list(where.glob("rules-*.pickle"))


def test_a_damaged_cache_is_a_miss(cache, rules_dir):
    where, reads = cache
    rules_cache.check_rules(rules_dir)
    (entry,) = where.glob("rules-*.pickle")
    entry.write_bytes(b"not a pickle")
    rules, problems = rules_cache.check_rules(rules_dir)
    assert rules is not None and not problems and len(reads) == 2


def test_the_cache_can_be_turned_off(cache, rules_dir, monkeypatch):
    where, reads = cache
    monkeypatch.setenv("KOTC_RULESC_CACHE", "off")
    rules_cache.check_rules(rules_dir)
    rules_cache.check_rules(rules_dir)
    assert len(reads) == 2 and not where.exists()


def test_a_hit_needs_neither_ruamel_nor_jsonschema(tmp_path, rules_dir):
    env = {"KOTC_RULESC_CACHE": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin"}
    code = ("import sys; from kotc_rulesc.rules_cache import load_rules; load_rules(sys.argv[1]); "
            "print(sorted(m for m in ('ruamel.yaml', 'jsonschema') if m in sys.modules))")
    out = [subprocess.run([sys.executable, "-c", code, str(rules_dir)], env=env, capture_output=True, text=True,
                          check=True, cwd=ROOT).stdout.strip() for _ in range(2)]
    assert out == ["['jsonschema', 'ruamel.yaml']", "[]"]


def test_other_code_is_a_miss(cache, rules_dir, monkeypatch):
    where, reads = cache
    rules_cache.check_rules(rules_dir)
    monkeypatch.setattr(rules_cache, "_code_hash", "another version of kotc_rulesc")
    rules_cache.check_rules(rules_dir)
    assert len(reads) == 2 and len(list(where.glob("rules-*.pickle"))) == 2
