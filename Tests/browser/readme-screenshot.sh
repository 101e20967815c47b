#!/usr/bin/env bash
# Regenerates the README's screenshot of plumscale-web: the browser test against
# plumscaled --simulate saves the page as it checks the heaviest card's pixels.
# usage: Tests/browser/readme-screenshot.sh [BIN_DIR]   (default .build/debug; build first)
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p docs/images
python3 Tests/browser/test_web.py --bin "${1:-.build/debug}" --screenshot docs/images/plumscale-web.png
