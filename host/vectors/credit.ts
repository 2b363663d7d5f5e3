// `dcbkit vectors credit`: golden vectors of credit-based link-level flow control (assembly/credit.ts;
// format in docs/credit.md). Each event acts on one (priority, channel) flow, i.e. on the sender or
// the receiver half of its record; losses are expressed by leaving the matching *_rx event out, and
// stale or corrupted grants and syncs by giving the *_rx event another value (e.g. an older cl).
// One output line per event: the flow's whole record after it.
import { z } from 'zod';
import { CreditFlow } from '../core/credit.js';
import { InputError } from '../errors/errors.js';
import { Core } from '../core/loader.js';
import type { MemhLayout } from './memh.js';
import type { VectorKernel } from './registry.js';
import { bindCreditEvents, creditFromConfig, prioritiesWithCredit } from './from-ir.js';
import { creditCoverage, randomCredit } from './credit-random.js';

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

const EVENT_TYPES = ['send', 'data_rx', 'drain', 'grant_tx', 'grant_rx', 'sync_tx', 'sync_rx', 'tick'] as const;
const COUNTER = 48;

/** memh layouts (host/vectors/memh.ts). */
function creditMemh(s: z.output<typeof stimulus>): MemhLayout {
  const key = [
    { key: 't_ps', width: 64, signed: true, meaning: 'event time, ps' },
    { key: 'type', width: 3, enum: EVENT_TYPES, meaning: 'the event' },
    { key: 'prio', width: 3, meaning: 'priority of the flow' },
    { key: 'channel', width: 16, meaning: 'channel of the flow' },
  ];
  const counter = (k: string, meaning: string) => ({ key: k, width: COUNTER, meaning });
  return {
    stimulus: [
      ...key,
      { key: 'bytes', width: 31, optional: true, meaning: 'send/data_rx/drain: frame bytes' },
      { key: 'cl', width: 30, optional: true, meaning: 'grant_rx: the limit delivered (absent: the last grant_tx)' },
      { key: 'tbs', width: 30, optional: true, meaning: 'sync_rx: the TBS delivered (absent: the last sync_tx)' },
    ],
    expected: [
      ...key,
      { key: 'result', width: 32, signed: true, meaning: 'send: units sent (0 blocked); data_rx: 1 stored, 0 overrun; drain: units freed; grant/sync: the value; tick: units expired' },
      { key: 'tbs', width: 30, meaning: 'sender: total blocks sent mod 2^k' },
      { key: 'fccl', width: 30, meaning: 'sender: credit limit of the last grant' },
      { key: 'abr', width: 30, meaning: 'receiver: adjusted blocks received mod 2^k' },
      { key: 'used_units', width: 32, signed: true, meaning: 'receiver buffer occupancy, units' },
      { key: 'free_units', width: 32, signed: true, meaning: 'receiver buffer free, units' },
      { key: 'last_cl', width: 30, meaning: 'receiver: limit of its last grant' },
      { key: 'available_units', width: 32, signed: true, meaning: 'sender: credit usable now, units' },
      { key: 'grant_at_ps', width: 64, signed: true, meaning: 'sender: time of the last grant, ps' },
      counter('sent_units', 'units sent'), counter('blocked', 'send attempts refused'), counter('expired_units', 'credit dropped by aging, units'),
      counter('grants_rx', 'grants received'), counter('recv_units', 'units stored'), counter('overrun_units', 'units that found no room'),
      counter('syncs_rx', 'syncs received'),
    ],
    config: { ...s.params },
    configWord: [
      { key: 'k', width: 5, meaning: 'counter width: counters are mod 2^k' },
      { key: 'unit', width: 16, meaning: 'credit unit, bytes' },
      { key: 'capacity_units', width: 31, meaning: 'receiver buffer per flow, units (buffer_bytes / unit)' },
      { key: 'aging_ps', width: 64, signed: true, meaning: 'credit expires this long after its grant, ps (0 never)' },
    ],
    configValues: { k: s.params.k, unit: s.params.unit, capacity_units: Math.floor(s.params.buffer_bytes / s.params.unit), aging_ps: s.params.aging_ps },
    events: s.events,
  };
}

export const creditVectors: VectorKernel<typeof stimulus> = {
  name: 'credit',
  describe: 'credit-based link-level flow control: IB-style absolute counters per (priority, channel)',
  stimulus,
  fromRegisters: creditFromConfig,
  select: { flag: 'priority', enabled: prioritiesWithCredit, lacks: 'is not under credit flow control (it is not in credit.priorities)' },
  bindEvents: bindCreditEvents,
  random: randomCredit,
  coverage: creditCoverage,
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
  memh: creditMemh,
};
