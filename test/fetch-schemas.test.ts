// Third-party schemas for the codegen tests: the lookup order (test/codegen/schemas-lookup.ts) and
// scripts/fetch-schemas.sh. There is no network to GitHub here, so the script runs against local
// git repositories laid out like the upstream ones (file:// URLs and commits given through its
// DCBKIT_*_URL / *_COMMIT variables): the sparse shallow clone, the files kept, the template
// rendering, the README with the pins, the swap into place and the clean-up on failure.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../host/core/loader.js';
import { findSchemas, HOW_TO_GET } from './codegen/schemas-lookup.js';
import { listFilesRecursive } from '../host/io/output.js';

const script = join(packageRoot(), 'scripts', 'fetch-schemas.sh');
const tmp = mkdtempSync(join(tmpdir(), 'dcbkit-schemas-'));

function tree(root: string, files: Record<string, string>): string {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  return root;
}
const schemaFolder = (root: string) => tree(root, { 'p4runtime/p4/v1/p4runtime.proto': '', 'sonic-yang/sonic-port.yang': '' });

describe('schema lookup order', () => {
  const project = join(tmp, 'lookup', 'work', 'project');
  mkdirSync(project, { recursive: true });

  it('DCBKIT_SCHEMAS first, then ../shared/schemas, then ../../shared/schemas, then .cache/schemas', () => {
    const env = schemaFolder(join(tmp, 'lookup', 'env'));
    const cache = schemaFolder(join(project, '.cache', 'schemas'));
    expect(findSchemas(project, undefined)).toEqual({ dir: cache });
    const up2 = schemaFolder(join(tmp, 'lookup', 'shared', 'schemas'));
    expect(findSchemas(project, undefined)).toEqual({ dir: up2 });
    const up1 = schemaFolder(join(tmp, 'lookup', 'work', 'shared', 'schemas'));
    expect(findSchemas(project, undefined)).toEqual({ dir: up1 });
    expect(findSchemas(project, env)).toEqual({ dir: env });
  });

  it('a folder without the marker files does not count; a wrong DCBKIT_SCHEMAS is named, not skipped', () => {
    const bare = join(tmp, 'bare', 'project');
    tree(join(tmp, 'bare', 'shared', 'schemas'), { 'README.md': 'only a readme', 'p4runtime/p4/v1/p4runtime.proto': '' });
    const none = findSchemas(bare, undefined);
    expect(none).toEqual({ missing: expect.stringContaining(`: ${HOW_TO_GET}`) });
    expect((none as { missing: string }).missing).not.toContain('\n');
    expect((none as { missing: string }).missing).toContain(join(tmp, 'bare', 'project', '.cache', 'schemas'));
    schemaFolder(join(bare, '.cache', 'schemas'));
    expect(findSchemas(bare, join(tmp, 'nowhere'))).toEqual({ missing: expect.stringMatching(/^DCBKIT_SCHEMAS=.*nowhere lacks p4runtime\/p4\/v1\/p4runtime.proto or sonic-yang\/sonic-port.yang: run scripts\/fetch-schemas.sh/) });
  });
});

const runScript = (args: string[], env: Record<string, string> = {}) =>
  spawnSync('bash', [script, ...args], { encoding: 'utf8', env: { ...process.env, ...env } });

describe('scripts/fetch-schemas.sh arguments', () => {
  it('--help prints the usage and exits 0', () => {
    const r = runScript(['--help']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^usage: scripts\/fetch-schemas.sh \[--dest DIR\] \[--force \| --if-missing\]\n/);
  });

  it.each([
    [['--bogus'], "fetch-schemas.sh: unknown argument '--bogus'"],
    [['--dest'], 'fetch-schemas.sh: --dest needs a directory'],
    [['--dest', ''], 'fetch-schemas.sh: --dest needs a directory'],
    [['--dest='], 'fetch-schemas.sh: --dest needs a directory'],
  ])('%j exits 2 with one line and the usage on stderr', (args, line) => {
    const r = runScript(args);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')[0]).toBe(line);
    expect(r.stderr).toContain('usage: scripts/fetch-schemas.sh');
  });

  it('does nothing when the destination already holds the schemas', () => {
    const dest = schemaFolder(join(tmp, 'present'));
    const r = runScript(['--dest', dest], { DCBKIT_P4RUNTIME_URL: 'file:///nonexistent' });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(`schemas already in ${dest} (use --force to fetch again)\n`);
  });
});

describe('scripts/fetch-schemas.sh --if-missing (what scripts/test.sh runs)', () => {
  it('fetches nothing when DCBKIT_SCHEMAS holds the schemas', () => {
    const found = schemaFolder(join(tmp, 'env-found'));
    const r = runScript(['--if-missing', '--dest', join(tmp, 'unused')], { DCBKIT_SCHEMAS: found, DCBKIT_P4RUNTIME_URL: 'file:///nonexistent' });
    expect(r.stdout).toBe(`schemas found in ${found}\n`);
    expect(r.status).toBe(0);
    expect(existsSync(join(tmp, 'unused'))).toBe(false);
  });

  it('fetches when they are nowhere, and a failed fetch exits non-zero leaving nothing behind', () => {
    // a copy of the script in a project with no shared schema folder beside it
    const project = join(tmp, 'plain', 'project');
    tree(project, { 'scripts/fetch-schemas.sh': readFileSync(script, 'utf8') });
    const r = spawnSync('bash', [join(project, 'scripts', 'fetch-schemas.sh'), '--if-missing'], {
      encoding: 'utf8', env: { ...process.env, DCBKIT_SCHEMAS: '', DCBKIT_P4RUNTIME_URL: `file://${join(tmp, 'no-such-repo')}` },
    });
    expect(r.stdout).toContain(`fetching file://${join(tmp, 'no-such-repo')} at `);
    expect(r.status).not.toBe(0);
    expect(readdirSync(join(project, '.cache'))).toEqual([]);
  });
});

