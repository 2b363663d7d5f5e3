// `dcbkit vectors qcn-cp`: golden vectors of the QCN congestion point (docs/design.md §4.4, §5), profile
// qau-pc (default) or dcqcn (ECN marking). One output line per enqueue/dequeue with the CP state
// after it; for qau-pc, fb and qf are those of this enqueue (sampled or not) and 0 on dequeues.
import { z } from 'zod';
import { Core } from '../core/loader.js';
import { writeDcqcnCpParams, writeQcnCpParams } from '../core/kernels/qcn-cp.js';
import { checkTimeOrder, intIn, profileParams, stimulusOf, tPsField } from './qcn-common.js';
import type { MemhLayout } from './memh.js';
import type { VectorKernel } from './registry.js';
import { qcnCpFromRegisters, tcsWithCp } from './from-config.js';
import { qcnCpCoverage, randomQcnCp } from './qcn-cp-random.js';

const Q_MAX = 2 ** 30; // queue bytes, with headroom below i32 overflow

const qauParams = z
  .strictObject({
    profile: z.literal('qau-pc'),
    q_eq: intIn(1, 2 ** 24).default(26_000),
    w: intIn(1, 32).default(2),
    quantiser: z.enum(['linear', 'msb'], { error: 'must be linear or msb' }).default('linear'),
  })
  .superRefine((p, ctx) => {
    if (p.q_eq * (2 * p.w + 1) > 2 ** 31 - 1) ctx.addIssue({ code: 'custom', path: ['q_eq'], message: 'q_eq * (2w + 1) must fit in 31 bits' });
  });

/** dcqcn CP: RED-style marking; defaults Kmin 5 KB, Kmax 200 KB, Pmax 1 % (Zhu et al. 2015). */
const dcqcnParams = z
  .strictObject({
    profile: z.literal('dcqcn'),
    kmin_bytes: intIn(0, Q_MAX).default(5_000),
    kmax_bytes: intIn(1, Q_MAX).default(200_000),
    pmax: z.number({ error: 'must be a number in (0, 1]' }).gt(0, { error: 'must be in (0, 1]' }).max(1, { error: 'must be in (0, 1]' }).default(0.01),
  })
  .superRefine((p, ctx) => {
    if (p.kmax_bytes <= p.kmin_bytes) ctx.addIssue({ code: 'custom', path: ['kmax_bytes'], message: `must be greater than kmin_bytes (${p.kmin_bytes})` });
  });

const params = profileParams(qauParams, dcqcnParams);

const src = z.union([intIn(0, 2 ** 48), z.string().min(1)], { error: 'must be an integer or a MAC/name string' }).default(0);

const event = z.discriminatedUnion(
  'type',
  [
    z.strictObject({ t_ps: tPsField.optional(), type: z.literal('enq'), bytes: intIn(1, 65535), src }),
    z.strictObject({ t_ps: tPsField.optional(), type: z.literal('deq'), bytes: intIn(1, 65535), src: src.optional() }),
  ],
  { error: 'must be enq or deq' },
);

export const qcnCpStimulus = stimulusOf(params, event).superRefine((s, ctx) => {
  checkTimeOrder(s.events, ctx);
  // The queue can only give back what it holds, and stays well inside i32.
  let q = 0;
  s.events.forEach((e, i) => {
    if (e.type === 'deq' && e.bytes > q) {
      ctx.addIssue({ code: 'custom', path: ['events', i, 'bytes'], message: `dequeues more than the queue holds (${q} bytes)` });
      return;
    }
    q += e.type === 'enq' ? e.bytes : -e.bytes;
    if (q > Q_MAX) ctx.addIssue({ code: 'custom', path: ['events', i, 'bytes'], message: `queue would exceed ${Q_MAX} bytes` });
  });
});

export type QcnCpStimulus = z.output<typeof qcnCpStimulus>;

const ENTITY_ID = 0;

export function runQcnCp(s: QcnCpStimulus, core = new Core('release')): object[] {
  const rec = core.constant('SCRATCH');
  const off = (n: string) => rec + core.constant(n);
  const p = s.params;
  const out: object[] = [];
  const stamp = (e: { t_ps?: number }) => (e.t_ps === undefined ? {} : { t_ps: e.t_ps });

  if (p.profile === 'dcqcn') {
    writeDcqcnCpParams(core, rec, { kmin: p.kmin_bytes, kmax: p.kmax_bytes, pmax_q16: Math.round(p.pmax * 65536) });
    core.fn<(r: number, seed: number, id: number) => void>('dcqcnCpConfigure')(rec, s.seed | 0, ENTITY_ID);
    const enq = core.fn<(r: number, len: number) => number>('dcqcnCpEnqueueOne');
    const deq = core.fn<(r: number, len: number) => void>('dcqcnCpDequeueOne');
    const [qAt, pAt] = [off('DCQCN_CP_Q'), off('DCQCN_CP_P')];
    for (const e of s.events) {
      const ce = e.type === 'enq' ? enq(rec, e.bytes) : (deq(rec, e.bytes), 0);
      out.push({ ...stamp(e), type: e.type, q: core.getI32(qAt), p_q16: e.type === 'enq' ? core.getI32(pAt) : 0, ce });
    }
    return out;
  }

  writeQcnCpParams(core, rec, { q_eq: p.q_eq, w: p.w, quantiser: p.quantiser });
  core.fn<(r: number, seed: number, id: number) => void>('qcnCpConfigure')(rec, s.seed | 0, ENTITY_ID);
  const enq = core.fn<(r: number, len: number) => number>('qcnCpEnqueueOne');
  const deq = core.fn<(r: number, len: number) => void>('qcnCpDequeueOne');
  const [qAt, qOldAt, ttmAt, fbAt, qfAt, qOffAt, qDeltaAt] = ['QCN_CP_Q', 'QCN_CP_Q_OLD', 'QCN_CP_TTM', 'QCN_CP_FB', 'QCN_CP_QF', 'QCN_CP_Q_OFF', 'QCN_CP_Q_DELTA'].map(off);
  for (const e of s.events) {
    const isEnq = e.type === 'enq';
    const cnm = isEnq ? enq(rec, e.bytes) : (deq(rec, e.bytes), 0);
    out.push({
      ...stamp(e),
      type: e.type,
      q: core.getI32(qAt),
      q_old: core.getI32(qOldAt),
      fb: isEnq ? core.getI32(fbAt) : 0,
      qf: isEnq ? core.getI32(qfAt) : 0,
      ttm: core.getI32(ttmAt),
      cnm: cnm ? { dst: e.src, qf: core.getI32(qfAt), q_off: core.getI32(qOffAt), q_delta: core.getI32(qDeltaAt) } : null,
    });
  }
  return out;
}

