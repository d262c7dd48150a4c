"""The compiler's back end: rules → ``generated/`` (engine tables, migration passes, manifest).

Like zic for tzdata or makeunicodedata for CPython, :func:`generate` turns the rules
into a Python package, ``kotc_tables``, that needs nothing but the standard library:
one module per edition (``edition_NN``), one per edition step (``passes.step_NN_MM``),
a small runtime (``_runtime``), and ``MANIFEST.json`` naming the inputs and their
hashes.  :func:`compare` and :func:`write` check or update an output directory.
"""

from .build import Drift, compare, foreign_output, generate, render_available, write
from .common import FORMAT, GENERATOR, CodegenError

__all__ = [
    "FORMAT",
    "GENERATOR",
    "CodegenError",
    "Drift",
    "compare",
    "foreign_output",
    "generate",
    "render_available",
    "write",
]
