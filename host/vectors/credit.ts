// `dcbkit vectors credit`: golden vectors of credit-based link-level flow control (assembly/credit.ts;
// format in docs/credit.md). Each event acts on one (priority, channel) flow, i.e. on the sender or
// the receiver half of its record; losses are expressed by leaving the matching *_rx event out, and
// stale or corrupted grants and syncs by giving the *_rx event another value (e.g. an older cl).
// One output line per event: the flow's whole record after it.
import { z } from 'zod';
import { CreditFlow } from '../credit.js';
import { InputError } from '../errors.js';
import { Core } from '../loader.js';
import type { VectorKernel } from './registry.js';

const MAX_FLOWS = 256;

const params = z
  .object({
    k: z.number().int().min(2).max(30).default(16),
    unit: z.number().int().min(1).max(65535).default(64),
    buffer_bytes: z.number().int().min(1).max(2 ** 30).default(32768),
    aging_ps: z.number().int().min(0).max(2 ** 52).default(100_000_000),
  })
  .strict()
  .superRefine((p, ctx) => {
    if (Math.floor(p.buffer_bytes / p.unit) < 1) {
      ctx.addIssue({ code: 'custom', path: ['buffer_bytes'], message: 'must hold at least one credit unit' });
    }
  });

const flowKey = {
  t_ps: z.number().int().min(0).max(2 ** 52),
  prio: z.number().int().min(0).max(7).default(0),
  channel: z.number().int().min(0).max(0xffff).default(0),
};
const bytes = z.number().int().min(1).max(2 ** 30);
const event = z.discriminatedUnion('type', [
  z.object({ ...flowKey, type: z.literal('send'), bytes }).strict(),
  z.object({ ...flowKey, type: z.literal('data_rx'), bytes }).strict(),
  z.object({ ...flowKey, type: z.literal('drain'), bytes }).strict(),
  z.object({ ...flowKey, type: z.literal('grant_tx') }).strict(),
  z.object({ ...flowKey, type: z.literal('grant_rx'), cl: z.number().int().min(0).optional() }).strict(),
  z.object({ ...flowKey, type: z.literal('sync_tx') }).strict(),
  z.object({ ...flowKey, type: z.literal('sync_rx'), tbs: z.number().int().min(0).optional() }).strict(),
  z.object({ ...flowKey, type: z.literal('tick') }).strict(),
]);

const stimulus = z
  .object({ params: params.default(params.parse({})), events: z.array(event) })
  .strict()
  .superRefine((s, ctx) => {
    const mod = 2 ** s.params.k;
    const flows = new Set<string>();
    s.events.forEach((e, i) => {
      if (i > 0 && e.t_ps < s.events[i - 1].t_ps) {
        ctx.addIssue({ code: 'custom', path: ['events', i, 't_ps'], message: 'times must not decrease' });
      }
      const v = e.type === 'grant_rx' ? e.cl : e.type === 'sync_rx' ? e.tbs : undefined;
      if (v !== undefined && v >= mod) {
        ctx.addIssue({ code: 'custom', path: ['events', i, e.type === 'grant_rx' ? 'cl' : 'tbs'], message: `must be below 2^k = ${mod}` });
      }
      flows.add(`${e.prio}:${e.channel}`);
    });
    if (flows.size > MAX_FLOWS) ctx.addIssue({ code: 'custom', path: ['events'], message: `at most ${MAX_FLOWS} (prio, channel) flows` });
  });

interface FlowState {
  flow: CreditFlow;
  /** Values of the last grant_tx / sync_tx, delivered by a *_rx event without an explicit value. */
  lastCl?: number;
  lastTbs?: number;
}

export const creditVectors: VectorKernel<typeof stimulus> = {
  name: 'credit',
  describe: 'credit-based link-level flow control: IB-style absolute counters per (priority, channel)',
  stimulus,
  run(s, core = new Core('release')) {
    const size = core.constant('CREDIT_SIZE');
    const base = core.constant('SCRATCH');
    const capacityUnits = Math.floor(s.params.buffer_bytes / s.params.unit);
    const flows = new Map<string, FlowState>();
    const flowOf = (prio: number, channel: number): FlowState => {
      const key = `${prio}:${channel}`;
      let f = flows.get(key);
      if (!f) {
        const rec = base + flows.size * size;
        f = { flow: new CreditFlow(core, { k: s.params.k, unitBytes: s.params.unit, capacityUnits, agingPs: BigInt(s.params.aging_ps) }, rec) };
        flows.set(key, f);
      }
      return f;
    };
    const units = (b: number) => Math.ceil(b / s.params.unit);
    return s.events.map((e, i) => {
      const t = BigInt(e.t_ps);
      const f = flowOf(e.prio, e.channel);
      let result = 0;
      switch (e.type) {
        case 'send':
          result = f.flow.trySend(e.bytes, t);
          break;
        case 'data_rx':
          result = f.flow.receive(e.bytes) ? 1 : 0;
          break;
        case 'drain': {
          const used = f.flow.snapshot(t).used_units;
          if (units(e.bytes) > used) {
            throw new InputError({ path: `events[${i}].bytes`, rule: `drains ${units(e.bytes)} units but the buffer holds ${used}` });
          }
          f.flow.drain(e.bytes);
          result = units(e.bytes);
          break;
        }
        case 'grant_tx':
          result = f.lastCl = f.flow.grantValue();
          break;
        case 'grant_rx': {
          const cl = e.cl ?? f.lastCl;
          if (cl === undefined) throw new InputError({ path: `events[${i}].cl`, rule: 'give cl: this flow has sent no grant yet' });
          f.flow.onGrant(cl, t);
          result = cl;
          break;
        }
        case 'sync_tx':
          result = f.lastTbs = f.flow.syncValue();
          break;
        case 'sync_rx': {
          const tbs = e.tbs ?? f.lastTbs;
          if (tbs === undefined) throw new InputError({ path: `events[${i}].tbs`, rule: 'give tbs: this flow has sent no sync yet' });
          f.flow.onSync(tbs);
          result = tbs;
          break;
        }
        case 'tick':
          result = f.flow.age(t);
          break;
      }
      return { t_ps: e.t_ps, type: e.type, prio: e.prio, channel: e.channel, result, ...f.flow.snapshot(t) };
    });
  },
};
