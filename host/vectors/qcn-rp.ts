// `dcbkit vectors qcn-rp`: golden vectors of the QCN reaction point (docs/design.md §4.5, §5), profile
// qau-pc (default) or dcqcn. One output line per input event with the rate limiter's state after
// it; every timer that expires at or before an event gets its own line first (type `timer`, or
// `alpha_timer` for the dcqcn alpha decay), stamped with the deadline that fired.
import { z } from 'zod';
import { NO_DCQCN_FIELDS, writeNpParams, writeRpParams } from '../core/kernels/qcn-rp.js';
import { Core } from '../core/loader.js';
import { checkTimeOrder, exact, intIn, profileParams, stimulusOf, tPsField } from './qcn-common.js';
import type { MemhLayout } from './memh.js';
import type { VectorKernel } from './registry.js';
import { prioritiesWithRp, qcnRpFromConfig } from './from-ir.js';
import { qcnRpCoverage, randomQcnRp } from './qcn-rp-random.js';
import { ALPHA_BITS_DEFAULT, ALPHA_BITS_MAX, ALPHA_BITS_MIN, dcqcnKernelFields } from '../core/kernels/qcn-rp.js';

const RATE_MAX = 2 ** 43; // 8.8 Tb/s: keeps CR * 2^gd_shift inside i64

/** Fields both profiles share (rate limiter, byte counter, timer, stages), with per-profile defaults. */
function recoveryFields(d: { line_bps: number; bc_bytes: number; timer_ps: number; ai_bps: number; hai_bps: number }) {
  return {
    line_bps: intIn(1_000_000, RATE_MAX).default(d.line_bps),
    bc_bytes: intIn(1, 2 ** 30).default(d.bc_bytes),
    timer_ps: intIn(1, 2 ** 48).default(d.timer_ps),
    th: intIn(1, 1000).default(5),
    ai_bps: intIn(0, 2 ** 40).default(d.ai_bps),
    hai_bps: intIn(0, 2 ** 40).default(d.hai_bps),
    min_bps: intIn(1, RATE_MAX).default(5_000_000),
  };
}

/** qau-pc parameters: names and defaults pinned by docs/design.md §4.5 / §5 (802.1Q MIB defaults, C = 10 Gb/s). */
const qauParams = z.strictObject({
  profile: z.literal('qau-pc'),
  ...recoveryFields({ line_bps: 10_000_000_000, bc_bytes: 150_000, timer_ps: 15_000_000_000, ai_bps: 5_000_000, hai_bps: 50_000_000 }),
  gd_shift: intIn(1, 16).default(7),
  min_dec_num: intIn(1, 2 ** 16).default(64),
  extra_fast_recovery: z.boolean({ error: 'must be true or false' }).default(true),
});

/**
 * dcqcn parameters (Zhu et al. 2015 defaults at 40 Gb/s as in the authors' fluid model: T = tau' = 55 us,
 * B = 10 MB, F = 5, R_AI = 40 Mb/s; R_HAI = 200 Mb/s as in ns3-rdma; g = 1/256 = 4 in Q10; CNPs at
 * most every 50 us). Reloads are neither jittered nor halved, and there is no extra fast recovery.
 * alpha has alpha_bits fraction bits (20; 10 is the NIC's Q10, every product rounded down); g_q10
 * and alpha_init_q10 are in 1/1024 whatever alpha_bits is. The ConnectX options (docs/qcn.md):
 * alpha_cut_shift (cut = alpha / 2^shift; rpg_gd - 10), min_dec_pct (rpg_min_dec_fac),
 * first_cnp_bps (rate_to_set_on_first_cnp), clamp_tgt_rate and clamp_tgt_rate_after_time_inc.
 */
