// SIGINT and SIGTERM at every phase of a command that writes (simulating, rendering, staging the
// files), what a writer killed outright leaves behind, and a permission change during a run.
// Phases are hit deterministically: the CLI is signalled once /proc shows its handlers installed
// (SigCgt), and the render and staging phases are driven in this process.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkOutDir, RUN_OUTPUT, writeTreeAtomic, writeTreeAtomicAsync } from '../host/io/output.js';
import { hostTag } from '../host/io/output-recovery.js';
import { Interrupted, stopSignal, withStopSignals } from '../host/io/signals.js';
import { runCommand } from '../host/commands/run.js';
import { writeReport } from '../host/report/report.js';
import { asRoot, CLI, removeFolder, testFolder } from './hostile-helpers.js';

let dir: string;
beforeAll(() => {
  dir = testFolder('hostile-signals');
});
afterAll(() => removeFolder(dir));

/** sim-tiny (endless line-rate incast) simulated for `duration`, sampled coarsely so its series stay small. */
const tinyLasting = (duration: string) =>
  readFileSync('examples/sim-tiny/scenario.yaml', 'utf8').replace('duration: 200us', `duration: ${duration}`).replace('sample: 2us', 'sample: 200us');

const runJson = (n: number) => JSON.stringify({ generator: 'dcbkit run', n });
const temporaries = (d: string) => readdirSync(d).filter((n) => n.startsWith('.dcbkit-'));

/** A pid no process has: a child that has exited. */
function deadPid(): number {
  return spawnSync('true').pid!;
}

/**
 * Runs the CLI (as nobody when root) and calls `act(child)` `delayMs` after the start. Node catches
 * SIGINT and SIGTERM from its first instant (SigCgt cannot tell when dcbkit's handlers are in), so
 * a start-up slower than the delay (a loaded machine) is seen as `early` and the caller tries again
 * with a longer delay.
 */
