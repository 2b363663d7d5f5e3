// One config down to the RTL: for each of three configs (examples/vectors/configs/: MTU 9216 with
// 50/30/20; a 0 % TC beside a strict TC; PFC on two priorities over 2 km) the reference RTL is
// programmed from the register image alone (DCB_REGS_IMAGE of `codegen --target sv`, decoded by
// rtl/dcb_regs_ets_cfg.sv and rtl/dcb_regs_pfc_cfg.sv) and replays `vectors --config` vectors under
// Icarus Verilog and Verilator, every line compared. Each set is the shipped example's events
// followed by a random set of the same config (`--random`), so one model per config and kernel
// covers both. The C model, configured by test/c/regs_replay.c through the generated dcb_regs.h
// getters from dcb_regs.bin, prints the same lines. A register image with one quantum one credit
// too large makes the ETS replay fail.
// Every model is built once, in beforeAll.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codegenFiles } from '../host/commands/codegen.js';
import { exampleStimulus, generateMemh, generateVectors, prepareRun, runPrepared } from '../host/commands/vectors.js';
import { svTarget } from '../codegen/sv.js';
import { ROOT, icarusBuild, rtl, runBench, verilatorBuild } from './rtl-sim.js';
import { requireTool } from './helpers.js';
import { E2E_CONFIGS } from './vectors-configs.js';

requireTool('verilator');
requireTool('iverilog');

