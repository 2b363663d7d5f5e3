// Messages a new user meets in the first hour (issue: "rough edges found by a new user"): unknown
// scenario keys say which keys are allowed and in what kind of document; a bad sweep value is
// reported once, at the --param that gives it; a misspelt option gets "did you mean"; Ctrl-C in a
// sweep says what happened, as run does, exit 130; vectors says where its stimulus is documented
// and prints a sample of each kernel's.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../host/core/loader.js';
import { runCli } from './helpers.js';

const root = packageRoot();
const tmp = mkdtempSync(join(tmpdir(), 'dcbkit-messages-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const TINY = readFileSync(join(root, 'examples', 'sim-tiny', 'scenario.yaml'), 'utf8');

describe('unknown scenario keys', () => {
  it('name the document kind and list the keys allowed there, in validate and run alike', () => {
    const file = join(tmp, 'typo.yaml');
    writeFileSync(file, TINY.replace('buffer: {size: 1MB, headroom: auto}', 'buffer: {size: 1MB, headroom: auto, pg_bufer: 1}'));
    const line = 'defaults.buffer.pg_bufer: unknown key in a scenario (docs/sim.md); allowed keys here: size, headroom, xoff, pg_buffer, xon_offset, lossy_queue\n';
    for (const cmd of [['validate', file], ['run', file], ['analyze', 'deadlock', file]]) {
      const r = runCli(cmd);
      expect(r.status, cmd[0]).toBe(2);
      expect(r.stderr, cmd[0]).toBe(line);
    }
  });

  it('a stimulus says it is one, with its keys', () => {
    const r = runCli(['vectors', 'qcn-rp', '--stimulus', '-'], { input: '{"events":[{"t_ps":0,"type":"cnm","qf":4,"bogus":1}]}' });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('events[0].bogus: unknown key in a qcn-rp stimulus; allowed keys here: t_ps, type, qf\n');
  });
});

describe('sweep --param values', () => {
  it('a bad value is reported once, at --param[i], however many grid points carry it', () => {
    const r = runCli(['sweep', 'examples/sim-tiny/scenario.yaml', '--param', 'seed=1,2,3', '--param', 'defaults.link.speed=100G,fast']);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('--param[1]: defaults.link.speed=fast: a rate needs a unit: bit/s with a prefix k, M, G or T, written G, Gbps, Gb/s or Gbit, e.g. 100G; got "fast"\n');
    // a problem of the scenario itself, the same at every point, is reported once at its own path
    const bad = join(tmp, 'bad-seed.yaml');
    writeFileSync(bad, TINY.replace(/^seed: 1$/m, 'seed: -1'));
    expect(runCli(['sweep', bad, '--param', 'duration=100us,200us']).stderr).toBe('seed: must be at least 0\n');
  });
});

describe('misspelt options', () => {
  it('get "did you mean", as misspelt commands do, and the option meant is not also reported missing', () => {
    const r = runCli(['headroom', '--sped', '100G', '--cable', '5m']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^--sped: unknown option for dcbkit headroom; did you mean --speed\? \(its options are --speed, --cable, /);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(runCli(['run', 'examples/sim-tiny/scenario.yaml', '--jsn']).stderr).toMatch(/^--jsn: unknown option for dcbkit run; did you mean --json\?/);
    // nothing close: no guess
    expect(runCli(['run', 'examples/sim-tiny/scenario.yaml', '--xyzzy']).stderr).toBe('--xyzzy: unknown option for dcbkit run; its options are --out, --json, --max-memory, --threads, --pcap, --pcap-ports, --pcap-snaplen\n');
  });
});

describe('an interrupted sweep', () => {
  it('prints what run prints: what was under way and that nothing was written; exit 130', async () => {
    const out = join(tmp, 'sweep-out');
    // Four 60 s runs of the converged link (about 20 s of wall time each, sampled every 10 ms so that the
    // series stay small), one at a time: Ctrl-C after 6 s lands in the first. Points of 4 s of simulated
    // time once finished the whole sweep (exit 0) before the 6 s were up.
    const child = spawn(process.execPath, [join(root, 'dist', 'host', 'cli', 'main.js'), 'sweep', 'examples/converged-link/scenario.yaml',
      '--param', 'seed=1,2,3,4', '--param', 'duration=60s', '--param', 'sample=10ms', '--jobs', '1', '--out', out], { cwd: root });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    await new Promise((r) => setTimeout(r, 6000));
    child.kill('SIGINT');
    const code = await new Promise<number | null>((r) => child.on('close', (c) => r(c)));
    expect(code).toBe(130);
    expect(stderr).toMatch(/^dcbkit: interrupted [\d.]+ s into a sweep of 4 points \(the finished ones are lost\); nothing written: .*sweep-out is as it was\n$/);
    expect(existsSync(out)).toBe(false);
  }, 30_000);
});

describe('dcbkit vectors', () => {
  const kernels = ['qcn-rp', 'qcn-cp', 'ets', 'pfc', 'credit'];

  it('--help says where each stimulus format is documented and how to get a sample', () => {
    const help = runCli(['vectors', '--help']).stdout.replace(/\s+/g, ' ');
    for (const page of ['docs/qcn.md', 'docs/ets.md', 'docs/pfc.md', 'docs/credit.md']) expect(help).toContain(page);
    expect(help).toContain('--example');
    expect(runCli(['vectors', 'ets']).stderr).toBe('--stimulus: required (stimulus JSON file, or - for stdin; format in docs/ets.md; `dcbkit vectors ets --example` prints a sample; or --random N --seed S)\n');
  });

  it.each(kernels)('%s --example prints examples/vectors/KERNEL.json, a stimulus the kernel runs', (kernel) => {
    const sample = runCli(['vectors', kernel, '--example']);
    expect(sample.status).toBe(0);
    expect(sample.stdout).toBe(readFileSync(join(root, 'examples', 'vectors', `${kernel}.json`), 'utf8'));
    const r = runCli(['vectors', kernel, '--stimulus', '-'], { input: sample.stdout });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout.trim().split('\n').length).toBeGreaterThanOrEqual((JSON.parse(sample.stdout) as { events: unknown[] }).events.length);
  });
});

describe('what run and gen clos give a first-time user', () => {
  it('run says why there is no ETS share error instead of "n/a pp"', () => {
    const r = runCli(['run', 'examples/sim-tiny/scenario.yaml']);
    expect(r.status).toBe(0);
    expect(r.stdout).not.toContain('n/a pp');
    expect(r.stdout).toContain('ETS share error: not measured (no port had two or more weighted ETS traffic classes all backlogged in a sampling interval)');
    expect(runCli(['run', 'examples/converged-link/scenario.yaml']).stdout).toMatch(/^ETS max share error: [\d.]+ pp; /m);
  });

  it('gen clos writes one flow per line and default series, so its report has plots of the loaded ports', () => {
    const g = runCli(['gen', 'clos', '--k', '4', '--flows', '5', '--duration', '20us', '--pattern', 'incast', '--seed', '3']);
    expect(g.status, g.stderr).toBe(0);
    const flowLines = g.stdout.split('\n').filter((l) => /^ {4}- \{ src: h\S+, dst: h\S+, priority: 3, frames: 1500 \}$/.test(l));
    expect(flowLines).toHaveLength(5);
    const file = join(tmp, 'clos.yaml');
    writeFileSync(file, g.stdout);
    const v = runCli(['validate', file, '--json']);
    expect(v.status, v.stderr).toBe(0);
    const series = (JSON.parse(v.stdout) as { document: { seriesPorts: number[]; seriesFlows: number[] } }).document;
    expect(series.seriesPorts.length).toBeGreaterThan(1);
    expect(series.seriesFlows).toEqual([0, 1, 2, 3, 4]);
    // the incast's one receiver: the edge port into it is the first series
    const dst = /dst: (h\S+),/.exec(flowLines[0])![1];
    expect(g.stdout).toMatch(new RegExp(`ports:\\s*\\[\\s*edge\\d_\\d>${dst},`));
    const out = join(tmp, 'clos-out');
    expect(runCli(['run', file, '--out', out]).status).toBe(0);
    expect(readdirSync(out).filter((f) => f.endsWith('.svg')).length).toBeGreaterThan(1);
  });
});