async function cliWith(args: string[], delayMs: number, act: (pid: number) => void): Promise<{ status: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  const drop = asRoot ? ['setpriv', '--reuid', '65534', '--regid', '65534', '--clear-groups'] : [];
  const argv = [...drop, process.execPath, CLI, ...args];
  const child = spawn(argv[0], argv.slice(1), { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (c) => { stderr += c; });
  const done = new Promise<[number | null, NodeJS.Signals | null]>((r) => child.on('exit', (code, sig) => r([code, sig])));
  const timer = setTimeout(() => act(child.pid!), delayMs); // setpriv execs node: the pid stays the same
  const killer = setTimeout(() => child.kill('SIGKILL'), delayMs + 120_000);
  const [status, signal] = await done;
  clearTimeout(timer);
  clearTimeout(killer);
  return { status, signal, stderr };
}

/** `signal` sent to the CLI once it is past start-up: retried with doubled delays while it lands too early. */
async function signalled(args: string[], signal: 'SIGINT' | 'SIGTERM'): Promise<{ status: number | null; stderr: string }> {
  for (let delay = 2000; ; delay *= 2) {
    const r = await cliWith(args, delay, (pid) => process.kill(pid, signal));
    // killed by the signal itself: it came before dcbkit's handler, during Node's start-up
    if (r.signal !== signal || delay >= 32_000) return r;
  }
}

describe('the CLI stops at SIGINT / SIGTERM with one line and nothing written', () => {
  beforeAll(() => {
    // sim-tiny, but far longer than any delay below (about 1.5 s of wall time per simulated second
    // on an idle 2-core machine): the signal lands while it simulates, never while it writes
    writeFileSync(join(dir, 'long.yaml'), tinyLasting('60s'));
  });

  it.each([['SIGINT', 130, 'interrupted'], ['SIGTERM', 143, 'terminated']] as const)('run --out, %s while simulating: exit %i', async (signal, code, verb) => {
    const r = await signalled(['run', 'long.yaml', '--out', 'out-run'], signal);
    expect(r.stderr).toMatch(new RegExp(`^dcbkit: ${verb} at [\\d.]+ of 60 s simulated; nothing written: out-run is as it was\\n$`));
    expect(r.status).toBe(code);
    expect(existsSync(join(dir, 'out-run'))).toBe(false);
    expect(temporaries(dir)).toEqual([]);
  });

  it('sweep --out, SIGTERM while the points run: exit 143 (was: no handler, killed without a word)', async () => {
    const r = await signalled(['sweep', 'long.yaml', '--param', 'seed=1,2', '--jobs', '1', '--out', 'out-sweep'], 'SIGTERM');
    expect(r.stderr).toMatch(/^dcbkit: terminated [\d.]+ s into a sweep of 2 points \(the finished ones are lost\); nothing written: out-sweep is as it was\n$/);
    expect(r.status).toBe(143);
    expect(existsSync(join(dir, 'out-sweep'))).toBe(false);
  });
});

describe('in this process: rendering and staging stop too', () => {
  it('a signal while the report renders: Interrupted, exit status 130, nothing written (was: exit 0, report written)', async () => {
    const result = await runCommand({ scenario: 'examples/sim-tiny/scenario.yaml' });
    const out = join(dir, 'rendered');
    let thrown: unknown;
    const done = await withStopSignals(async () => {
      const writing = writeReport(result, out, undefined, () => stopSignal() !== undefined);
      process.kill(process.pid, 'SIGINT'); // seen at the render's next yield, or at the writer's first check
      try {
        return await writing;
      } catch (e) {
        thrown = e;
        throw e;
      }
    });
    expect(thrown).toBeInstanceOf(Interrupted);
    expect(done).toBeUndefined();
    expect(process.exitCode).toBe(130);
    process.exitCode = 0;
    expect(existsSync(out)).toBe(false);
    expect(temporaries(dir)).toEqual([]);
  });

  it('SIGTERM while files are staged: the stage removed, the earlier output as it was', async () => {
    const out = join(dir, 'staged');
    writeTreeAtomic(out, new Map([['run.json', runJson(1)], ['a.txt', 'old']]), RUN_OUTPUT);
    const files = new Map<string, string>([['run.json', runJson(2)]]);
    for (let i = 0; i < 200; i++) files.set(`f${i}.txt`, String(i));
    let sawStage = false;
    const watch = setInterval(() => {
      const stage = temporaries(dir).find((n) => n.startsWith('.dcbkit-stage-'));
      if (stage && readdirSync(join(dir, stage)).length > 1 && !sawStage) {
        sawStage = true;
        process.kill(process.pid, 'SIGTERM');
      }
    }, 0);
    await withStopSignals(() => writeTreeAtomicAsync(out, files, RUN_OUTPUT));
    clearInterval(watch);
    expect(sawStage).toBe(true);
    expect(process.exitCode).toBe(143);
    process.exitCode = 0;
    expect(readdirSync(out).sort()).toEqual(['a.txt', 'run.json']);
    expect(JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')).n).toBe(1);
    expect(temporaries(dir)).toEqual([]);
  });
});

describe('what a writer killed outright leaves is put right by the next command', () => {
  it('a stage of a dead process beside --out is removed; one of a live process or another host is kept', () => {
    const parent = join(dir, 'stale');
    mkdirSync(parent);
    const dead = `.dcbkit-stage-${hostTag()}-${deadPid()}-abc`;
    const live = `.dcbkit-stage-${hostTag()}-${process.ppid}-def`;
    const foreign = `.dcbkit-stage-00000000-${deadPid()}-ghi`;
    for (const n of [dead, live, foreign]) mkdirSync(join(parent, n, 'sub'), { recursive: true });
    checkOutDir(join(parent, 'out'), RUN_OUTPUT);
    expect(temporaries(parent).sort()).toEqual([foreign, live].sort());
  });

  it('killed between the two renames: no --out, the old tree aside; the next check puts it back', () => {
    const parent = join(dir, 'between');
    const out = join(parent, 'out');
    writeTreeAtomic(out, new Map([['run.json', runJson(1)], ['old.txt', 'old']]), RUN_OUTPUT);
    const pid = deadPid();
    const aside = join(parent, `.dcbkit-old-${hostTag()}-${pid}-a`);
    const stage = join(parent, `.dcbkit-stage-${hostTag()}-${pid}-b`);
    mkdirSync(stage);
    writeFileSync(join(stage, 'run.json'), runJson(2));
    writeFileSync(join(parent, `.dcbkit-swap-${hostTag()}-${pid}-c.json`), JSON.stringify({ mode: 'swap', target: out, stage, aside, keep: [] }));
    renameSync(out, aside); // the kill came here, before the stage was renamed to out
    checkOutDir(out, RUN_OUTPUT);
    expect(readdirSync(out).sort()).toEqual(['old.txt', 'run.json']);
    expect(temporaries(parent)).toEqual([]);
  });

  it('killed after the swap, before the kept entries moved: they move into the new tree, the aside goes', () => {
    const parent = join(dir, 'after');
    const out = join(parent, 'out');
    writeTreeAtomic(out, new Map([['run.json', runJson(2)]]), RUN_OUTPUT);
    const pid = deadPid();
    const aside = join(parent, `.dcbkit-old-${hostTag()}-${pid}-a`);
    mkdirSync(join(aside, 'shards'), { recursive: true });
    writeFileSync(join(aside, 'shards', 'log'), 'kept');
    writeFileSync(join(aside, 'run.json'), runJson(1));
    writeFileSync(join(parent, `.dcbkit-swap-${hostTag()}-${pid}-c.json`), JSON.stringify({ mode: 'swap', target: out, stage: join(parent, 'gone'), aside, keep: ['shards'] }));
    checkOutDir(out, RUN_OUTPUT);
    expect(readdirSync(out).sort()).toEqual(['run.json', 'shards']);
    expect(readFileSync(join(out, 'shards', 'log'), 'utf8')).toBe('kept');
    expect(JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')).n).toBe(2);
    expect(temporaries(parent)).toEqual([]);
  });

  it('killed in the middle of an in-place write: the earlier entries come back, the new ones go', () => {
    const out = join(dir, 'inplace');
    mkdirSync(out);
    writeFileSync(join(out, 'run.json'), runJson(1));
    writeFileSync(join(out, 'old.txt'), 'old');
    const pid = deadPid();
    const aside = join(out, `.dcbkit-old-${hostTag()}-${pid}-a`);
    const stage = join(out, `.dcbkit-stage-${hostTag()}-${pid}-b`);
    mkdirSync(stage);
    mkdirSync(aside);
    writeFileSync(join(out, `.dcbkit-swap-${hostTag()}-${pid}-c.json`), JSON.stringify({ mode: 'in-place', dir: out, stage, aside, earlier: ['old.txt', 'run.json'], fresh: ['new.txt', 'run.json'] }));
    // both earlier entries moved aside, the new run.json moved up; killed before new.txt
    renameSync(join(out, 'old.txt'), join(aside, 'old.txt'));
    renameSync(join(out, 'run.json'), join(aside, 'run.json'));
    writeFileSync(join(out, 'run.json'), runJson(2));
    writeFileSync(join(stage, 'new.txt'), 'new');
    checkOutDir(out, RUN_OUTPUT);
    expect(readdirSync(out).sort()).toEqual(['old.txt', 'run.json']);
    expect(JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')).n).toBe(1);
  });
});

describe('a permission change while a run works', () => {
  it.runIf(asRoot)('its parent made read-only during the run: exit 1 (an environment failure), as docs/reports.md says, nothing written', async () => {
    const parent = join(dir, 'ro');
    mkdirSync(parent);
    chmodSync(parent, 0o777);
    // long enough (about 7 s on an idle machine) that the change lands before the run writes
    writeFileSync(join(dir, 'medium.yaml'), tinyLasting('5s'));
    let r;
    for (let delay = 2000; ; delay *= 2) {
      // made read-only once the run has checked --out (exit 2 and a retry when the start was slower)
      r = await cliWith(['run', join(dir, 'medium.yaml'), '--out', join(parent, 'out')], delay, () => chmodSync(parent, 0o555));
      chmodSync(parent, 0o777);
      if (r.status !== 2 || delay >= 32_000) break;
    }
    const { stderr, status } = r;
    expect(stderr).toMatch(/^--out: cannot create ".*out": cannot create entries in ".*ro" \(permission denied\) \(this changed while the command ran\); nothing was changed\n$/);
    expect(status).toBe(1);
    expect(readdirSync(parent)).toEqual([]);
  });
});
