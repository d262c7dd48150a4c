#!/usr/bin/env bash
# Install what the tests need (into .venv, from the project's own pyproject.toml) and run them.
# Extra arguments go to pytest, e.g. `bash tools/test.sh -k fold`.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[test]'
.venv/bin/python -m pytest "$@"
