#!/usr/bin/env bash
# Look at the rendered documents in a real browser: headless Chromium (Debian's `chromium`
# package: apt-get install -y chromium) takes PNG screenshots at a phone's and a desktop's width.
#
#   tools/screenshot.sh [--edition N] [--page edition|changelog|index] [--section ID] [--rules DIR]
#                       [--out DIR] [--height PX]
#       renders the docs of the rules (default: rules/) into a temporary directory and shoots
#       one page at 390 px (phone) and 1280 px (desktop): OUT/<page>[-ID]-phone.png and
#       OUT/<page>[-ID]-desktop.png. --section ID shows only the page header and that section of
#       main (e.g. revised-and-banned, card-cost, rulebook), to see it at full size.
#   tools/screenshot.sh FILE.html OUT.png WIDTH HEIGHT
#       shoots one HTML file.
#
# The PNGs are for looking at (they are not committed); the default OUT is build/screenshots.
# The automatic check is tests/test_docs_browser.py: every page at 390, 768, 1280 and 1920 px,
# none wider than the window (tools/test.sh installs Chromium for it where it can).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-.venv/bin/python}
BROWSER=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
if [[ -z "$BROWSER" ]]; then
    echo "screenshot.sh: no chromium found; install it with: apt-get update && apt-get install -y chromium" >&2
    exit 2
fi

shoot() {  # shoot FILE.html OUT.png WIDTH HEIGHT
    local profile
    profile=$(mktemp -d)
    "$BROWSER" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --hide-scrollbars --user-data-dir="$profile" --window-size="$3,$4" \
        --screenshot="$2" "file://$(realpath "$1")" >/dev/null 2>&1
    rm -rf "$profile"
    [[ -s "$2" ]] || { echo "screenshot.sh: chromium wrote no $2" >&2; exit 1; }
    echo "$2 (${3}x$4)"
}

if [[ $# -ge 1 && "$1" == *.html ]]; then
    [[ $# -eq 4 ]] || { echo "usage: $0 FILE.html OUT.png WIDTH HEIGHT" >&2; exit 2; }
    shoot "$1" "$2" "$3" "$4"
    exit 0
fi

edition=11 page=edition rules="" out=build/screenshots height=3200 section=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --edition) edition=$2; shift 2 ;;
        --page) page=$2; shift 2 ;;
        --rules) rules=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --height) height=$2; shift 2 ;;
        --section) section=$2; shift 2 ;;
        -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
        *) echo "screenshot.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done
docs=$(mktemp -d)
trap 'rm -rf "$docs"' EXIT
"$PY" - "$docs" "$rules" "$section" <<'PYTHON'
import sys
from pathlib import Path

from kotc_rulesc.loader import load_rules
from kotc_rulesc.render import render_docs

out, rules, section = Path(sys.argv[1]), sys.argv[2] or None, sys.argv[3]
only = f"<style>main > :not(#{section}) {{ display: none; }}</style></head>" if section else "</head>"
for rel, text in render_docs(load_rules(rules)).items():
    if rel.endswith(".html"):
        text = text.replace("</head>", only, 1)
    (out / rel).write_text(text, encoding="utf-8")
PYTHON
case "$page" in
    index) file="$docs/index.html" name=index ;;
    edition|changelog) printf -v file '%s/%s-%02d.html' "$docs" "$page" "$edition"; name="$page-$edition" ;;
    *) echo "screenshot.sh: --page is edition, changelog or index" >&2; exit 2 ;;
esac
mkdir -p "$out"
name+=${section:+-$section}
shoot "$file" "$out/$name-phone.png" 390 "$height"
shoot "$file" "$out/$name-desktop.png" 1280 "$height"
