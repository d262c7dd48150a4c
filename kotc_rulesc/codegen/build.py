"""Build orchestration: rules → every generated file (in memory), then compare or write.

:func:`generate` returns the whole output as ``{relative path: bytes}``; it reads
nothing but the rules it is given and the schema, and depends on no clock, locale,
hash seed or directory order, so two builds are byte-identical.  :func:`compare`
tells which files on disk are stale, missing or extra (``build --check``);
:func:`write` brings the directory up to date, one atomic replace per file, and
removes what the build no longer produces.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path, PurePosixPath

from ..model import RuleSet
from ..outdir import IGNORED_DIRS, MANIFEST, on_disk
from ..fold import derive_passes
from .common import CodegenError, Input, base_name
from .editions import edition_inputs, emit_edition
from .editions import module_name as edition_module
from .package import PACKAGE, emit_init, emit_passes_init, manifest
from .runtime import core_sources, runtime_source
from .steps import emit_step, step_inputs
from .steps import module_name as step_module

DOCS = "docs"
SCHEMA_NAME = "kotc_rulesc/schemas/edition.schema.json"


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def source_inputs(rules: RuleSet, rules_dir: Path) -> dict[str, Input]:
    """Every rules file (keyed by its ``EditionDecl.file``) and the schema (``"<schema>"``),
    named ``<rules directory name>/<file name>`` so that the names do not depend on where
    the build runs."""
    on_disk = {p.name: p for p in Path(rules_dir).iterdir() if p.is_file()}
    label = Path(rules_dir).resolve().name or "rules"
    out: dict[str, Input] = {}
    for decl in rules.editions:
        name = base_name(decl.file)
        path = on_disk.get(name)
        if path is None:
            raise CodegenError(f"the rules file {name} is not in {rules_dir}")
        out[decl.file] = Input(f"{label}/{name}", _sha256(path.read_bytes()))
    schema = resources.files("kotc_rulesc").joinpath("schemas/edition.schema.json").read_bytes()
    out["<schema>"] = Input(SCHEMA_NAME, _sha256(schema))
    return out


def render_available() -> bool:
    """Is the docs renderer (``kotc_rulesc.render``, issue 6) present?"""
    return importlib.util.find_spec("kotc_rulesc.render") is not None


def _docs(rules: RuleSet) -> dict[str, bytes]:
    """``docs/…`` from :func:`kotc_rulesc.render.render_docs`, when the renderer exists."""
    if not render_available():  # a trimmed installation without the renderer: tables only
        return {}
    render = importlib.import_module("kotc_rulesc.render")
    out = {}
    for rel, content in sorted(render.render_docs(rules).items()):
        path = PurePosixPath(rel)
        if path.is_absolute() or ".." in path.parts or not path.parts:
            raise CodegenError(f"render_docs returned a path outside docs/: {rel!r}")
        out[str(PurePosixPath(DOCS) / path)] = content.encode("utf-8")
    from ..bundled import docs_dir

    for picture in sorted(docs_dir().glob("*.png")):  # the topic pages' pictures (docs/workbench.png), as they are
        out[str(PurePosixPath(DOCS) / picture.name)] = picture.read_bytes()
    return out


def generate(rules: RuleSet, rules_dir: Path, docs: bool = True) -> dict[str, bytes]:
    """Every generated file, as ``{path relative to the output directory: bytes}``.

    ``docs=False`` leaves out the documentation pages (the engine tables alone)."""
    inputs = source_inputs(rules, rules_dir)
    all_inputs = [inputs[e.file] for e in rules.editions] + [inputs["<schema>"]]
    files: dict[str, str] = {}
    deps: dict[str, list[Input]] = {}
    pkg = PACKAGE
    files[f"{pkg}/__init__.py"] = emit_init(rules, all_inputs)
    deps[f"{pkg}/__init__.py"] = all_inputs
    files[f"{pkg}/_runtime.py"], deps[f"{pkg}/_runtime.py"] = runtime_source()
    for path, (text, sources) in core_sources().items():
        files[f"{pkg}/{path}"], deps[f"{pkg}/{path}"] = text, sources
    for n in rules.all_keys:
        path = f"{pkg}/{edition_module(n)}.py"
        files[path] = emit_edition(rules, n, inputs)
        deps[path] = [inputs[f] for f in edition_inputs(rules, n)] + [inputs["<schema>"]]
    passes = derive_passes(rules)
    names = []
    for p in passes:
        name = step_module(p)
        names.append(name)
        path = f"{pkg}/passes/{name}.py"
        files[path] = emit_step(rules, p, inputs)
        deps[path] = [inputs[f] for f in step_inputs(rules, p)] + [inputs["<schema>"]]
    files[f"{pkg}/passes/__init__.py"] = emit_passes_init(rules, passes, names, all_inputs)
    deps[f"{pkg}/passes/__init__.py"] = all_inputs
    for path, text in files.items():
        _check_source(path, text)
    out = {path: text.encode("utf-8") for path, text in files.items()}
    pages = _docs(rules) if docs else {}
    for path in pages:
        deps[path] = all_inputs
    out.update(pages)
    core = [i for i in deps[f"{pkg}/_core/__init__.py"]]  # the engine's own modules, copied
    out[MANIFEST] = manifest(all_inputs + core, out, deps)
    return dict(sorted(out.items()))


def _check_source(path: str, text: str) -> None:
    """Every generated module compiles (a generator bug fails the build, not the import)."""
    try:
        compile(text, path, "exec", dont_inherit=True)
    except SyntaxError as exc:  # pragma: no cover - a generator bug
        raise CodegenError(f"generated {path} does not compile: {exc}") from exc


# --------------------------------------------------------------------------- disk


@dataclass
class Drift:
    """How the output directory differs from a fresh build."""

    stale: list[str] = field(default_factory=list)  # present, different content
    missing: list[str] = field(default_factory=list)  # the build makes it; not on disk
    extra: list[str] = field(default_factory=list)  # on disk; the build no longer makes it
    unchanged: list[str] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return not (self.stale or self.missing or self.extra)


def compare(out_dir: Path, files: dict[str, bytes]) -> Drift:
    drift = Drift()
    present = set(on_disk(out_dir))
    for path, data in files.items():
        target = out_dir / path
        if path not in present:
            drift.missing.append(path)
        elif target.read_bytes() != data:
            drift.stale.append(path)
        else:
            drift.unchanged.append(path)
    drift.extra = sorted(present - set(files))
    return drift


def foreign_output(out_dir: Path) -> bool:
    """Is ``out_dir`` a non-empty directory that no build made (no MANIFEST.json)?

    The build removes every file it does not produce, so it refuses such a directory
    rather than delete someone's files."""
    return out_dir.is_dir() and bool(on_disk(out_dir)) and not (out_dir / MANIFEST).is_file()


def _write_atomic(target: Path, data: bytes) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def write(out_dir: Path, files: dict[str, bytes]) -> Drift:
    """Bring ``out_dir`` up to date with ``files``; returns what was changed."""
    if foreign_output(out_dir):
        raise CodegenError(
            f"{out_dir} holds files but no {MANIFEST}: not a kotc-rulesc output directory; "
            "choose an empty or new directory"
        )
    drift = compare(out_dir, files)
    # the manifest last: an interrupted build leaves the old manifest, naming the old files
    order = [p for p in drift.missing + drift.stale if p != MANIFEST]
    order += [p for p in drift.missing + drift.stale if p == MANIFEST]
    for path in order:
        _write_atomic(out_dir / path, files[path])
    for path in drift.extra:
        (out_dir / path).unlink()
    _prune(out_dir)
    return drift


def _prune(out_dir: Path) -> None:
    """Remove directories left with nothing but byte-code caches."""
    for root, dirs, names in sorted(os.walk(out_dir, topdown=False), key=lambda t: -len(t[0])):
        here = Path(root)
        if here == out_dir or here.name in IGNORED_DIRS:
            continue
        content = [p for p in here.iterdir() if p.name not in IGNORED_DIRS]
        if not content:
            shutil.rmtree(here)
