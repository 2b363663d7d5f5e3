// `dcbkit vectors qcn-cp|qcn-rp|credit --config CONFIG [--tc N | --priority P]`: each kernel gives
// the vectors of a hand-written stimulus whose parameters are the ones the config implies, worked
// out here from the config's documented formulas (docs/config.md, docs/rtl.md): qcn-cp from the
// register image (thresholds rounded up to whole cells of the device's 256 B), qcn-rp from qcn.rp
// (line rate = port speed when absent; g and alpha_init in 1/1024), credit from the credit section
// (receiver buffer = the port's headroom by the headroom model, in whole cells). Then the selectors'
// defaults and refusals, and the manifest's source fields.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { codegenFiles } from '../host/commands/codegen.js';
import { generateMemh, generateVectors, prepareRun } from '../host/commands/vectors.js';
import { InputError } from '../host/errors/errors.js';
import { computeHeadroom } from '../host/analysis/headroom.js';
import { packageRoot } from '../host/core/loader.js';
import { runCli } from './helpers.js';

const ROOT = packageRoot();
const CONFIGS = join(ROOT, 'examples', 'vectors', 'configs');
const QCN_CREDIT = join(CONFIGS, 'qcn-credit.yaml');
const DCQCN = join(CONFIGS, 'dcqcn.yaml');
/** Cell of the default device generic-8q (codegen/device.ts): the register image's threshold unit. */
const CELL = 256;
const cells = (bytes: number) => Math.ceil(bytes / CELL) * CELL;
/** A shipped sample stimulus, examples/vectors/NAME.json. */
const example = (name: string) => JSON.parse(readFileSync(join(ROOT, 'examples', 'vectors', `${name}.json`), 'utf8')) as { seed?: number; params?: object; events: object[] };
const US = 1_000_000; // ps

/** The problems an InputError carries, as `path: rule` lines. */
function refusal(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof InputError) return e.problems.map((p) => `${p.path}: ${p.rule}`).join('\n');
    throw e;
  }
  throw new Error('no InputError');
}