const flag = (d: boolean) => z.boolean({ error: 'must be true or false' }).default(d);
const dcqcnParams = z.strictObject({
  profile: z.literal('dcqcn'),
  ...recoveryFields({ line_bps: 40_000_000_000, bc_bytes: 10_000_000, timer_ps: 55_000_000, ai_bps: 40_000_000, hai_bps: 200_000_000 }),
  alpha_timer_ps: intIn(1, 2 ** 48).default(55_000_000),
  alpha_bits: intIn(ALPHA_BITS_MIN, ALPHA_BITS_MAX).default(ALPHA_BITS_DEFAULT),
  g_q10: intIn(0, 1024).default(4),
  alpha_init_q10: intIn(0, 1024).default(1024),
  alpha_cut_shift: intIn(0, 6).default(1),
  min_dec_pct: intIn(0, 100).default(0),
  first_cnp_bps: intIn(0, RATE_MAX).default(0),
  clamp_tgt_rate: flag(true),
  clamp_tgt_rate_after_time_inc: flag(false),
  cnp_spacing_ps: intIn(0, 2 ** 48).default(50_000_000),
});

const params = profileParams(qauParams, dcqcnParams);

const event = z.discriminatedUnion(
  'type',
  [
    z.strictObject({ t_ps: tPsField, type: z.literal('cnm'), qf: intIn(0, 63) }),
    z.strictObject({ t_ps: tPsField, type: z.literal('cnp') }),
    z.strictObject({ t_ps: tPsField, type: z.literal('ce') }),
    z.strictObject({ t_ps: tPsField, type: z.literal('tx'), bytes: intIn(1, 65535), backlog: intIn(0, 2 ** 31 - 1).default(0) }),
    z.strictObject({ t_ps: tPsField, type: z.literal('tick') }),
  ],
  { error: 'must be one of cnm, cnp, ce, tx, tick' },
);

const QAU_ONLY = new Set(['cnm']);
const DCQCN_ONLY = new Set(['cnp', 'ce']);

export const qcnRpStimulus = stimulusOf(params, event).superRefine((s, ctx) => {
  checkTimeOrder(s.events, ctx);
  const p = s.params;
  if (p.min_bps > p.line_bps) ctx.addIssue({ code: 'custom', path: ['params', 'min_bps'], message: `must not exceed line_bps (${p.line_bps})` });
  if (p.profile === 'qau-pc' && p.min_dec_num > 2 ** p.gd_shift) {
    ctx.addIssue({ code: 'custom', path: ['params', 'min_dec_num'], message: `must be 1..${2 ** p.gd_shift} (2^gd_shift)` });
  }
  s.events.forEach((e, i) => {
    const wrong = p.profile === 'qau-pc' ? DCQCN_ONLY.has(e.type) : QAU_ONLY.has(e.type);
    if (wrong) ctx.addIssue({ code: 'custom', path: ['events', i, 'type'], message: `"${e.type}" is not an event of profile ${p.profile}` });
  });
});

export type QcnRpStimulus = z.output<typeof qcnRpStimulus>;

const ENTITY_ID = 0;
const FIRED_RATE_TIMER = 1;

