#!/usr/bin/env bash
# The main job on a built-in example (README "Two commands"). Assumes `npm ci` has run.
# Simulates the converged link of Reinemo et al. 2010, Table 1 (examples/converged-link: LAN/SAN/IPC sharing
# one 10 Gb/s port 40/40/20 under ETS, SAN lossless with PFC) and writes its report.
set -euo pipefail
cd "$(dirname "$0")/.."
out=out/converged-link
node dist/host/cli/main.js run examples/converged-link/scenario.yaml --out "$out"
echo "open $(pwd)/$out/report.html in a browser; summary.json, series/*.csv and the SVG plots are beside it"
