// Output directories (host/io/output.ts): after a successful `run`, `sweep` or `codegen --out DIR`, DIR holds
// exactly that command's files; a directory dcbkit did not write is never replaced; a bad --out is
// reported as `--out: rule` with exit 2 before any work, and a failure while writing leaves the old
// directory as it was and prints a clean line, never a stack.
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, statSync, writeFileSync, lstatSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError, OutputError } from '../../host/errors/errors.js';
import { RUN_OUTPUT, checkOutDir, listFilesRecursive, writeFileAtomic, writeTreeAtomic } from '../../host/io/output.js';
import { packageRoot } from '../../host/core/loader.js';
import { packageFor, releasePackageCopy, runCli } from '../helpers.js';
import { cliEntry } from '../../bench/startup.js';

const tmp = mkdtempSync(join(tmpdir(), 'dcbkit-out-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Temporary entries dcbkit may leave beside an output directory if it cleaned up badly. */
const leftovers = (dir: string) => readdirSync(dir).filter((n) => n.startsWith('.dcbkit-'));
const runJson = (extra: object = {}) => JSON.stringify({ generator: RUN_OUTPUT.generator, ...extra });

describe('dcbkit run/sweep/codegen --out DIR', () => {
  it('a second run into the same directory leaves exactly its own files, as a fresh directory would get', () => {
    const out = join(tmp, 'reused');
    const fresh = join(tmp, 'fresh');
    expect(runCli(['run', 'examples/converged-link/scenario.yaml', '--out', out]).status).toBe(0);
    // converged-link has ETS TCs, so it writes ets.svg; sim-tiny (one strict lossless TC) does not.
    expect(existsSync(join(out, 'ets.svg'))).toBe(true);
    const second = runCli(['run', 'examples/sim-tiny/scenario.yaml', '--out', out]);
    expect(second.stderr).toBe('');
    expect(second.status).toBe(0);
    expect(runCli(['run', 'examples/sim-tiny/scenario.yaml', '--out', fresh]).status).toBe(0);
    expect(listFilesRecursive(fresh)).not.toContain('ets.svg');
    expect(listFilesRecursive(out)).toEqual(listFilesRecursive(fresh));
    expect(readFileSync(join(out, 'summary.json'), 'utf8')).toBe(readFileSync(join(fresh, 'summary.json'), 'utf8'));
    expect(leftovers(tmp)).toEqual([]);
  });

  it('codegen rerun with fewer targets drops the targets of the earlier run', () => {
    const out = join(tmp, 'cg');
    expect(runCli(['codegen', 'examples/configs/roce.yaml', '--target', 'all', '--out', out]).status).toBe(0);
    expect(existsSync(join(out, 'p4', 'dcb.p4'))).toBe(true);
    const r = runCli(['codegen', 'examples/configs/roce.yaml', '--target', 'sonic', '--out', out]);
    expect(r.status, r.stderr).toBe(0);
    expect(listFilesRecursive(out)).toEqual(['manifest.json', 'sonic/config_db.json', 'sonic/patch.json']);
  });

  it('refuses a non-empty directory it did not write, before any work, and keeps it intact', () => {
    const mine = join(tmp, 'mine');
    mkdirSync(mine);
    writeFileSync(join(mine, 'notes.txt'), 'keep me');
    for (const args of [
      ['run', 'examples/sim-tiny/scenario.yaml'],
      ['sweep', 'test/fixtures/sweep-tiny.yaml', '--param', 'seed=1,2'],
      ['codegen', 'examples/configs/roce.yaml', '--target', 'sonic'],
    ]) {
      const r = runCli([...args, '--out', mine]);
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      const gen = `dcbkit ${args[0]}`;
      const sig = args[0] === 'codegen' ? 'manifest.json' : 'run.json';
      expect(r.stderr).toBe(
        `--out: "${mine}" is a non-empty directory that ${gen} did not write (no ${sig} with "generator": "${gen}"); ` +
          `${gen} replaces its output directory as a whole: give a new or empty directory, or remove this one\n`,
      );
      expect(readdirSync(mine)).toEqual(['notes.txt']);
      expect(readFileSync(join(mine, 'notes.txt'), 'utf8')).toBe('keep me');
    }
    expect(leftovers(tmp)).toEqual([]);
  });

  it("refuses another command's output: a run directory is not codegen's to replace", () => {
    const out = join(tmp, 'run-then-codegen');
    expect(runCli(['run', 'examples/sim-tiny/scenario.yaml', '--out', out]).status).toBe(0);
    const r = runCli(['codegen', 'examples/configs/roce.yaml', '--target', 'sonic', '--out', out]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^--out: ".*" is a non-empty directory that dcbkit codegen did not write/);
    expect(existsSync(join(out, 'summary.json'))).toBe(true);
  });

  it('accepts an existing empty directory', () => {
    const out = join(tmp, 'empty');
    mkdirSync(out);
    const r = runCli(['codegen', 'examples/configs/roce.yaml', '--target', 'sonic', '--out', out]);
    expect(r.status, r.stderr).toBe(0);
    expect(listFilesRecursive(out)).toEqual(['manifest.json', 'sonic/config_db.json', 'sonic/patch.json']);
  });

  it('--out naming a regular file, or a place that cannot be created: exit 2, one --out line, nothing written', () => {
    const afile = join(tmp, 'afile');
    writeFileSync(afile, 'data');
    const cases: [string[], string][] = [
      [['run', 'examples/sim-tiny/scenario.yaml', '--out', afile], `--out: "${afile}" exists and is not a directory`],
      [['sweep', 'test/fixtures/sweep-tiny.yaml', '--param', 'seed=1,2', '--out', afile], `--out: "${afile}" exists and is not a directory`],
      [['codegen', 'examples/configs/roce.yaml', '--target', 'sonic', '--out', afile], `--out: "${afile}" exists and is not a directory`],
      [['run', 'examples/sim-tiny/scenario.yaml', '--out', join(afile, 'x')], `--out: cannot create "${join(afile, 'x')}": "${afile}" is not a directory`],
      // /proc refuses new entries even to root, which file permissions would not show.
      [['run', 'examples/sim-tiny/scenario.yaml', '--out', '/proc/x'], '--out: cannot create "/proc/x": cannot create entries in "/proc" (no such file or directory)'],
      [['frames', 'pause', '--time', '3', '--pcap', tmp], `--pcap: "${tmp}" is a directory, not a file`],
    ];
    for (const [args, line] of cases) {
      const r = runCli(args);
      expect(r.stderr, args.join(' ')).toBe(line + '\n');
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
    }
    expect(readFileSync(afile, 'utf8')).toBe('data');
    expect(leftovers(tmp)).toEqual([]);
  });
});

describe('writeTreeAtomic', () => {
  it('a failure while staging leaves the old directory as it was: OutputError, no temporary left', () => {
    const out = join(tmp, 'lib-fail');
    writeTreeAtomic(out, new Map([['run.json', runJson()], ['old.txt', 'old']]), RUN_OUTPUT);
    // 'a' as a file and 'a/b' below it cannot both exist: the second write fails mid-stage.
    const bad = new Map([['run.json', runJson({ n: 2 })], ['a', 'file'], ['a/b', 'under a file']]);
    expect(() => writeTreeAtomic(out, bad, RUN_OUTPUT)).toThrow(OutputError);
    expect(listFilesRecursive(out)).toEqual(['old.txt', 'run.json']);
    expect(readFileSync(join(out, 'run.json'), 'utf8')).toBe(runJson());
    expect(leftovers(tmp)).toEqual([]);
  });

  it('replaces the directory a symlink points at and keeps the link', () => {
    const real = join(tmp, 'lib-real');
    const link = join(tmp, 'lib-link');
    writeTreeAtomic(real, new Map([['run.json', runJson()], ['stale.txt', 'x']]), RUN_OUTPUT);
    symlinkSync(real, link);
    writeTreeAtomic(link, new Map([['run.json', runJson({ n: 2 })]]), RUN_OUTPUT);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(listFilesRecursive(real)).toEqual(['run.json']);
    expect(leftovers(tmp)).toEqual([]);
  });

  it('creates missing parents, and checkOutDir reports with the given label', () => {
    const deep = join(tmp, 'lib-p', 'q', 'r');
    writeTreeAtomic(deep, new Map([['run.json', runJson()]]), RUN_OUTPUT);
    expect(listFilesRecursive(join(tmp, 'lib-p'))).toEqual(['q/r/run.json']);
    const blocker = join(tmp, 'lib-blocker');
    writeFileSync(blocker, '');
    expect(() => checkOutDir(blocker, RUN_OUTPUT, 'out')).toThrow(new InputError({ path: 'out', rule: `"${blocker}" exists and is not a directory` }));
  });
});

describe('output directory permissions', () => {
  // The directory is staged and renamed into place; it must not keep a private 0700 staging mode.
  const cli = join(packageRoot(), 'dist', 'host', 'cli', 'main.js');
  const runWithUmask = (umask: string, args: string[]) =>
    spawnSync('sh', ['-c', `umask ${umask} && exec "$0" "$@"`, process.execPath, cli, ...args], { cwd: packageRoot(), encoding: 'utf8' });
  const mode = (p: string) => statSync(p).mode & 0o777;

  it.each([
    ['run', ['run', 'examples/sim-tiny/scenario.yaml'], 'summary.json'],
    ['sweep', ['sweep', 'test/fixtures/sweep-tiny.yaml', '--param', 'seed=1,2'], 'run.json'],
    ['codegen', ['codegen', 'examples/configs/roce.yaml', '--target', 'sonic'], 'manifest.json'],
  ])('%s: the top directory follows the umask like the files inside', (name, args, file) => {
    for (const [umask, dirMode, fileMode] of [['022', 0o755, 0o644], ['027', 0o750, 0o640], ['002', 0o775, 0o664]] as const) {
      const out = join(tmp, `umask-${name}-${umask}`);
      const r = runWithUmask(umask, [...args, '--out', out]);
      expect(r.status, r.stderr).toBe(0);
      expect(mode(join(out, file)).toString(8)).toBe(fileMode.toString(8));
      expect(mode(out).toString(8)).toBe(dirMode.toString(8));
    }
  });
});

describe('writeFileAtomic', () => {
  it('refuses a directory as the file and writes beside a missing parent', () => {
    expect(() => writeFileAtomic(tmp, 'x', '--pcap')).toThrow(InputError);
    const p = join(tmp, 'wf', 'sub', 'f.bin');
    writeFileAtomic(p, 'abc', '--pcap');
    expect(readFileSync(p, 'utf8')).toBe('abc');
    expect(readdirSync(join(tmp, 'wf', 'sub'))).toEqual(['f.bin']);
  });
});

describe('an existing output directory keeps its mode, and one whose parent is not writable is written in place', () => {
  const mode = (p: string) => (statSync(p).mode & 0o7777).toString(8);

  it.each([
    ['run', ['run', 'examples/sim-tiny/scenario.yaml'], 'summary.json'],
    ['codegen', ['codegen', 'examples/configs/roce.yaml', '--target', 'sonic'], 'manifest.json'],
  ])('%s into an empty directory of mode 705, then again into its own output: still 705', (name, args, file) => {
    const out = join(tmp, `mode-${name}`);
    mkdirSync(out);
    chmodSync(out, 0o705);
    const inode = statSync(out).ino;
    for (let i = 0; i < 2; i++) {
      const r = runCli([...args, '--out', out]);
      expect(r.status, r.stderr).toBe(0);
      expect(existsSync(join(out, file))).toBe(true);
      expect(mode(out)).toBe('705');
      // the empty directory is written into, not swapped: the same directory (the rerun swaps)
      if (i === 0) expect(statSync(out).ino).toBe(inode);
    }
    expect(leftovers(out)).toEqual([]);
    expect(leftovers(tmp)).toEqual([]);
  });

  it('a chmod 555 empty directory comes back 555 with the files in it (as root, who may write there)', () => {
    expect(process.getuid?.(), 'run the tests as root (CI does): only root writes into a 555 directory').toBe(0);
    const out = join(tmp, 'mode-555');
    mkdirSync(out);
    chmodSync(out, 0o555);
    const r = runCli(['run', 'examples/sim-tiny/scenario.yaml', '--out', out]);
    expect(r.status, r.stderr).toBe(0);
    expect(mode(out)).toBe('555');
    expect(readdirSync(out)).toContain('report.html');
  });

  it('a mount-point-like directory: writable, its parent not (dcbkit runs as nobody), first empty, then its own output', () => {
    expect(process.getuid?.(), 'run the tests as root (CI does): the case needs a second user').toBe(0);
    const parent = join(tmp, 'mount-parent');
    const out = join(parent, 'out');
    mkdirSync(out, { recursive: true });
    chmodSync(tmp, 0o755);
    chmodSync(parent, 0o755); // root's: nobody may not create or rename entries here
    chownSync(out, 65534, 65534);
    chmodSync(out, 0o750);
    const pkg = packageFor(65534); // the checkout, or a copy nobody can read
    const asNobody = (args: string[]) =>
      spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, cliEntry(pkg), ...args], { cwd: pkg, encoding: 'utf8' });
    try {
      for (let i = 0; i < 2; i++) {
        const r = asNobody(['run', 'examples/sim-tiny/scenario.yaml', '--out', out]);
        expect(r.stderr).toBe('');
        expect(r.status).toBe(0);
        expect(readdirSync(out).sort()).toEqual(expect.arrayContaining(['report.html', 'run.json', 'summary.json']));
        expect(mode(out)).toBe('750');
        expect(statSync(out).uid).toBe(65534);
      }
      expect(leftovers(out)).toEqual([]);
      expect(readdirSync(parent)).toEqual(['out']);
      // a directory nobody may not write into at all is still refused up front, naming it
      chownSync(out, 0, 0);
      chmodSync(out, 0o755);
      const refused = asNobody(['run', 'examples/sim-tiny/scenario.yaml', '--out', out]);
      expect(refused.status).toBe(2);
      expect(refused.stderr).toMatch(/^--out: cannot write into ".*out": cannot create entries in/);
    } finally {
      releasePackageCopy(pkg);
    }
  });

  it('a failure in the middle of writing in place leaves the directory as it was', () => {
    const out = join(tmp, 'inplace-fail');
    mkdirSync(out);
    writeTreeAtomic(out, new Map([['run.json', runJson({ n: 1 })], ['a.txt', 'first']]), RUN_OUTPUT);
    // a file whose parent path is an existing file cannot be written: fails while staging
    const bad = new Map<string, string>([['run.json', runJson({ n: 2 })], ['b.txt', 'x'], ['b.txt/c', 'y']]);
    expect(() => writeTreeAtomic(out, bad, RUN_OUTPUT)).toThrow(OutputError);
    expect(readdirSync(out).sort()).toEqual(['a.txt', 'run.json']);
    expect(readFileSync(join(out, 'a.txt'), 'utf8')).toBe('first');
  });
});
