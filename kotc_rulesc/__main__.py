"""``python -m kotc_rulesc``: the same command line as ``kotc-rulesc``."""

from .cli import main

if __name__ == "__main__":
    main(prog_name="kotc-rulesc")