describe('scripts/fetch-schemas.sh against local repositories laid out like upstream', () => {
  const git = (cwd: string, ...args: string[]) => {
    const r = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    return r.stdout.trim();
  };
  const repo = (name: string, files: Record<string, string>) => {
    const dir = tree(join(tmp, name), files);
    git(dir, '-c', 'init.defaultBranch=main', 'init', '-q');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'fixture');
    return { url: `file://${dir}`, commit: git(dir, 'rev-parse', 'HEAD') };
  };
  const p4rt = repo('p4runtime', {
    'proto/p4/v1/p4runtime.proto': 'syntax = "proto3";\n',
    'proto/p4/v1/p4data.proto': 'data\n',
    'proto/p4/v1/BUILD.bazel': 'not a schema\n',
    'proto/p4/config/v1/p4info.proto': 'info\n',
    'proto/google/rpc/status.proto': 'status\n',
    'proto/LICENSE': 'proto licence\n',
    'LICENSES/Apache-2.0.txt': 'apache\n',
    'docs/spec.md': 'outside the sparse paths\n',
  });
  const sonic = repo('sonic-buildimage', {
    'src/sonic-yang-models/yang-models/sonic-port.yang': 'module sonic-port {}\n',
    'src/sonic-yang-models/yang-models/sonic-queue.yang': 'module sonic-queue {}\n',
    'src/sonic-yang-models/yang-templates/sonic-types.yang.j2':
      'module sonic-types {\n    {% if yang_model_type == "cvl" %}\n    cvl-only;\n    {% else %}\n    py-only;\n    {% endif %}\n}\n',
    'src/sonic-yang-models/LICENSE': 'sonic licence\n',
    'src/sonic-yang-models/tests/big.json': 'outside the sparse paths\n',
  });
  const env = { DCBKIT_P4RUNTIME_URL: p4rt.url, DCBKIT_P4RUNTIME_COMMIT: p4rt.commit, DCBKIT_SONIC_URL: sonic.url, DCBKIT_SONIC_COMMIT: sonic.commit };

  it('keeps exactly the schema files and licences, renders the templates for "py", records the pins', () => {
    const project = join(tmp, 'project');
    const dest = join(project, '.cache', 'schemas');
    const r = runScript(['--dest', dest], env);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n').at(-1)).toBe(`schemas in ${dest}`);
    expect(listFilesRecursive(dest)).toEqual([
      'README.md',
      'p4runtime/LICENSE', 'p4runtime/LICENSE-Apache-2.0.txt', 'p4runtime/google/rpc/status.proto',
      'p4runtime/p4/config/v1/p4info.proto', 'p4runtime/p4/v1/p4data.proto', 'p4runtime/p4/v1/p4runtime.proto',
      'sonic-yang/LICENSE', 'sonic-yang/sonic-port.yang', 'sonic-yang/sonic-queue.yang', 'sonic-yang/sonic-types.yang',
    ]);
    expect(readFileSync(join(dest, 'p4runtime/LICENSE-Apache-2.0.txt'), 'utf8')).toBe('apache\n');
    // jinja2 with trim_blocks (and its default of dropping the final newline), as sonic-yang-models'
    // setup.py renders for the Python model type
    expect(readFileSync(join(dest, 'sonic-yang/sonic-types.yang'), 'utf8')).toBe('module sonic-types {\n        py-only;\n    }');
    const readme = readFileSync(join(dest, 'README.md'), 'utf8');
    expect(readme).toContain(p4rt.commit);
    expect(readme).toContain(sonic.commit);
    expect(readdirSync(dirname(dest))).toEqual(['schemas']);
    // the lookup takes it as the project's cache
    expect(findSchemas(project, undefined)).toEqual({ dir: dest });
  });

  it('--force fetches again and swaps the new tree in; a failed fetch leaves the old one and no debris', () => {
    const dest = join(tmp, 'force', 'schemas');
    expect(runScript(['--dest', dest], env).status).toBe(0);
    writeFileSync(join(dest, 'p4runtime', 'stale.proto'), 'from before');
    const again = runScript(['--dest', dest, '--force'], env);
    expect(again.status, again.stderr).toBe(0);
    expect(existsSync(join(dest, 'p4runtime', 'stale.proto'))).toBe(false);
    const bad = runScript(['--dest', dest, '--force'], { ...env, DCBKIT_SONIC_COMMIT: '0'.repeat(40) });
    expect(bad.status).not.toBe(0);
    expect(existsSync(join(dest, 'sonic-yang', 'sonic-port.yang'))).toBe(true);
    expect(readdirSync(dirname(dest))).toEqual(['schemas']);
  });
});
