#!/usr/bin/env bash
# Digests of the simulator's outputs, to check an engine change leaves them byte-identical:
# every example scenario's `run --out` files (all but run.json, which records how the run went:
# wall time, threads) and `gen clos` trees k = 4 and k = 8 (random and permutation traffic) run
# on one thread and on two. Prints one "sha256  case/file" line per file, sorted.
# Usage: bash bench/digests.sh > before.txt; (change, rebuild) ...; bash bench/digests.sh | diff before.txt -
set -euo pipefail
cd "$(dirname "$0")/.."
cli="node dist/cli/dcbkit.js"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for f in examples/*/*.yaml; do
  grep -q '^links:' "$f" || continue
  name=$(basename "$(dirname "$f")")-$(basename "$f" .yaml)
  $cli run "$f" --threads 1 --out "$work/$name" >/dev/null
done
for spec in "4 16 2ms" "8 128 1ms"; do
  set -- $spec
  for pattern in random permutation; do
    $cli gen clos -k "$1" --flows "$2" --duration "$3" --pattern "$pattern" > "$work/clos-k$1-$pattern.yaml"
    for threads in 1 2; do
      $cli run "$work/clos-k$1-$pattern.yaml" --threads "$threads" --out "$work/clos-k$1-$pattern-t$threads" >/dev/null
    done
  done
done
rm -f "$work"/*.yaml
cd "$work"
find . -type f ! -name run.json | sort | xargs sha256sum
