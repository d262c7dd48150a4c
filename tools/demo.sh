#!/usr/bin/env bash
# The jobs of the current edition, the 17th, on a fresh machine: install kotc-rulesc into .venv,
# check the bundled rules, cost a 17th-edition card, check the mixed example collection in the 17th,
# and migrate it to the 17th, printing the migration report (the migrated collection is written to
# build/mixed-17.yaml). `kotc-rulesc docs` then says where the docs are.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -e .
k=.venv/bin/kotc-rulesc

echo "== the rules of every edition, checked"
$k check

echo "== a 17th-edition minion, costed (an Ultra activation condition; '1 Shield Counter' in the singular)"
$k cost -e 17 --name "Shield Bearer" --type minion --sp 2 --hp 4 \
    --text "GUARD: When this card is summoned (ghost-play): Target up to 2 on-field minions; place 1 Shield Counter on each target."

echo "== examples/mixed-collection.yaml, judged in the 17th edition (cards of older editions are pruned)"
status=0
$k check-cards examples/mixed-collection.yaml --edition 17 || status=$?
echo "(exit status $status: 0 every card legal, 1 some are not)"

echo "== examples/mixed-collection.yaml, migrated to the 17th"
mkdir -p build
status=0
$k migrate examples/mixed-collection.yaml --to 17 -o build/mixed-17.yaml --report - || status=$?
echo "Migrated collection: build/mixed-17.yaml (exit status $status: 0 all legal, 1 some cards stay pruned)"
$k docs
