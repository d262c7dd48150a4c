"""``python -m kotc_rulesc``: the same command line as ``kotc-rulesc``."""

from .cli import run

if __name__ == "__main__":
    run()
