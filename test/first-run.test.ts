// The README's way in, as a new user takes it: a fresh clone, `npm ci`, then `npx dcbkit --version`.
// npm 11 runs a package's own bin by linking the directory into its npx cache, which runs the
// package's `prepare`; `prepare` rebuilds only when the sources differ from the last build
// (scripts/build-stamp.mjs), so the first npx starts at once instead of rebuilding (33 s to 2.5 min
// before). `npm link` installs the same way and must not rebuild either.
// The commands are the README's, word for word; npm's settings that keep the test off the network
// (prefer the cache, no audit or funding calls) come from the environment, as a user's .npmrc would
// set them. npm ci builds the package once (about a minute). What is asserted is the mechanism (no
// build output, outputs and build stamp untouched); the times are printed for the record, never
// asserted: they follow the machine's load, and npx's own start-up (loading the package tree) is
// the same on the first run as on the second.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../host/core/loader.js';

const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'dcbkit-first-run-')));
const clone = join(tmp, 'dcbkit');
/** npm kept off the network and quiet, as a user's .npmrc would; the commands themselves stay the README's. */
const NPM_ENV = { npm_config_prefer_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false' };
const sh = (cmd: string, args: string[], cwd = clone, env: NodeJS.ProcessEnv = {}) => {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, ...NPM_ENV, ...env }, maxBuffer: 64 * 1024 * 1024 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, ms: performance.now() - t0 };
};
const mtime = (f: string) => statSync(join(clone, f)).mtimeMs;
const STAMP = 'build/.inputs.sha256';
/** What a rebuild would touch: the bundle, the core, the stamp (modification times and the stamp's digest). */
const buildState = () => ({
  bundle: mtime('dist/cli/dcbkit.js'), core: mtime('build/core.wasm'), stamp: mtime(STAMP),
  digest: readFileSync(join(clone, STAMP), 'utf8'),
});
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

afterAll(() => {
  // npx keeps a link to the clone in its cache, under the first 16 hex digits of the path's SHA-512
  const cache = sh('npm', ['config', 'get', 'cache'], tmp).stdout.trim();
  if (cache) rmSync(join(cache, '_npx', createHash('sha512').update(clone).digest('hex').slice(0, 16)), { recursive: true, force: true });
  rmSync(tmp, { recursive: true, force: true });
});

describe('a fresh clone after npm ci', () => {
  it('npm ci builds once; the first npx dcbkit --version after it does not rebuild', () => {
    expect(sh('git', ['clone', '--quiet', '--no-hardlinks', packageRoot(), clone], tmp).status).toBe(0);
    const ci = sh('npm', ['ci']);
    expect(ci.status, ci.stderr).toBe(0);
    expect(sh('node', ['scripts/build-stamp.mjs', '--check']).status).toBe(0);
    const built = buildState();
    const version = JSON.parse(readFileSync(join(clone, 'package.json'), 'utf8')).version;

    const loadBefore = load();
    const first = sh('npx', ['dcbkit', '--version']);
    const second = sh('npx', ['dcbkit', '--version']);
    const direct = sh('node', ['dist/cli/dcbkit.js', '--version']);
    console.log(`npm ci ${(ci.ms / 1000).toFixed(1)} s; first npx dcbkit --version ${first.ms.toFixed(0)} ms, second ${second.ms.toFixed(0)} ms, ` +
      `node dist/cli/dcbkit.js --version ${direct.ms.toFixed(0)} ms (load average ${loadBefore} before, ${load()} after)`);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout.trim()).toBe(version);
    // No build ran: prepare's check found the stamp current, so nothing was printed or rewritten.
    expect(first.stderr).not.toContain('building');
    expect(first.stdout + first.stderr).not.toMatch(/asc |tsc |esbuild|npm run build/);
    expect(buildState()).toEqual(built);
    expect(second.stdout.trim()).toBe(version);
  }, 1_800_000);

  it('npm link (into a private global prefix) does not rebuild', () => {
    const prefix = join(tmp, 'global');
    const built = buildState();
    // npm_config_prefix moves npm's global folder only; --prefix would move the project's too
    const link = sh('npm', ['link', '--no-audit', '--no-fund', '--prefer-offline'], clone, { npm_config_prefix: prefix });
    expect(link.status, link.stderr).toBe(0);
    expect(buildState()).toEqual(built);
    expect(link.stderr).not.toContain('building');
    expect(sh(join(prefix, 'bin', 'dcbkit'), ['--version']).status).toBe(0);
    console.log(`npm link ${(link.ms / 1000).toFixed(1)} s (load average ${load()})`);
  }, 300_000);

  it('a changed source makes prepare rebuild: the stamp no longer matches', () => {
    expect(sh('node', ['scripts/build-stamp.mjs', '--check']).status).toBe(0);
    expect(sh('sh', ['-c', 'echo "// touched" >> host/core/versions.ts']).status).toBe(0);
    const check = sh('node', ['scripts/build-stamp.mjs', '--check']);
    expect(check.status).toBe(1);
    expect(check.stderr).toContain('building (npm run build)');
  });
});