/** Runs the stimulus through the core's reaction point and returns the output lines. */
export function runQcnRp(s: QcnRpStimulus, core = new Core('release')): object[] {
  const c = (n: string) => core.constant(n);
  const rec = c('SCRATCH');
  const at = (n: string) => rec + c(n); // a field's address, looked up once
  const np = rec + c('QCN_RP_SIZE');
  const [activeAt, crAt, trAt, siAt, tiAt, bcLeftAt, deadlineAt, alphaAt, alphaDeadlineAt] = [
    'QCN_RP_ACTIVE', 'QCN_RP_CR', 'QCN_RP_TR', 'QCN_RP_SI', 'QCN_RP_TI', 'QCN_RP_BC_LEFT', 'QCN_RP_DEADLINE', 'QCN_RP_ALPHA', 'QCN_RP_ALPHA_DEADLINE',
  ].map(at);
  const p = s.params;
  const big = BigInt;
  const dcqcn = p.profile === 'dcqcn';
  const common = { line_bps: p.line_bps, bc_bytes: p.bc_bytes, timer_ps: p.timer_ps, th: p.th, ai_bps: p.ai_bps, hai_bps: p.hai_bps, min_bps: p.min_bps };
  if (p.profile === 'dcqcn') {
    const model = { ...p, g: p.g_q10 / 1024, alpha_init: p.alpha_init_q10 / 1024 };
    writeRpParams(core, rec, { profile: 'dcqcn', ...common, ...dcqcnKernelFields(model, c) });
  } else {
    const flags = c('QCN_RP_F_JITTER') | c('QCN_RP_F_HALVING') | (p.extra_fast_recovery ? c('QCN_RP_F_EXTRA_FR') : 0);
    writeRpParams(core, rec, { profile: 'qau-pc', ...common, gd_shift: p.gd_shift, min_dec_num: p.min_dec_num, flags, ...NO_DCQCN_FIELDS });
  }
  const alphaField = p.profile === 'dcqcn' ? `alpha_q${p.alpha_bits}` : '';
  core.fn<(r: number, seed: number, id: number) => void>('qcnRpConfigure')(rec, s.seed | 0, ENTITY_ID);
  if (dcqcn) {
    writeNpParams(core, np, p.cnp_spacing_ps);
    core.fn<(r: number) => void>('dcqcnNpConfigure')(np);
  }
  const fireDue = core.fn<(r: number, now: bigint) => number>('qcnRpFireDueOne');
  const onCnm = core.fn<(r: number, now: bigint, qf: number) => void>('qcnRpOnCnmOne');
  const onSent = core.fn<(r: number, now: bigint, len: number, backlog: number) => void>('qcnRpOnFrameSentOne');
  const onCnp = core.fn<(r: number, now: bigint) => void>('dcqcnRpOnCnpOne');
  const onCe = core.fn<(r: number, now: bigint) => number>('dcqcnNpOnCeOne');

  const out: object[] = [];
  const state = (t: number, type: string, where: string, extra: object = {}) => {
    const line: Record<string, unknown> = {
      t_ps: t,
      type,
      active: core.getI32(activeAt),
      cr_bps: exact(core.getI64(crAt), where),
      tr_bps: exact(core.getI64(trAt), where),
      si: core.getI32(siAt),
      ti: core.getI32(tiAt),
      bc_left: core.getI32(bcLeftAt),
      deadline_ps: exact(core.getI64(deadlineAt), where),
    };
    if (dcqcn) {
      line[alphaField] = core.getI32(alphaAt);
      line.alpha_deadline_ps = exact(core.getI64(alphaDeadlineAt), where);
    }
    out.push({ ...line, ...extra });
  };

  s.events.forEach((e, i) => {
    const where = `events[${i}]`;
    const now = big(e.t_ps);
    for (;;) {
      const rateDeadline = core.getI64(deadlineAt);
      const alphaDeadline = core.getI64(alphaDeadlineAt);
      const fired = fireDue(rec, now);
      if (fired === 0) break;
      state(exact(fired === FIRED_RATE_TIMER ? rateDeadline : alphaDeadline, where), fired === FIRED_RATE_TIMER ? 'timer' : 'alpha_timer', where);
    }
    switch (e.type) {
      case 'cnm':
        onCnm(rec, now, e.qf);
        break;
      case 'cnp':
        onCnp(rec, now);
        break;
      case 'ce': {
        const cnp = onCe(np, now);
        if (cnp) onCnp(rec, now);
        state(e.t_ps, e.type, where, { cnp });
        return;
      }
      case 'tx':
        onSent(rec, now, e.bytes, e.backlog);
        break;
      case 'tick':
        break;
    }
    state(e.t_ps, e.type, where);
  });
  return out;
}

