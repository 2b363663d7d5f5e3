// `dcbkit vectors ets`: golden vectors of 802.1Qaz transmission selection (docs/ets.md, format).
// Stimulus: {"max_frame": 1518, "ets": {prio_tc, tsa, bw}, "quantum"?: [8], "events": [...]} with events
//   {"type": "enq", "prio": P, "bytes": N}   classify priority P and enqueue an N-byte frame
//   {"type": "tx"}                           select a TC and dequeue its head frame
//   {"type": "block", "tcs": [..]}           the set of blocked (PFC-paused) TCs from now on
// Output per event: type, tc, bytes, cur, deficit[8], queued_frames[8], blocked[].
import { z } from 'zod';
import { EtsHarness, etsConfigSchema, type EtsConfig } from '../core/ets.js';
import { etsCoverage, randomEts } from './ets-random.js';
import { Core } from '../core/loader.js';
import type { MemhLayout } from './memh.js';
import type { VectorKernel } from './registry.js';
import { defaultConfigValues, etsFromRegisters } from './from-config.js';
import { WIRE_OVERHEAD } from '../core/codes.js';

const event = z.discriminatedUnion('type', [
  z.object({ type: z.literal('enq'), prio: z.number().int().min(0).max(7), bytes: z.number().int().min(64) }),
  z.object({ type: z.literal('tx') }),
  z.object({ type: z.literal('block'), tcs: z.array(z.number().int().min(0).max(7)) }),
]);

const stimulus = z
  .object({
    // a default config's MTU (`dcbkit validate` of an empty config)
    max_frame: z.number().int().min(64).max(16000).default(defaultConfigValues.mtu),
    ets: etsConfigSchema,
    // DRR quanta of the weighted TCs as a register image holds them (whole 64-byte credits, from
    // --config); absent: bw x Q bytes. 0 for strict and 0 % TCs, whose quanta the block derives.
    quantum: z.array(z.number().int().min(0).max(2 ** 23)).length(8).optional(),
    events: z.array(event),
  })
  .strict()
  .superRefine((s, ctx) => {
    const maxWire = s.max_frame + WIRE_OVERHEAD;
    s.quantum?.forEach((q, t) => {
      const weighted = s.ets.tsa[t] !== 'strict' && s.ets.tsa[t] !== 'cbs' && s.ets.bw[t] > 0;
      if (weighted && q < maxWire) ctx.addIssue({ code: 'custom', path: ['quantum', t], message: `TC ${t} has ${s.ets.bw[t]} %: its quantum must hold one maximum wire frame (>= ${maxWire} B), got ${q}` });
      if (!weighted && q !== 0) ctx.addIssue({ code: 'custom', path: ['quantum', t], message: `TC ${t} is strict or 0 %: its quantum is derived by the block, give 0, got ${q}` });
    });
    s.events.forEach((e, i) => {
      if (e.type === 'enq' && e.bytes > s.max_frame) {
        ctx.addIssue({ code: 'custom', path: ['events', i, 'bytes'], message: `frame of ${e.bytes} B exceeds max_frame ${s.max_frame}` });
      }
    });
  });

const TSA_ORDER = ['strict', 'cbs', 'ets', 'vendor'] as const;
const EVENT_TYPES = ['enq', 'tx', 'block'] as const;

