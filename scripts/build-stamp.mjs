// Whether build/ and dist/ were built from the sources as they are now, so that `prepare` rebuilds
// only when something changed. npm runs `prepare` after `npm ci`, and again when `npx dcbkit` (npm 11
// installs the package's own directory into its npx cache to link its bin) or `npm link` installs
// this directory; with the build up to date those runs cost one hash of the sources instead of a
// full rebuild.
//
//   node scripts/build-stamp.mjs --write   after a build: record the digest of the inputs
//   node scripts/build-stamp.mjs --check   exit 0 if every output exists and the digest matches, 1 if not
//
// The digest is SHA-256 over the path and content of every build input (the AssemblyScript core,
// the TypeScript host, the build scripts and configs, the lockfile), sorted by path: content, not
// modification times, so a checkout of another commit, a clone or a copy compare by what they hold.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const STAMP = join(root, 'build', '.inputs.sha256');
const INPUT_DIRS = ['assembly', 'host', 'codegen', 'bench'];
const INPUT_FILES = [
  'package.json', 'package-lock.json', 'asconfig.json', 'tsconfig.json',
  'scripts/bundle-cli.mjs', 'scripts/layout-h.mjs', 'scripts/build-stamp.mjs',
];
/** What the build writes and the CLI needs; a missing one means build whatever the stamp says. */
const OUTPUTS = [
  'build/core.wasm', 'build/core.shared.wasm', 'build/core.debug.wasm', 'build/dcb_layout.h',
  'dist/cli/dcbkit.js', 'dist/cli/commands.json',
];

function walk(dir, files) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, files);
    else if (entry.isFile() && /\.(ts|mjs|cjs|js|json|c|h)$/.test(entry.name)) files.push(relative(root, path));
  }
}

export function inputsDigest() {
  const files = INPUT_FILES.filter((f) => existsSync(join(root, f)));
  for (const dir of INPUT_DIRS) if (existsSync(join(root, dir))) walk(join(root, dir), files);
  files.sort();
  const hash = createHash('sha256');
  for (const f of files) hash.update(`${f}\0`).update(readFileSync(join(root, f))).update('\0');
  return hash.digest('hex');
}

const mode = process.argv[2];
if (mode === '--write') {
  writeFileSync(STAMP, `${inputsDigest()}\n`);
} else if (mode === '--check') {
  const built = OUTPUTS.every((f) => existsSync(join(root, f))) && existsSync(STAMP);
  const upToDate = built && readFileSync(STAMP, 'utf8').trim() === inputsDigest();
  if (!upToDate) console.error('dcbkit: the build is missing or older than the sources; building (npm run build)');
  process.exit(upToDate ? 0 : 1);
} else {
  console.error('usage: node scripts/build-stamp.mjs --write | --check');
  process.exit(2);
}
