#!/usr/bin/env bash
# Install what the tests need (into .venv, from the project's own pyproject.toml) and run them.
# Extra arguments go to pytest, e.g. `bash tools/test.sh -k fold`.
#
# The documents' browser test (tests/test_docs_browser.py) drives headless Chromium with Playwright
# (the test extra installs the playwright package; it downloads no browser): where the machine
# lacks Chromium, this installs Debian's chromium package (as root, with apt-get); where that
# cannot be done, the test is skipped and says why (KOTC_BROWSER_UNAVAILABLE). The wheel test
# (tests/test_wheel.py) builds the wheel and installs it into a fresh venv with pip.
#
# Every skipped test says why at the end of the run (pytest -rs): the tests that compare the rules
# with the game's documents need them in ../shared/sources (docs/contributing.md says how to make
# them from a clone of the game's repository: tools/fetch-sources.py).
set -euo pipefail
cd "$(dirname "$0")/.."
# The venv is made, and the project installed into it, only where that has not been done for this
# very pyproject.toml (re-making a venv reinstalls pip, and pip resolves every dependency again:
# 8 s of each run): .venv/kotc-installed holds the hash of the pyproject.toml it was installed from.
stamp=.venv/kotc-installed
wanted="$(python3 -c 'import hashlib, sys; print(hashlib.sha256(open("pyproject.toml", "rb").read()).hexdigest(), sys.version)')"
if [[ ! -x .venv/bin/python || "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]]; then
    python3 -m venv .venv
    .venv/bin/python -m pip install -q --disable-pip-version-check -e '.[test]'
    printf '%s\n' "$wanted" >"$stamp"
fi

if [[ -z "${KOTC_CHROMIUM:-}" ]] && ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1; then
    if [[ "$(id -u)" -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
        echo "test.sh: installing Chromium (Debian's chromium) for the documents' browser test" >&2
        log=$(mktemp)
        if ! { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends chromium; } >"$log" 2>&1; then
            tail -n 5 "$log" >&2
            export KOTC_BROWSER_UNAVAILABLE="apt-get could not install chromium on this machine (its last words are above the test run)"
        fi
        rm -f "$log"
    else
        export KOTC_BROWSER_UNAVAILABLE="no Chromium here, and tools/test.sh installs one only as root with apt-get: install Debian's chromium (or set KOTC_CHROMIUM to a Chromium or Chrome executable)"
    fi
fi

# The package compiled once, as pip compiles an installed one: the commands the tests start then
# read its byte code, rather than each compiling it anew where PYTHONDONTWRITEBYTECODE is set.
.venv/bin/python -m compileall -q kotc_rulesc generated >/dev/null

# The tests run on every core (pytest-xdist), each test file on one worker so that its module
# fixtures are built once; `-n 0` runs them in this process, e.g. for `--pdb` or `--snapshot-update`.
# The files go to the workers in the order collected, the slowest first (tests/conftest.py,
# SLOW_FIRST), not by how many tests each has (pytest-xdist's own order, which sent the wheel and
# fuzz files last).
.venv/bin/python -m pytest -n auto --dist loadfile --no-loadscope-reorder -rs "$@"