const tmp = mkdtempSync(join(tmpdir(), 'dcbkit-rtl-regs-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const mdir = join(tmp, 'obj');
const RANDOM = { events: 1500, seed: 2026 };
type Kernel = 'ets' | 'pfc';
type Stim = { events: Record<string, unknown>[] } & Record<string, unknown>;

/**
 * The shipped example's events, then a random set drawn for the config. PFC: the example's queues
 * are drained first (departures of what it left queued) and the random times follow its last, so
 * the random set starts from the empty port its generator assumed.
 */
function shippedThenRandom(kernel: Kernel, config: string): Stim {
  const shipped = JSON.parse(exampleStimulus(kernel)) as Stim;
  const random = prepareRun(kernel, undefined, { config }, RANDOM).stimulus as Stim;
  if (kernel === 'ets') return { ...random, events: [...shipped.events, ...random.events] };
  const last = generateVectors('pfc', shipped, { config }).at(-1) as { t_ps: number; occ: number[] };
  const drain = last.occ.slice(0, 8).flatMap((occ, prio) => {
    const out = [];
    for (let left = occ; left > 0; left -= Math.min(left, 65535)) out.push({ t_ps: last.t_ps, type: 'depart', prio, bytes: Math.min(left, 65535) });
    return out;
  });
  const later = random.events.map((e) => ({ ...e, t_ps: (e.t_ps as number) + last.t_ps + 1 }));
  return { ...random, events: [...shipped.events, ...drain, ...later] };
}

interface Model { name: string; kernel: Kernel; config: string; stimulus: Stim; lines: number; dir: string; exe: { icarus: string; verilator: string } }
const models: Model[] = [];
const coverage: string[] = [];
const cmodel = new Map<string, { exe: string; image: string }>();
let mutantExe = '';
let mutantDir = '';

beforeAll(() => {
  E2E_CONFIGS.forEach((config, ci) => {
    const cname = config.replace(/.*\//, '').replace(/\.yaml$/, '');
    const gen = codegenFiles(config, ['sv', 'c-header']);
    // the C model linked with this config's dcb_regs.h, reading its dcb_regs.bin at run time
    const cdir = join(tmp, cname, 'c-header');
    mkdirSync(cdir, { recursive: true });
    for (const f of ['dcb_regs.h', 'dcb_regs.bin']) writeFileSync(join(cdir, f), gen.files.get(`c-header/${f}`)!);
    const cc = spawnSync('cc', ['-std=c99', '-Wall', '-Wextra', '-Werror', '-O1', `-I${join(ROOT, 'build')}`, `-I${join(ROOT, 'cmodel')}`, `-I${cdir}`, '-o', join(cdir, 'regs_replay'),
      join(ROOT, 'test', 'c', 'regs_replay.c'), ...['ets.c', 'pfc.c', 'qcn_cp.c', 'rng.c'].map((f) => join(ROOT, 'cmodel', f))], { encoding: 'utf8' });
    if (cc.status !== 0) throw new Error(`cc regs_replay: ${cc.stderr}`);
    cmodel.set(config, { exe: join(cdir, 'regs_replay'), image: join(cdir, 'dcb_regs.bin') });
    const regs = join(tmp, cname, 'regs', 'dcb_regs_pkg.sv'); // a package's file is named after it
    mkdirSync(join(tmp, cname, 'regs'), { recursive: true });
    writeFileSync(regs, gen.files.get('sv/dcb_regs_pkg.sv') as string);
    for (const kernel of ['ets', 'pfc'] as const) {
      const name = `${cname} ${kernel}`;
      const dir = join(tmp, cname, kernel);
      mkdirSync(dir);
      const stimulus = shippedThenRandom(kernel, config);
      const files = generateMemh(kernel, stimulus, { config });
      for (const [f, text] of files) writeFileSync(join(dir, f), text);
      const lines = (JSON.parse(files.get('manifest.json')!) as { counts: { expected: number } }).counts.expected;
      coverage.push(runPrepared(prepareRun(kernel, undefined, { config }, RANDOM)).coverage!);
      const sources = [regs, rtl('dcb_regs_read_pkg.sv'), rtl(`dcb_regs_${kernel}_cfg.sv`), join(dir, `dcbkit_${kernel}_pkg.sv`), rtl(kernel === 'ets' ? 'dcb_ets_sel.sv' : 'dcb_pfc_acct.sv'), rtl(`tb/tb_${kernel}_replay.sv`)];
      const id = `${cname}_${kernel}`.replace(/-/g, '_');
      const exe = {
        icarus: icarusBuild(join(tmp, `${id}.vvp`), ['-DDCBKIT_REGS', ...sources]).exe,
        verilator: verilatorBuild(mdir, `V${id}`, `tb_${kernel}_replay`, ['-DDCBKIT_REGS', ...sources]).exe,
      };
      models.push({ name, kernel, config, stimulus, lines, dir, exe });
      if (ci === 0 && kernel === 'ets') {
        // the wrong register: TC 0's quantum one 64-byte credit above what the config gives
        const tcs = gen.ir.tcs.map((t) => (t.tc === 0 ? { ...t, quantumBytes: t.quantumBytes + 64 } : t));
        const wrong = svTarget.emit({ ...gen.ir, tcs }).files['dcb_regs_pkg.sv'] as string;
        if (wrong === gen.files.get('sv/dcb_regs_pkg.sv')) throw new Error('the mutant image equals the original');
        mkdirSync(join(tmp, 'wrong'));
        writeFileSync(join(tmp, 'wrong', 'dcb_regs_pkg.sv'), wrong);
        mutantExe = icarusBuild(join(tmp, 'wrong.vvp'), ['-DDCBKIT_REGS', join(tmp, 'wrong', 'dcb_regs_pkg.sv'), ...sources.slice(1)]).exe;
        mutantDir = dir;
      }
    }
  });
  console.log(`${coverage.join('\n')}\nreplay lines: ${models.map((m) => `${m.name} ${m.lines}`).join(', ')}`);
}, 900_000);

describe('the RTL programmed from the register image replays vectors --config', () => {
  for (const sim of ['icarus', 'verilator'] as const) {
    it(`${sim}: three configs, ETS and PFC, every line`, () => {
      expect(models.length).toBe(6);
      for (const m of models) {
        const r = runBench(sim, m.exe[sim], [`+vectors=${m.dir}`]);
        expect(r.pass, `${m.name}\n${r.out.slice(-2000)}`).toBe(`RESULT PASS ${m.lines}`);
        expect(m.lines).toBeGreaterThan(RANDOM.events); // the shipped events and the random set
        expect(r.status).toBe(0);
      }
    });
  }

  it('the random sets cover XOFF, XON, drops, strict / weighted / 0 % selections and carry-overs', () => {
    const count = (kernel: string, key: string) => coverage.filter((l) => l.startsWith(`coverage ${kernel} `)).map((l) => Number(new RegExp(`[:,] ${key} (\\d+)`).exec(l)![1])).reduce((a, b) => a + b, 0);
    for (const key of ['strict', 'weighted', 'zero-bw', 'carry-overs']) expect(count('ets', key), key).toBeGreaterThan(0);
    for (const key of ['xoff', 'xon', 'drops', 'refreshes']) expect(count('pfc', key), key).toBeGreaterThan(0);
  });

  it('one quantum off by one credit in the image fails the replay', () => {
    const r = runBench('icarus', mutantExe, [`+vectors=${mutantDir}`]);
    expect(r.out).toMatch(/^RESULT FAIL [1-9]\d* mismatches/m);
    expect(r.out).toMatch(/^MISMATCH line \d+ deficit\[0\]/m);
    expect(r.status).not.toBe(0);
  });
});

/** The stimulus events as regs_replay's text lines. */
function eventText(kernel: Kernel, s: Stim): string {
  return s.events.map((e) => {
    if (kernel === 'ets') return e.type === 'enq' ? `enq ${e.prio} ${e.bytes}` : e.type === 'tx' ? 'tx' : `block ${(e.tcs as number[]).reduce((m, t) => m | (1 << t), 0)}`;
    const rest = e.type === 'arrive' || e.type === 'depart' ? `${e.prio} ${e.bytes}` : e.type === 'rx_pfc' ? `${e.enable_vector} ${(e.time as number[]).join(' ')}` : e.type === 'rx_pause' ? `${e.time}` : '';
    return `${e.t_ps} ${e.type} ${rest}`;
  }).join('\n') + '\n';
}

/** The fields regs_replay prints, from a JSON line. */
function lineFields(kernel: Kernel, l: Record<string, any>): string {
  if (kernel === 'ets') return [l.tc ?? -1, l.bytes, l.cur, ...l.deficit, ...l.queued_frames, (l.blocked as number[]).reduce((m, t) => m | (1 << t), 0)].join(' ');
  return [l.t_ps, l.type, l.dropped, l.tx_mask, ...l.tx_time, ...l.occ, l.xoff_state].join(' ');
}

describe('the C model configured through dcb_regs.h gives the same vectors', () => {
  it('three configs, ETS and PFC, every line', () => {
    for (const m of models) {
      const c = cmodel.get(m.config)!;
      const r = spawnSync(c.exe, [c.image, m.kernel, '0'], { input: eventText(m.kernel, m.stimulus), encoding: 'utf8', maxBuffer: 64 << 20 });
      expect(r.status, r.stderr).toBe(0);
      const got = r.stdout.trim().split('\n');
      const want = (generateVectors(m.kernel, m.stimulus, { config: m.config }) as Record<string, any>[]).map((l) => lineFields(m.kernel, l));
      expect(got.length, m.name).toBe(m.lines);
      got.forEach((g, i) => expect(g, `${m.name} line ${i}`).toBe(want[i]));
    }
  });
});

describe('the image the shims decode is the one the vectors name', () => {
  it('manifest register_image_sha256 is codegen\'s dcb_regs.bin', () => {
    for (const config of E2E_CONFIGS) {
      const bin = codegenFiles(config, ['c-header']).manifest.files.find((f) => f.path === 'c-header/dcb_regs.bin')!;
      const m = JSON.parse(readFileSync(join(models.find((x) => x.name.startsWith(config.replace(/.*\//, '').replace(/\.yaml$/, '')))!.dir, 'manifest.json'), 'utf8')) as { source: { register_image_sha256: string } };
      expect(m.source.register_image_sha256).toBe(bin.sha256);
    }
  });
});