/** memh layouts (host/vectors/memh.ts): the replay testbench of rtl/dcb_ets_sel.sv reads these. */
function etsMemh(s: z.output<typeof stimulus>, _lines: object[], core: Core): MemhLayout {
  const rec = core.constant('SCRATCH');
  const reg = (name: string, i = 0) => core.getI32(rec + core.constant(name) + 4 * i);
  const eight = (name: string) => Array.from({ length: 8 }, (_, i) => reg(name, i));
  return {
    stimulus: [
      { key: 'type', width: 2, enum: EVENT_TYPES, meaning: 'enq: enqueue a frame; tx: select a TC and send its head frame; block: set the blocked TCs' },
      { key: 'prio', width: 3, optional: true, meaning: 'enq: priority of the frame' },
      { key: 'bytes', width: 16, optional: true, meaning: 'enq: frame bytes (FCS included)' },
      { key: 'tcs', width: 8, bits: true, optional: true, meaning: 'block: the TCs blocked from now on (bit t = TC t)' },
    ],
    expected: [
      { key: 'type', width: 2, enum: EVENT_TYPES, meaning: 'the event' },
      { key: 'tc', width: 3, nullable: true, meaning: 'enq: the TC of the priority; tx: the selected TC (null: none eligible); block: null' },
      { key: 'bytes', width: 16, meaning: 'frame bytes enqueued or sent (0 when nothing was sent)' },
      { key: 'cur', width: 3, meaning: 'the DRR TC whose visit is in progress' },
      { key: 'deficit', width: 24, count: 8, meaning: 'DRR deficit per TC, wire bytes' },
      { key: 'queued_frames', width: 32, count: 8, meaning: 'frames queued per TC after the event' },
      { key: 'blocked', width: 8, bits: true, meaning: 'blocked TCs (bit t = TC t)' },
    ],
    config: { max_frame: s.max_frame, ...s.ets, ...(s.quantum ? { quantum: s.quantum } : {}) },
    configWord: [
      { key: 'max_wire', width: 16, meaning: 'max_frame + 20, wire bytes' },
      { key: 'q_unit', width: 16, meaning: 'Q = ceil(max_wire / min non-zero bw), wire bytes per 1 %' },
      { key: 'strict_mask', width: 8, meaning: 'TCs with TSA strict or cbs' },
      { key: 'weighted_mask', width: 8, meaning: 'ETS TCs with bw > 0' },
      { key: 'zero_mask', width: 8, meaning: 'ETS TCs with bw 0 (served when no weighted TC can send)' },
      { key: 'quantum', width: 24, count: 8, meaning: 'DRR quantum per TC: bw * Q (or the stimulus quantum, whole 64-B credits from a register image), max_wire for 0 % TCs, wire bytes' },
      { key: 'prio_tc', width: 3, count: 8, meaning: 'TC of priority n' },
      { key: 'tsa', width: 2, count: 8, enum: TSA_ORDER, meaning: 'TSA per TC' },
      { key: 'bw', width: 7, count: 8, meaning: 'bandwidth per TC, %' },
    ],
    configValues: {
      max_wire: reg('ETS_MAX_WIRE'), q_unit: reg('ETS_Q_UNIT'), strict_mask: reg('ETS_STRICT_MASK'),
      weighted_mask: reg('ETS_WEIGHTED_MASK'), zero_mask: reg('ETS_ZERO_MASK'), quantum: eight('ETS_QUANTUM'),
      prio_tc: s.ets.prio_tc, tsa: s.ets.tsa, bw: s.ets.bw,
    },
    events: s.events,
  };
}

/** The harness of a stimulus's configuration: the core's quanta, or the stimulus's (a register image's). */
export function etsHarness(s: { max_frame: number; ets: EtsConfig; quantum?: number[] }, core: Core): EtsHarness {
  const h = new EtsHarness(core, s.ets, s.max_frame);
  // etsConfigure derived the masks, Q and bw x Q (and reset the DRR state); programmed quanta replace bw x Q
  s.quantum?.forEach((q, t) => {
    if (q > 0) core.setI32(h.rec + core.constant('ETS_QUANTUM') + 4 * t, q);
  });
  return h;
}

export const etsVectors: VectorKernel<typeof stimulus> = {
  name: 'ets',
  describe: '802.1Qaz ETS: strict priority then DWRR transmission selection over 8 TCs',
  stimulus,
  fromRegisters: etsFromRegisters,
  random: randomEts,
  coverage: etsCoverage,
  run(s, core = new Core('release')) {
    const h = etsHarness(s, core);
    return s.events.map((e) => {
      let tc: number | null = null;
      let bytes = 0;
      if (e.type === 'enq') {
        tc = h.enqueue(e.prio, e.bytes);
        bytes = e.bytes;
      } else if (e.type === 'tx') {
        const r = h.transmit();
        if (r) ({ tc, bytes } = r);
      } else {
        h.blocked = e.tcs.reduce((m, t) => m | (1 << t), 0);
      }
      const snap = h.snapshot();
      return {
        type: e.type,
        tc,
        bytes,
        cur: snap.cur,
        deficit: snap.deficit,
        queued_frames: h.queues.map((q) => q.length),
        blocked: [0, 1, 2, 3, 4, 5, 6, 7].filter((t) => (h.blocked >> t) & 1),
      };
    });
  },
  memh: etsMemh,
};
