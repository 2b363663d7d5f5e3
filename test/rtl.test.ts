// The reference RTL (rtl/dcb_ets_sel.sv, rtl/dcb_pfc_acct.sv) against dcbkit's vectors and its C
// model (docs/rtl.md): `verilator --lint-only -Wall` is clean on the modules, the DPI-C package and
// every generated vectors package; the memh vectors of every shipped ETS and PFC stimulus replay
// cycle by cycle without a mismatch under Verilator and under Icarus Verilog; the random
// testbenches agree with the C model through DPI (and exercise strict, weighted and 0 % selections,
// XOFF, XON and drops); and a mutant of each module, one rule flipped, fails both its replay and its
// random testbench. Every model is built once per run (beforeAll).
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateMemh } from '../host/commands/vectors.js';
import { DPI_C, LAYOUT_PKG, ROOT, icarusBuild, rtl, runBench, timed, verilatorBuild } from './rtl-sim.js';
import { requireTool } from './helpers.js';

requireTool('verilator');
requireTool('iverilog');

const tmp = mkdtempSync(join(tmpdir(), 'dcbkit-rtl-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const mdir = join(tmp, 'obj');

interface VectorSet { name: string; dir: string; lines: number }
/** The memh vectors of every shipped stimulus of a kernel (examples/vectors/<kernel>*.json). */
function vectorSets(kernel: 'ets' | 'pfc'): VectorSet[] {
  const shipped = join(ROOT, 'examples', 'vectors');
  return readdirSync(shipped).filter((f) => f === `${kernel}.json` || f.startsWith(`${kernel}-`)).map((f) => {
    const dir = join(tmp, f.replace(/\.json$/, ''));
    const files = generateMemh(kernel, JSON.parse(readFileSync(join(shipped, f), 'utf8')));
    mkdirSync(dir);
    for (const [name, text] of files) writeFileSync(join(dir, name), text);
    const m = JSON.parse(files.get('manifest.json')!) as { counts: { stimulus: number; expected: number } };
    return { name: f.replace(/\.json$/, ''), dir, lines: m.counts.expected };
  });
}
// the testbenches size themselves from the set's package: the directory is all they are told
const plus = (v: VectorSet) => [`+vectors=${v.dir}`];

/** One rule of each module, flipped (the original text must be there, or the mutant would be the original). */
const MUTANTS = {
  ets: { file: 'dcb_ets_sel.sv', from: 'for (int i = 0; i < 8; i++) if (strict[i]) strict_tc = 3\'(i);', to: 'for (int i = 7; i >= 0; i--) if (strict[i]) strict_tc = 3\'(i);', rule: 'strict TCs served lowest number first' },
  pfc: { file: 'dcb_pfc_acct.sv', from: 'occ_unit_in >= {1\'b0, cfg_xoff[', to: 'occ_unit_in > {1\'b0, cfg_xoff[', rule: 'XOFF only above the threshold, not at it' },
} as const;

function mutant(kind: keyof typeof MUTANTS): string {
  const m = MUTANTS[kind];
  const text = readFileSync(rtl(m.file), 'utf8');
  if (!text.includes(m.from)) throw new Error(`mutant of ${m.file}: the rule "${m.from}" is not in the source`);
  const path = join(tmp, `mutant-${kind}`, m.file); // the file keeps the module's name (Verilator's DECLFILENAME)
  mkdirSync(join(tmp, `mutant-${kind}`), { recursive: true });
  writeFileSync(path, text.replace(m.from, m.to));
  return path;
}

const sets = { ets: [] as VectorSet[], pfc: [] as VectorSet[] };
const exe: Record<string, string> = {};
const times: Record<string, number> = {};

beforeAll(() => {
  const mutants = { ets: mutant('ets'), pfc: mutant('pfc') }; // first: a rule that moved fails at once
  sets.ets = vectorSets('ets');
  sets.pfc = vectorSets('pfc');
  // a set's package holds its word counts, so each set has its own replay model
  const pkg = (k: 'ets' | 'pfc', v: VectorSet) => join(v.dir, `dcbkit_${k}_pkg.sv`);
  const dut = { ets: rtl('dcb_ets_sel.sv'), pfc: rtl('dcb_pfc_acct.sv') };
  const builds: [string, () => { exe: string; ms: number }][] = [
    ['verilator ets random', () => verilatorBuild(mdir, 'Vets_random', 'tb_ets_random', [LAYOUT_PKG, rtl('dcbkit_dpi.sv'), rtl('dcb_ets_sel.sv'), rtl('tb/tb_ets_random.sv')], DPI_C)],
    ['verilator pfc random', () => verilatorBuild(mdir, 'Vpfc_random', 'tb_pfc_random', [LAYOUT_PKG, rtl('dcbkit_dpi.sv'), rtl('dcb_pfc_acct.sv'), rtl('tb/tb_pfc_random.sv')], DPI_C)],
    ['verilator ets random mutant', () => verilatorBuild(mdir, 'Vets_random_mutant', 'tb_ets_random', [LAYOUT_PKG, rtl('dcbkit_dpi.sv'), mutants.ets, rtl('tb/tb_ets_random.sv')], DPI_C)],
    ['verilator pfc random mutant', () => verilatorBuild(mdir, 'Vpfc_random_mutant', 'tb_pfc_random', [LAYOUT_PKG, rtl('dcbkit_dpi.sv'), mutants.pfc, rtl('tb/tb_pfc_random.sv')], DPI_C)],
  ];
  for (const k of ['ets', 'pfc'] as const) {
    for (const v of sets[k]) {
      const id = v.name.replace(/-/g, '_');
      builds.push(
        [`verilator ${k} replay ${v.name}`, () => verilatorBuild(mdir, `V${id}_replay`, `tb_${k}_replay`, [pkg(k, v), dut[k], rtl(`tb/tb_${k}_replay.sv`)])],
        [`icarus ${k} replay ${v.name}`, () => icarusBuild(join(tmp, `${id}_replay.vvp`), [pkg(k, v), dut[k], rtl(`tb/tb_${k}_replay.sv`)])],
        [`icarus ${k} replay mutant ${v.name}`, () => icarusBuild(join(tmp, `${id}_replay_mutant.vvp`), [pkg(k, v), mutants[k], rtl(`tb/tb_${k}_replay.sv`)])],
      );
    }
  }
  for (const [name, build] of builds) {
    const b = build();
    exe[name] = b.exe;
    times[`build ${name}`] = b.ms;
  }
}, 900_000);

afterAll(() => {
  // the figures docs/rtl.md quotes: wall-clock ms of every build and run of this test file
  console.log(`rtl timings (ms): ${JSON.stringify(Object.fromEntries(Object.entries(times).map(([k, v]) => [k, Math.round(v)])))}`);
});

function bench(name: string, sim: 'verilator' | 'icarus', args: string[], label = name) {
  const r = runBench(sim, exe[name], args);
  times[`run ${label}`] = (times[`run ${label}`] ?? 0) + r.ms;
  return r;
}

describe('verilator --lint-only -Wall', () => {
  const lint = (files: string[]) => timed('verilator', ['--lint-only', '-Wall', ...files]);
  it('is clean on both modules', () => {
    for (const f of ['dcb_ets_sel.sv', 'dcb_pfc_acct.sv']) {
      const r = lint([rtl(f)]);
      expect(r.out).toBe('');
      expect(r.status).toBe(0);
    }
  });
  it('is clean on the DPI-C package and every kernel\'s generated vectors package', () => {
    const top = (pkg: string) => {
      const f = join(tmp, 'lint_top.sv');
      writeFileSync(f, `module lint_top;\n  import ${pkg}::*;\nendmodule\n`);
      return f;
    };
    expect(lint([LAYOUT_PKG, rtl('dcbkit_dpi.sv'), top('dcbkit_dpi')]).out).toBe('');
    const shipped = join(ROOT, 'examples', 'vectors');
    for (const f of readdirSync(shipped).filter((x) => x.endsWith('.json'))) {
      const kernel = f.replace(/\.json$/, '').replace(/-(zero-bw|pause|msb|dcqcn)$/, '');
      const name = `dcbkit_${kernel.replace(/-/g, '_')}_pkg`;
      mkdirSync(join(tmp, 'lint', f), { recursive: true });
      const pkg = join(tmp, 'lint', f, `${name}.sv`); // a package's file is named after it (DECLFILENAME)
      writeFileSync(pkg, generateMemh(kernel, JSON.parse(readFileSync(join(shipped, f), 'utf8'))).get(`${name}.sv`)!);
      const r = lint([pkg, top(name)]);
      expect(r.out, f).toBe('');
      expect(r.status, f).toBe(0);
    }
  });
});

describe('memh vectors replayed cycle by cycle', () => {
  for (const kind of ['ets', 'pfc'] as const) {
    for (const sim of ['verilator', 'icarus'] as const) {
      it(`${kind} under ${sim}: every shipped vector set, every field`, () => {
        for (const v of sets[kind]) {
          const r = bench(`${sim} ${kind} replay ${v.name}`, sim, plus(v), `${sim} ${kind} replay`);
          expect(r.pass, `${v.dir}\n${r.out}`).toBe(`RESULT PASS ${v.lines}`);
          expect(r.status).toBe(0);
        }
      });
    }
  }
});

describe('a replay that cannot compare every line fails', () => {
  for (const kind of ['ets', 'pfc'] as const) {
    it(`${kind}: expected.memh shorter than the package says`, () => {
      const v = sets[kind][0];
      const dir = join(tmp, `short-${kind}`);
      mkdirSync(dir);
      for (const f of ['config.memh', 'stimulus.memh']) writeFileSync(join(dir, f), readFileSync(join(v.dir, f)));
      const words = readFileSync(join(v.dir, 'expected.memh'), 'utf8').split('\n');
      writeFileSync(join(dir, 'expected.memh'), words.slice(0, Math.floor(v.lines / 2)).join('\n') + '\n');
      for (const sim of ['icarus', 'verilator'] as const) {
        const r = bench(`${sim} ${kind} replay ${v.name}`, sim, [`+vectors=${dir}`], `${sim} ${kind} short`);
        // Icarus leaves the missing words X (caught on load); Verilator's are 0 (caught as mismatches)
        expect(r.out).toMatch(/^RESULT FAIL /m);
        expect(r.pass).toBeUndefined();
        expect(r.status).not.toBe(0);
      }
    });
  }
});

describe('random stimulus against the C model through DPI (Verilator)', () => {
  it('dcb_ets_sel: 50 000 clocks over 25 configurations', () => {
    const r = bench('verilator ets random', 'verilator', ['+seed=48879']);
    expect(r.status, r.out).toBe(0);
    const m = /^RESULT PASS (\d+) \(strict (\d+), weighted (\d+), zero-bandwidth (\d+)\)$/m.exec(r.out);
    expect(m, r.out).not.toBeNull();
    expect(Number(m![1])).toBeGreaterThan(30_000); // a selection on about 70 % of the clocks
    for (const n of m!.slice(2)) expect(Number(n)).toBeGreaterThan(100);
  });
  it('dcb_pfc_acct: 50 000 frames over 25 configurations', () => {
    const r = bench('verilator pfc random', 'verilator', ['+seed=48879']);
    expect(r.status, r.out).toBe(0);
    const m = /^RESULT PASS (\d+) \(XOFF (\d+), XON (\d+), drops (\d+)\)$/m.exec(r.out);
    expect(m, r.out).not.toBeNull();
    expect(Number(m![1])).toBe(50_000);
    for (const n of m!.slice(2)) expect(Number(n)).toBeGreaterThan(100);
  });
});

describe('a flipped rule fails both testbenches', () => {
  for (const kind of ['ets', 'pfc'] as const) {
    it(`${kind}: ${MUTANTS[kind].rule}`, () => {
      const replays = sets[kind].map((v) => bench(`icarus ${kind} replay mutant ${v.name}`, 'icarus', plus(v), `icarus ${kind} replay mutant`));
      expect(replays.some((r) => /^RESULT FAIL [1-9]\d* mismatches/m.test(r.out) && r.status !== 0), replays.map((r) => r.out).join('\n')).toBe(true);
      const random = bench(`verilator ${kind} random mutant`, 'verilator', ['+seed=1']);
      expect(random.out).toMatch(/^RESULT FAIL \d+$/m);
      expect(random.status).not.toBe(0);
    });
  }
});
