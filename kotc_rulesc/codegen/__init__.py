"""The compiler's back end: rules → ``generated/`` (the tables, the docs, the manifest).

Like zic for tzdata or makeunicodedata for CPython, :func:`generate` compiles the rules into data
the engine reads: the package ``kotc_tables`` (:mod:`.emit`: one module of literals per edition and
per step), the documents, and ``MANIFEST.json`` naming every input and output with its hash.
:func:`compare` and :func:`write` check or update an output directory.
"""

from .build import Drift, compare, generate, write
from .emit import CodegenError

__all__ = ["CodegenError", "Drift", "compare", "generate", "write"]
