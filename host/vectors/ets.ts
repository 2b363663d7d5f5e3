// `dcbkit vectors ets`: golden vectors of 802.1Qaz transmission selection (docs/ets.md, format).
// Stimulus: {"max_frame": 1518, "ets": {prio_tc, tsa, bw}, "events": [...]} with events
//   {"type": "enq", "prio": P, "bytes": N}   classify priority P and enqueue an N-byte frame
//   {"type": "tx"}                           select a TC and dequeue its head frame
//   {"type": "block", "tcs": [..]}           the set of blocked (PFC-paused) TCs from now on
// Output per event: type, tc, bytes, cur, deficit[8], queued_frames[8], blocked[].
import { z } from 'zod';
import { EtsHarness, etsConfigSchema } from '../ets.js';
import { Core } from '../loader.js';
import type { VectorKernel } from './registry.js';

const event = z.discriminatedUnion('type', [
  z.object({ type: z.literal('enq'), prio: z.number().int().min(0).max(7), bytes: z.number().int().min(64) }),
  z.object({ type: z.literal('tx') }),
  z.object({ type: z.literal('block'), tcs: z.array(z.number().int().min(0).max(7)) }),
]);

const stimulus = z
  .object({
    max_frame: z.number().int().min(64).max(16000).default(1518),
    ets: etsConfigSchema,
    events: z.array(event),
  })
  .strict()
  .superRefine((s, ctx) => {
    s.events.forEach((e, i) => {
      if (e.type === 'enq' && e.bytes > s.max_frame) {
        ctx.addIssue({ code: 'custom', path: ['events', i, 'bytes'], message: `frame of ${e.bytes} B exceeds max_frame ${s.max_frame}` });
      }
    });
  });

export const etsVectors: VectorKernel<typeof stimulus> = {
  name: 'ets',
  describe: '802.1Qaz ETS: strict priority then DWRR transmission selection over 8 TCs',
  stimulus,
  run(s, core = new Core('release')) {
    const h = new EtsHarness(core, s.ets, s.max_frame);
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
};