/** memh layouts (host/vectors/memh.ts); a string src has no word form (give sources as integers). */
function qcnCpMemh(s: QcnCpStimulus, _lines: object[], core: Core): MemhLayout {
  const p = s.params;
  const rec = core.constant('SCRATCH');
  const head = [
    { key: 't_ps', width: 64, signed: true, optional: true, meaning: 'event time, ps (absent when the event has none)' },
    { key: 'type', width: 1, enum: ['enq', 'deq'], meaning: 'enqueue or dequeue' },
  ];
  const q = { key: 'q', width: 32, signed: true, meaning: 'queue occupancy after the event, bytes' };
  const seed = { key: 'seed', width: 32, meaning: 'seed of the sampler (entity id 0)' };
  const stimulus = [
    ...head,
    { key: 'bytes', width: 16, meaning: 'frame bytes' },
    { key: 'src', width: 48, optional: true, meaning: 'source of the frame (the CNM destination)' },
  ];
  if (p.profile === 'dcqcn') {
    return {
      stimulus,
      expected: [...head, q, { key: 'p_q16', width: 17, meaning: 'marking probability used by this enqueue, Q16 (65536 = 1); 0 on deq' }, { key: 'ce', width: 1, meaning: '1: the frame was ECN-marked' }],
      config: { seed: s.seed, ...p },
      configWord: [
        seed,
        { key: 'kmin_bytes', width: 32, meaning: 'no marking at or below, bytes' },
        { key: 'kmax_bytes', width: 32, meaning: 'always mark above, bytes' },
        { key: 'pmax_q16', width: 17, meaning: 'probability at Kmax, Q16' },
      ],
      configValues: { seed: s.seed, kmin_bytes: p.kmin_bytes, kmax_bytes: p.kmax_bytes, pmax_q16: core.getI32(rec + core.constant('DCQCN_CP_PMAX')) },
      events: s.events,
    };
  }
  return {
    stimulus,
    expected: [
      ...head, q,
      { key: 'q_old', width: 32, signed: true, meaning: 'occupancy at the last sample, bytes' },
      { key: 'fb', width: 32, signed: true, meaning: 'enq: Fb of this enqueue after the clamp to [-Fbmax, 0]; 0 on deq' },
      { key: 'qf', width: 6, meaning: 'enq: quantised |Fb|, 0..63; 0 on deq' },
      { key: 'ttm', width: 32, signed: true, meaning: 'bytes to the next sample' },
      {
        key: 'cnm', width: 0, nullable: true, meaning: 'the CNM this enqueue generated', fields: [
          { key: 'dst', width: 48, meaning: 'CNM destination: the frame source' },
          { key: 'qf', width: 6, meaning: 'CNM quantised feedback' },
          { key: 'q_off', width: 32, signed: true, meaning: 'q - Qeq' },
          { key: 'q_delta', width: 32, signed: true, meaning: 'q - qOld' },
        ],
      },
    ],
    config: { seed: s.seed, ...p },
    configWord: [
      seed,
      { key: 'q_eq', width: 32, meaning: 'set point Qeq, bytes' },
      { key: 'w', width: 8, meaning: 'weight w' },
      { key: 'fb_max', width: 32, meaning: 'Qeq (2w + 1)' },
      { key: 'quantiser', width: 1, enum: ['linear', 'msb'], meaning: 'Fb quantiser' },
      { key: 'msb_shift', width: 8, meaning: 'msb quantiser: bitlen(Fbmax) - 6, at least 0' },
    ],
    configValues: {
      seed: s.seed, q_eq: p.q_eq, w: p.w, quantiser: p.quantiser,
      fb_max: core.getI32(rec + core.constant('QCN_CP_FB_MAX')), msb_shift: core.getI32(rec + core.constant('QCN_CP_MSB_SHIFT')),
    },
    events: s.events,
  };
}

export const qcnCpKernel: VectorKernel<typeof qcnCpStimulus> = {
  name: 'qcn-cp',
  describe: 'QCN congestion point (profile qau-pc, or dcqcn ECN marking): queue, feedback and CNMs per event',
  stimulus: qcnCpStimulus,
  fromRegisters: (v, tc) => qcnCpFromRegisters(v, tc!),
  select: { flag: 'tc', enabled: tcsWithCp, lacks: 'has no congestion point (ecn_en 0: none of its priorities is in qcn.cp.priorities)' },
  random: randomQcnCp,
  coverage: qcnCpCoverage,
  run: runQcnCp,
  memh: qcnCpMemh,
};
