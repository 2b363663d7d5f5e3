#!/usr/bin/env bash
# The main job on a built-in example (README "Two commands"). Assumes `npm ci` has run.
set -euo pipefail
cd "$(dirname "$0")/.."
node dist/host/cli.js versions
