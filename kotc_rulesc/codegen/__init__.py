"""The compiler's back end, like zic for tzdata: rules → ``generated/`` (the tables package ``kotc_tables``
(:mod:`.emit`), the docs, ``MANIFEST.json``), compared with or written to an output folder (:mod:`.build`)."""

from .build import Drift, compare, generate, write
from .emit import CodegenError

__all__ = ["CodegenError", "Drift", "compare", "generate", "write"]