/** A config file (YAML text) in this run's own temporary folder. */
const TMP = mkdtempSync(join(tmpdir(), 'dcbkit-vectors-config-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));
function configFile(name: string, text: string): string {
  const path = join(TMP, name);
  writeFileSync(path, text);
  return path;
}

describe('vectors --config for qcn-cp, qcn-rp and credit equals a hand-written stimulus', () => {
  it('qcn-cp qau-pc: Qeq 30000 B -> 118 cells = 30208 B, w 3, quantiser msb (TC 0 default, TC 3)', () => {
    const s = example('qcn-cp');
    const want = { ...s, params: { profile: 'qau-pc', q_eq: cells(30000), w: 3, quantiser: 'msb' } };
    expect(want.params.q_eq).toBe(30208);
    const byHand = generateVectors('qcn-cp', want);
    expect(generateVectors('qcn-cp', s, { config: QCN_CREDIT })).toEqual(byHand);
    // both CP TCs carry the same qcn.cp values: TC 3 gives the same lines
    expect(generateVectors('qcn-cp', s, { config: QCN_CREDIT, tc: 3 })).toEqual(byHand);
    // and the config's values matter: the stimulus's own (default Qeq 26000, linear) give other lines
    expect(generateVectors('qcn-cp', { ...s, params: { profile: 'qau-pc' } })).not.toEqual(byHand);
  });

  it('qcn-cp dcqcn: Kmin 5000 -> 5120 B, Kmax 200000 -> 200192 B, Pmax 7 %', () => {
    const s = example('qcn-cp');
    const want = { ...s, params: { profile: 'dcqcn', kmin_bytes: cells(5000), kmax_bytes: cells(200000), pmax: 7 / 100 } };
    expect([want.params.kmin_bytes, want.params.kmax_bytes]).toEqual([5120, 200192]);
    const got = generateVectors('qcn-cp', s, { config: DCQCN });
    expect(got).toEqual(generateVectors('qcn-cp', want));
    expect(got.some((l) => (l as { ce: number }).ce === 1)).toBe(true); // the stimulus does mark
  });

  it('qcn-rp qau-pc: qcn.rp values, line rate = the port\'s 100 Gb/s, MIB defaults elsewhere', () => {
    const s = example('qcn-rp');
    const want = {
      ...s,
      params: {
        profile: 'qau-pc', line_bps: 100e9, bc_bytes: 100000, timer_ps: 15_000 * US, th: 4, ai_bps: 5e6, hai_bps: 50e6,
        min_bps: 5e6, gd_shift: 6, min_dec_num: 32, extra_fast_recovery: true,
      },
    };
    expect(generateVectors('qcn-rp', s, { config: QCN_CREDIT })).toEqual(generateVectors('qcn-rp', want));
    expect(generateVectors('qcn-rp', s, { config: QCN_CREDIT, priority: 6 })).toEqual(generateVectors('qcn-rp', want));
  });

  it('qcn-rp dcqcn: g = 2^-8 = 4/1024, alpha_init 1/2 = 512/1024, CNP spacing 40 us, line 25 Gb/s', () => {
    const s = example('qcn-rp-dcqcn');
    const want = {
      ...s,
      params: {
        profile: 'dcqcn', line_bps: 25e9, bc_bytes: 10_000_000, timer_ps: 55 * US, th: 5, ai_bps: 20e6, hai_bps: 200e6, min_bps: 5e6,
        alpha_timer_ps: 55 * US, alpha_bits: 20, g_q10: 1024 / 2 ** 8, alpha_init_q10: 1024 / 2, alpha_cut_shift: 1, min_dec_pct: 0,
        first_cnp_bps: 0, clamp_tgt_rate: true, clamp_tgt_rate_after_time_inc: false, cnp_spacing_ps: 40 * US,
      },
    };
    expect(generateVectors('qcn-rp', s, { config: DCQCN })).toEqual(generateVectors('qcn-rp', want));
  });

  it('credit: k 12, unit 128 B, aging 50 us, buffer = the port\'s headroom in whole cells (priority 5 default, 7)', () => {
    const s = example('credit');
    const events = s.events.map((e) => { const { prio: _p, ...rest } = e as { prio?: number }; return rest; });
    const headroom = computeHeadroom({ speedBps: 100e9, cableM: 100, mtu: 9216 }).headroom_bytes;
    const params = { k: 12, unit: 128, buffer_bytes: cells(headroom), aging_ps: 50 * US };
    for (const prio of [5, 7]) {
      const byHand = generateVectors('credit', { params, events: events.map((e) => ({ ...e, prio })) });
      const opts = prio === 5 ? { config: QCN_CREDIT } : { config: QCN_CREDIT, priority: prio };
      expect(generateVectors('credit', { events }, opts)).toEqual(byHand);
      expect(byHand.every((l) => (l as { prio: number }).prio === prio)).toBe(true);
    }
  });

  it('credit: a fixed pfc.headroom in bytes is the buffer, rounded up to whole cells', () => {
    const path = configFile('credit-fixed.yaml', 'pfc: {enable: [3], headroom: 50000}\ncredit: {priorities: [1]}\n');
    const events = [{ t_ps: 0, type: 'grant_tx' }, { t_ps: 1, type: 'grant_rx' }];
    const byHand = generateVectors('credit', { params: { k: 16, unit: 64, buffer_bytes: cells(50000), aging_ps: 100 * US }, events: events.map((e) => ({ ...e, prio: 1 })) });
    expect(generateVectors('credit', { events }, { config: path })).toEqual(byHand);
  });
});

describe('--tc / --priority refusals', () => {
  const run = (kernel: string, opts: object, stimulus: unknown = example(kernel)) => () => prepareRun(kernel, stimulus, opts);
  it('a selector the kernel does not take, out of range, not enabled, or without --config', () => {
    expect(refusal(run('qcn-cp', { config: QCN_CREDIT, priority: 3 }))).toBe('--priority: kernel qcn-cp models no single priority; it takes --tc');
    expect(refusal(run('qcn-rp', { config: QCN_CREDIT, tc: 3 }))).toBe('--tc: kernel qcn-rp models no single TC; it takes --priority');
    expect(refusal(run('ets', { config: QCN_CREDIT, tc: 0 }))).toBe('--tc: kernel ets models no single TC');
    expect(refusal(run('qcn-cp', { config: QCN_CREDIT, tc: 8 }))).toBe('--tc: must be a TC 0..7, got 8');
    expect(refusal(run('credit', { config: QCN_CREDIT, priority: -1 }))).toBe('--priority: must be a priority 0..7, got -1');
    expect(refusal(run('qcn-cp', { config: QCN_CREDIT, tc: 4 }))).toMatch(/^--tc: TC 4 has no congestion point .*; the config enables 0, 3$/);
    expect(refusal(run('qcn-rp', { config: QCN_CREDIT, priority: 5 }))).toMatch(/^--priority: priority 5 has no reaction point .*; the config enables 3, 6$/);
    expect(refusal(run('credit', { config: QCN_CREDIT, priority: 4 }))).toMatch(/^--priority: priority 4 is not under credit flow control .*; the config enables 5, 7$/);
    expect(refusal(run('qcn-cp', { tc: 0 }))).toBe('--tc: selects the TC of --config; give --config too');
    expect(refusal(run('credit', { priority: 5 }))).toBe('--priority: selects the priority of --config; give --config too');
  });

  it('a config that enables the function nowhere, values the kernel cannot hold, events of another priority', () => {
    const plain = join(CONFIGS, 'mtu9216-50-30-20.yaml');
    expect(refusal(run('qcn-cp', { config: plain }))).toMatch(/^--config: gives kernel qcn-cp no TC: every TC has no congestion point/);
    expect(refusal(run('qcn-rp', { config: plain }))).toMatch(/^--config: gives kernel qcn-rp no priority/);
    expect(refusal(run('credit', { config: plain }))).toMatch(/^--config: gives kernel credit no priority/);
    const fine = configFile('g-fine.yaml', 'qcn: {cp: {priorities: [3]}, rp: {profile: dcqcn, g_shift: 12}}\n');
    expect(refusal(() => prepareRun('qcn-rp', example('qcn-rp-dcqcn'), { config: fine }))).toBe('--config: qcn.rp.g = 0.000244140625 is finer than 1/1024, the unit of the qcn-rp kernel\'s g_q10');
    const wide = configFile('k31.yaml', 'credit: {priorities: [2], counter_bits: 31}\n');
    expect(refusal(run('credit', { config: wide }))).toBe('--config: credit.counter_bits = 31: the credit kernel\'s counters are at most 30 bits');
    // the shipped credit sample has a second flow on priority 3
    expect(refusal(run('credit', { config: QCN_CREDIT }))).toBe('events[17].prio: must be 5, the priority of --config\'s credit loop (--priority), got 3');
  });

  it('the CLI exits 2 with the message and prints nothing', () => {
    const r = runCli(['vectors', 'qcn-cp', '--stimulus', join(ROOT, 'examples', 'vectors', 'qcn-cp.json'), '--config', QCN_CREDIT, '--tc', '1']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--tc: TC 1 has no congestion point/);
    expect(r.stdout).toBe('');
  });
});

describe('manifest source of the new kernels', () => {
  it('names the config, its sha256, the device, the port, the image sha256 and the instance', () => {
    const image = codegenFiles(QCN_CREDIT, ['c-header']).files.get('c-header/dcb_regs.bin') as Uint8Array;
    const base = {
      config: QCN_CREDIT,
      config_sha256: createHash('sha256').update(readFileSync(QCN_CREDIT)).digest('hex'),
      device: 'generic-8q',
      port: 'Ethernet0',
      register_image_sha256: createHash('sha256').update(image).digest('hex'),
    };
    const source = (kernel: string, stimulus: unknown, opts: object) => (JSON.parse(generateMemh(kernel, stimulus, { config: QCN_CREDIT, ...opts }).get('manifest.json')!) as { source: object }).source;
    expect(source('qcn-cp', example('qcn-cp'), { tc: 3 })).toEqual({ ...base, tc: 3 });
    expect(source('qcn-rp', example('qcn-rp'), {})).toEqual({ ...base, priority: 3 });
    expect(source('credit', { events: [{ t_ps: 0, type: 'grant_tx' }] }, { priority: 7 })).toEqual({ ...base, priority: 7 });
  });
});
