// The congestion point from the register image, a driver's view: the C model (cmodel/qcn_cp.c),
// configured by test/c/regs_replay.c through the generated dcb_regs.h getters on dcb_regs.bin,
// prints the same lines as `vectors qcn-cp --config` for every TC with a congestion point of two
// configs (examples/vectors/configs/qcn-credit.yaml: qau-pc with the msb quantiser, Qeq rounded up
// to whole cells; dcqcn.yaml: ECN marking), for the shipped stimuli and a random set of each config.
// One Qeq or Kmin cell more in the image changes the lines.
// The reference RTL has no QCN block, so there is no RTL replay here.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codegenFiles } from '../host/commands/codegen.js';
import { generateVectors, prepareRun, runPrepared } from '../host/commands/vectors.js';
import { BLOCKS, imageField } from '../codegen/c-header.js';
import { ROOT } from './rtl-sim.js';

const tmp = mkdtempSync(join(tmpdir(), 'dcbkit-rtl-regs-qcn-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

type Line = Record<string, any>;
interface Case { config: string; profile: 'qau-pc' | 'dcqcn'; quantiser: string; tcs: number[]; stimulus: { seed: number; events: { type: string; bytes: number }[] } }
const sample = (name: string) => JSON.parse(readFileSync(join(ROOT, 'examples', 'vectors', `${name}.json`), 'utf8'));
const CASES: Case[] = [
  { config: 'qcn-credit', profile: 'qau-pc', quantiser: 'msb', tcs: [0, 3], stimulus: sample('qcn-cp') },
  { config: 'dcqcn', profile: 'dcqcn', quantiser: 'linear', tcs: [3], stimulus: sample('qcn-cp-dcqcn') },
];
const configPath = (c: Case) => join(ROOT, 'examples', 'vectors', 'configs', `${c.config}.yaml`);
const built = new Map<string, { exe: string; image: Uint8Array }>();

beforeAll(() => {
  for (const c of CASES) {
    const dir = join(tmp, c.config);
    mkdirSync(dir);
    const gen = codegenFiles(configPath(c), ['c-header']);
    for (const f of ['dcb_regs.h', 'dcb_regs.bin']) writeFileSync(join(dir, f), gen.files.get(`c-header/${f}`)!);
    const cc = spawnSync('cc', ['-std=c99', '-Wall', '-Wextra', '-Werror', '-O1', `-I${join(ROOT, 'build')}`, `-I${join(ROOT, 'cmodel')}`, `-I${dir}`, '-o', join(dir, 'regs_replay'),
      join(ROOT, 'test', 'c', 'regs_replay.c'), ...['ets.c', 'pfc.c', 'qcn_cp.c', 'rng.c'].map((f) => join(ROOT, 'cmodel', f))], { encoding: 'utf8' });
    if (cc.status !== 0) throw new Error(`cc regs_replay: ${cc.stderr}`);
    built.set(c.config, { exe: join(dir, 'regs_replay'), image: gen.files.get('c-header/dcb_regs.bin') as Uint8Array });
  }
});

/** regs_replay's lines for the case's events on TC `tc` of `image`. */
function replay(c: Case, tc: number, image: Uint8Array): string[] {
  const b = built.get(c.config)!;
  const bin = join(tmp, c.config, `image-${tc}.bin`);
  writeFileSync(bin, image);
  const input = c.stimulus.events.map((e) => `${e.type} ${e.bytes}`).join('\n') + '\n';
  const r = spawnSync(b.exe, [bin, 'qcn-cp', String(tc), String(c.stimulus.seed ?? 1), c.profile, c.quantiser], { input, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`regs_replay: ${r.stderr}`);
  return r.stdout.trim().split('\n');
}

/** The fields regs_replay prints, from a vectors line. */
const fields = (c: Case, l: Line) => (c.profile === 'dcqcn'
  ? [l.q, l.p_q16, l.ce]
  : [l.q, l.q_old, l.fb, l.qf, l.ttm, l.cnm ? 1 : 0, l.cnm?.qf ?? 0, l.cnm?.q_off ?? 0, l.cnm?.q_delta ?? 0]).join(' ');

describe('the C model configured through dcb_regs.h gives the qcn-cp vectors of --config', () => {
  for (const c of CASES) {
    it(`${c.config} (${c.profile}), TCs ${c.tcs.join(', ')}, every line`, () => {
      for (const tc of c.tcs) {
        const want = (generateVectors('qcn-cp', c.stimulus, { config: configPath(c), tc }) as Line[]).map((l) => fields(c, l));
        const got = replay(c, tc, built.get(c.config)!.image);
        expect(got.length).toBe(c.stimulus.events.length);
        got.forEach((g, i) => expect(g, `${c.config} TC ${tc} line ${i}`).toBe(want[i]));
        // the set exercises what the registers set: CNMs (qau-pc) or marks (dcqcn)
        expect(want.some((w) => (c.profile === 'dcqcn' ? w.endsWith(' 1') : w.split(' ')[5] === '1'))).toBe(true);
      }
    });
  }

  it('random sets drawn for each config (--random 2000 --seed 11), every line', () => {
    for (const c of CASES) {
      const tc = c.tcs[0];
      const run = prepareRun('qcn-cp', undefined, { config: configPath(c), tc }, { events: 2000, seed: 11 });
      const want = (runPrepared(run).lines as Line[]).map((l) => fields(c, l));
      const got = replay({ ...c, stimulus: run.stimulus as Case['stimulus'] }, tc, built.get(c.config)!.image);
      expect(got.length).toBe(2000);
      got.forEach((g, i) => expect(g, `${c.config} random line ${i}`).toBe(want[i]));
    }
  });

  it('one cell more of Qeq or Kmin in the image changes the replay', () => {
    for (const c of CASES) {
      const tc = c.tcs.at(-1)!;
      const image = Uint8Array.from(built.get(c.config)!.image);
      // one more in the field, at its place in the TC block of the register map
      const field = c.profile === 'dcqcn' ? 'ecn_kmin_cells' : 'qcn_qeq_cells';
      const block = BLOCKS.find((x) => x.name === 'tc')!;
      const fl = block.fields.find((x) => x.name === field)!;
      const before = imageField(image, 'tc', tc, field);
      const word = new DataView(image.buffer);
      const addr = block.base + block.stride * tc + fl.offset;
      word.setUint32(addr, word.getUint32(addr, true) + 2 ** fl.shift, true);
      expect(imageField(image, 'tc', tc, field)).toBe(before + 1);
      const want = (generateVectors('qcn-cp', c.stimulus, { config: configPath(c), tc }) as Line[]).map((l) => fields(c, l));
      expect(replay(c, tc, image)).not.toEqual(want);
    }
  });
});
