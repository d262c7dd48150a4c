#!/usr/bin/env bash
# The main job on a fresh machine: install kotc-rulesc into .venv, check the bundled rules,
# and migrate the example collection of old cards from the 6th edition to the 11th's pre-release
# (11-pre), printing the migration report. The migrated collection is written to
# build/collection-11-pre.yaml.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -e .
.venv/bin/kotc-rulesc check
mkdir -p build
status=0
.venv/bin/kotc-rulesc migrate examples/collection.yaml --from 6 --to 11-pre \
    -o build/collection-11-pre.yaml --report - || status=$?
echo "Migrated collection: build/collection-11-pre.yaml (exit status $status: 0 all legal, 1 some cards stay banned)"
