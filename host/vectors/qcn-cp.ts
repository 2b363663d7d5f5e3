// `dcbkit vectors qcn-cp`: golden vectors of the QCN congestion point (DESIGN.md §4.4, §5), profile
// qau-pc (default) or dcqcn (ECN marking). One output line per enqueue/dequeue with the CP state
// after it; for qau-pc, fb and qf are those of this enqueue (sampled or not) and 0 on dequeues.
import { z } from 'zod';
import { Core } from '../loader.js';
import { writeDcqcnCpParams, writeQcnCpParams } from '../kernels/qcn-cp.js';
import { checkTimeOrder, intIn, profileParams, stimulusOf, tPsField } from './qcn-common.js';
import type { VectorKernel } from './registry.js';

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

export const qcnCpKernel: VectorKernel<typeof qcnCpStimulus> = {
  name: 'qcn-cp',
  describe: 'QCN congestion point (profile qau-pc, or dcqcn ECN marking): queue, feedback and CNMs per event',
  stimulus: qcnCpStimulus,
  run: runQcnCp,
};
