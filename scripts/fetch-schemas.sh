#!/usr/bin/env bash
# Fetches the third-party schema files the codegen tests validate against (they stay out of the
# repository) into a cache, by default .cache/schemas in the project (git-ignored):
#   p4runtime/   P4Runtime and P4Info protos, with google/rpc/status.proto as vendored there, from
#                github.com/p4lang/p4runtime folder proto/ (+ its LICENSE and LICENSES/Apache-2.0.txt);
#   sonic-yang/  the SONiC YANG models from github.com/sonic-net/sonic-buildimage
#                src/sonic-yang-models/yang-models, plus its yang-templates/*.yang.j2 rendered the way
#                its setup.py does for the Python model type (jinja2, trim_blocks, yang_model_type "py"),
#                and its LICENSE.
# Each repository is a shallow, sparse, blob-filtered clone of one pinned commit: the commits the
# copies a team keeps in a shared/schemas folder beside the project came from (compared file by
# file). The tests look for schemas in
# $DCBKIT_SCHEMAS, then such a shared folder, then this cache (test/codegen/schemas-lookup.ts).
# The cache is replaced only once complete. Needs git and python3 with jinja2 (python3-jinja2).
# DCBKIT_P4RUNTIME_URL / DCBKIT_SONIC_URL (and *_COMMIT) point at mirrors; the tests use them.
set -euo pipefail

P4RUNTIME_URL=${DCBKIT_P4RUNTIME_URL:-https://github.com/p4lang/p4runtime.git}
P4RUNTIME_COMMIT=${DCBKIT_P4RUNTIME_COMMIT:-ab29f3c2f06bbaeed5d6dec4fe63535eb5cf7840}
SONIC_URL=${DCBKIT_SONIC_URL:-https://github.com/sonic-net/sonic-buildimage.git}
SONIC_COMMIT=${DCBKIT_SONIC_COMMIT:-086b03bd70f9e211aaaf5f6aefe0790b508d2a94}

root="$(cd "$(dirname "$0")/.." && pwd)"
usage() {
  cat <<USAGE
usage: scripts/fetch-schemas.sh [--dest DIR] [--force | --if-missing]
  --dest DIR    where to put the schemas (default: $root/.cache/schemas)
  --force       fetch again even if DIR already holds them
  --if-missing  do nothing if the tests already find schemas (\$DCBKIT_SCHEMAS, a shared/schemas folder beside the project)
Then run the tests as usual; or set DCBKIT_SCHEMAS=DIR for another location.
USAGE
}
fail_usage() {
  echo "fetch-schemas.sh: $1" >&2
  usage >&2
  exit 2
}

dest="$root/.cache/schemas"
force=0
if_missing=0
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --force) force=1 ;;
    --if-missing) if_missing=1 ;;
    --dest)
      [ $# -ge 2 ] && [ -n "$2" ] || fail_usage "--dest needs a directory"
      dest="$2"; shift ;;
    --dest=*)
      dest="${1#--dest=}"
      [ -n "$dest" ] || fail_usage "--dest needs a directory" ;;
    *) fail_usage "unknown argument '$1'" ;;
  esac
  shift
done

# the two files test/codegen/schemas-lookup.ts checks for
complete() { [ -f "$1/p4runtime/p4/v1/p4runtime.proto" ] && [ -f "$1/sonic-yang/sonic-port.yang" ]; }

if [ "$if_missing" -eq 1 ]; then
  # the places test/codegen/schemas-lookup.ts looks before the cache
  for found in "${DCBKIT_SCHEMAS:-}" "$root/../shared/schemas" "$root/../../shared/schemas"; do
    if [ -n "$found" ] && complete "$found"; then echo "schemas found in $found"; exit 0; fi
  done
fi
if complete "$dest" && [ "$force" -eq 0 ]; then
  echo "schemas already in $dest (use --force to fetch again)"
  exit 0
fi
command -v git >/dev/null 2>&1 || { echo "fetch-schemas.sh: needs git" >&2; exit 1; }
python3 -c 'import jinja2' 2>/dev/null || { echo "fetch-schemas.sh: needs python3 with jinja2 (Debian: apt-get install python3-jinja2)" >&2; exit 1; }

mkdir -p "$(dirname "$dest")"
work="$(mktemp -d "$(dirname "$dest")/.fetch-schemas.XXXXXX")"
trap 'rm -rf "$work"' EXIT

# sparse_clone DIR URL COMMIT PATH...: only PATHs of COMMIT, one commit deep, blobs on demand.
sparse_clone() {
  local dir="$1" url="$2" commit="$3"
  shift 3
  echo "fetching $url at $commit"
  git -c init.defaultBranch=main init -q "$dir"
  git -C "$dir" remote add origin "$url"
  git -C "$dir" sparse-checkout set --no-cone "$@"
  git -C "$dir" -c protocol.version=2 fetch -q --depth 1 --filter=blob:none origin "$commit"
  git -C "$dir" -c advice.detachedHead=false checkout -q FETCH_HEAD
}

sparse_clone "$work/p4runtime.git" "$P4RUNTIME_URL" "$P4RUNTIME_COMMIT" /proto/p4/ /proto/google/ /proto/LICENSE /LICENSES/Apache-2.0.txt
sparse_clone "$work/sonic.git" "$SONIC_URL" "$SONIC_COMMIT" /src/sonic-yang-models/yang-models/ /src/sonic-yang-models/yang-templates/ /src/sonic-yang-models/LICENSE

stage="$work/schemas"
mkdir -p "$stage/p4runtime" "$stage/sonic-yang"
(cd "$work/p4runtime.git/proto" && find p4 google -name '*.proto' -exec cp --parents {} "$stage/p4runtime/" \;)
cp "$work/p4runtime.git/proto/LICENSE" "$stage/p4runtime/LICENSE"
cp "$work/p4runtime.git/LICENSES/Apache-2.0.txt" "$stage/p4runtime/LICENSE-Apache-2.0.txt"
models="$work/sonic.git/src/sonic-yang-models"
cp "$models"/yang-models/*.yang "$models/LICENSE" "$stage/sonic-yang/"
python3 - "$models/yang-templates" "$stage/sonic-yang" <<'PY'
import pathlib, sys, jinja2
templates, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(templates)), trim_blocks=True)
for t in sorted(templates.glob("*.yang.j2")):
    (out / t.name[: -len(".j2")]).write_text(env.get_template(t.name).render(yang_model_type="py"))
PY
cat > "$stage/README.md" <<README
# Third-party schemas (fetched by scripts/fetch-schemas.sh; data for validation only)

| folder | upstream | commit | licence |
|---|---|---|---|
| p4runtime/ | $P4RUNTIME_URL, folder proto/ | $P4RUNTIME_COMMIT | Apache-2.0 (LICENSE, LICENSE-Apache-2.0.txt) |
| sonic-yang/ | $SONIC_URL, src/sonic-yang-models/ (templates rendered for yang_model_type "py") | $SONIC_COMMIT | Apache-2.0 (LICENSE) |
README
complete "$stage" || { echo "fetch-schemas.sh: the fetched trees lack the expected files" >&2; exit 1; }

# swap in only now, so an interrupted fetch leaves the old cache (or none) in place
if [ -e "$dest" ]; then mv "$dest" "$work/old"; fi
mv "$stage" "$dest"
echo "schemas in $dest"
