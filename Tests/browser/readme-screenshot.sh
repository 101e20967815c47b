#!/usr/bin/env bash
# Regenerates the screenshots of plumscale-web (the README's, and docs/items.md's finished
# session): the browser test saves the page against plumscaled --simulate as it checks the
# heaviest card's pixels, and the session's section once 30 plums are weighed and it is stopped.
# usage: Tests/browser/readme-screenshot.sh [BIN_DIR]   (default .build/debug; build first)
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p docs/images
python3 Tests/browser/test_web.py --bin "${1:-.build/debug}" --screenshot docs/images/plumscale-web.png \
    --session-screenshot docs/images/items-session.png