/** memh layouts (host/vectors/memh.ts). */
function qcnRpMemh(s: QcnRpStimulus): MemhLayout {
  const p = s.params;
  const dcqcn = p.profile === 'dcqcn';
  const t = { key: 't_ps', width: 64, signed: true, meaning: 'event time, ps (a timer line: the deadline that fired)' };
  const rate = (key: string, meaning: string) => ({ key, width: 64, signed: true, meaning });
  const configWord = [
    { key: 'seed', width: 32, meaning: 'seed of the reaction point (entity id 0)' },
    rate('line_bps', 'line rate C, bit/s'),
    { key: 'bc_bytes', width: 31, meaning: 'byte counter BC, bytes' },
    rate('timer_ps', 'rate-increase timer T, ps'),
    { key: 'th', width: 16, meaning: 'fast-recovery threshold TH' },
    rate('ai_bps', 'R_AI, bit/s'),
    rate('hai_bps', 'R_HAI, bit/s'),
    rate('min_bps', 'minimum rate, bit/s'),
    ...(dcqcn
      ? [rate('alpha_timer_ps', 'alpha decay period, ps'), { key: 'alpha_bits', width: 5, meaning: 'fraction bits of alpha (10..24)' },
        { key: 'g_q10', width: 11, meaning: 'EWMA gain g, in 1/1024' }, { key: 'alpha_init_q10', width: 11, meaning: 'alpha when the limiter engages, in 1/1024' },
        { key: 'alpha_cut_shift', width: 3, meaning: 'a CNP cuts CR by alpha / 2^shift' }, { key: 'min_dec_pct', width: 7, meaning: 'a cut leaves at least this % of CR (0: no bound)' },
        rate('first_cnp_bps', 'CR = TR = this on the CNP that engages the limiter (0: cut as usual)'),
        { key: 'clamp_tgt_rate', width: 1, meaning: '1: every cut sets TR = CR' },
        { key: 'clamp_tgt_rate_after_time_inc', width: 1, meaning: 'without clamp_tgt_rate: a timer increase also allows TR = CR' },
        rate('cnp_spacing_ps', 'minimum CNP spacing, ps')]
      : [{ key: 'gd_shift', width: 5, meaning: 'Gd = 2^-gd_shift' }, { key: 'min_dec_num', width: 17, meaning: 'minimum decrease factor numerator over 2^gd_shift' },
        { key: 'extra_fast_recovery', width: 1, meaning: '1: TR/8 after a deep cut' }]),
  ];
  return {
    stimulus: [
      t,
      { key: 'type', width: 3, enum: ['cnm', 'cnp', 'ce', 'tx', 'tick'], meaning: 'the event' },
      { key: 'qf', width: 6, optional: true, meaning: 'cnm: quantised feedback' },
      { key: 'bytes', width: 16, optional: true, meaning: 'tx: frame bytes' },
      { key: 'backlog', width: 31, optional: true, meaning: 'tx: bytes still queued at the rate limiter' },
    ],
    expected: [
      t,
      { key: 'type', width: 3, enum: ['cnm', 'cnp', 'ce', 'tx', 'tick', 'timer', 'alpha_timer'], meaning: 'the event, or the timer that fired' },
      { key: 'active', width: 1, meaning: '1 while the rate limiter is engaged' },
      rate('cr_bps', 'current rate, bit/s'),
      rate('tr_bps', 'target rate, bit/s'),
      { key: 'si', width: 32, signed: true, meaning: 'byte-counter stage' },
      { key: 'ti', width: 32, signed: true, meaning: 'timer stage' },
      { key: 'bc_left', width: 32, signed: true, meaning: 'bytes to the next byte-counter event' },
      rate('deadline_ps', 'next rate-timer expiry, ps'),
      ...(dcqcn ? [{ key: `alpha_q${p.alpha_bits}`, width: 32, signed: true, meaning: `alpha, fixed point with ${p.alpha_bits} fraction bits` }, rate('alpha_deadline_ps', 'next alpha decay, ps')] : []),
      ...(dcqcn ? [{ key: 'cnp', width: 1, optional: true, meaning: 'ce: 1 when the notification point sent a CNP' }] : []),
    ],
    config: { seed: s.seed, ...p },
    configWord,
    configValues: { seed: s.seed, ...p },
    events: s.events,
  };
}

export const qcnRpKernel: VectorKernel<typeof qcnRpStimulus> = {
  name: 'qcn-rp',
  describe: 'QCN reaction point (profile qau-pc, or dcqcn): rate limiter state per event',
  stimulus: qcnRpStimulus,
  fromRegisters: qcnRpFromConfig,
  select: { flag: 'priority', enabled: prioritiesWithRp, lacks: 'has no reaction point (it is not in qcn.cp.priorities)' },
  random: randomQcnRp,
  coverage: qcnRpCoverage,
  run: runQcnRp,
  memh: qcnRpMemh,
};
