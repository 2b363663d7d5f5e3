// Random ETS stimuli (`dcbkit vectors ets --random N --seed S`) and the coverage of ETS vectors.
//
// Without a config the generator draws one with every kind of TC: one or two strict TCs, one or two
// 0 % ETS TCs and two to four weighted ones whose bandwidths sum to 100, each TC reached by at least
// one priority. Events mix enqueues (frames across 64..max_frame), transmissions and blocked sets;
// phases block all weighted TCs (so the 0 % TCs are served) or all strict ones (so DRR runs with
// the others backlogged), and enqueues thin out as the queues grow, so a set stays within a replay
// FIFO (1024 frames per TC). A `tx` only ever dequeues a queued frame: the kernel picks it.
import { Core } from '../core/loader.js';
import { etsHarness } from './ets.js';
import type { Rand } from './random.js';

type Ets = { prio_tc: number[]; tsa: string[]; bw: number[] };

/** Frames a TC may hold: half the replay testbench's FIFO. */
const MAX_QUEUED = 512;

function randomEtsTables(r: Rand): Ets {
  const tcs = [0, 1, 2, 3, 4, 5, 6, 7];
  for (let i = 7; i > 0; i--) { const j = r.int(0, i); [tcs[i], tcs[j]] = [tcs[j], tcs[i]]; }
  const nStrict = r.int(1, 2);
  const nZero = r.int(1, 2);
  const nWeighted = r.int(2, 4);
  const tsa = Array<string>(8).fill('strict');
  const bw = Array<number>(8).fill(0);
  tcs.slice(nStrict, nStrict + nZero + nWeighted).forEach((t) => (tsa[t] = 'ets'));
  const weighted = tcs.slice(nStrict + nZero, nStrict + nZero + nWeighted);
  let left = 100;
  weighted.forEach((t, k) => {
    const v = k === weighted.length - 1 ? left : r.int(1, left - (weighted.length - 1 - k));
    bw[t] = v;
    left -= v;
  });
  // every TC of the draw reached by a priority: priorities 0..7 onto the 8 TCs, shuffled
  const used = tcs.slice(0, nStrict + nZero + nWeighted);
  const prio_tc = Array.from({ length: 8 }, (_, p) => used[p % used.length]);
  return { prio_tc, tsa, bw };
}

/** A valid ETS stimulus of `n` events; `fixed` holds the configuration keys from a register image. */
export function randomEts(r: Rand, n: number, fixed?: Record<string, unknown>): Record<string, unknown> {
  const maxFrame = (fixed?.max_frame as number | undefined) ?? r.pick([1518, 2240, 4096, 9216]);
  const ets = (fixed?.ets as Ets | undefined) ?? randomEtsTables(r);
  const strictTcs = [0, 1, 2, 3, 4, 5, 6, 7].filter((t) => ets.tsa[t] === 'strict' || ets.tsa[t] === 'cbs');
  const weightedTcs = [0, 1, 2, 3, 4, 5, 6, 7].filter((t) => !strictTcs.includes(t) && ets.bw[t] > 0);
  const strictPrios = [0, 1, 2, 3, 4, 5, 6, 7].filter((p) => strictTcs.includes(ets.prio_tc[p]));
  const otherPrios = [0, 1, 2, 3, 4, 5, 6, 7].filter((p) => !strictTcs.includes(ets.prio_tc[p]));
  // the kernel itself says which TC a tx dequeues, so the generator knows every queue's depth
  const h = etsHarness({ max_frame: maxFrame, ets: ets as never, quantum: fixed?.quantum as number[] | undefined }, new Core('release'));
  const events: Record<string, unknown>[] = [];
  while (events.length < n) {
    // a phase of 8..64 events with its own blocked set
    const phase = r.pick(['open', 'open', 'weighted-blocked', 'strict-blocked', 'random-blocked'] as const);
    const blocked = phase === 'weighted-blocked' ? weightedTcs : phase === 'strict-blocked' ? strictTcs : phase === 'random-blocked' ? [0, 1, 2, 3, 4, 5, 6, 7].filter(() => r.chance(0.3)) : [];
    events.push({ type: 'block', tcs: blocked });
    h.blocked = blocked.reduce((m, t) => m | (1 << t), 0);
    for (let k = r.int(8, 64); k > 0 && events.length < n; k--) {
      const queued = h.queues.reduce((a, q) => a + q.length, 0);
      // strict traffic is sparse, or it would starve every other TC
      const prio = strictPrios.length && (otherPrios.length === 0 || r.chance(0.1)) ? r.pick(strictPrios) : r.pick(otherPrios);
      const room = h.queues[ets.prio_tc[prio]].length < MAX_QUEUED;
      if (room && (queued < 16 ? r.chance(0.65) : queued < 128 ? r.chance(0.45) : r.chance(0.1))) {
        const bytes = r.frame(maxFrame);
        h.enqueue(prio, bytes);
        events.push({ type: 'enq', prio, bytes });
      } else {
        h.transmit();
        events.push({ type: 'tx' });
      }
    }
  }
  events.length = n;
  return { max_frame: maxFrame, ets, ...(fixed?.quantum ? { quantum: fixed.quantum } : {}), events };
}

interface EtsLine { type: string; tc: number | null; cur: number; deficit: number[] }

/** What a set of ETS vectors exercises: selections by TC kind, idle selections, DRR carry-overs. */
export function etsCoverage(s: { ets: Ets }, lines: object[]): Record<string, number> {
  const strict = (t: number) => s.ets.tsa[t] === 'strict' || s.ets.tsa[t] === 'cbs';
  const c = { strict: 0, weighted: 0, 'zero-bw': 0, none: 0, 'carry-overs': 0, blocks: 0 };
  let prev: EtsLine | undefined;
  for (const l of lines as EtsLine[]) {
    if (l.type === 'block') c.blocks++;
    if (l.type === 'tx') {
      if (l.tc === null) c.none++;
      else if (strict(l.tc)) c.strict++;
      else if (s.ets.bw[l.tc] > 0) c.weighted++;
      else c['zero-bw']++;
      // a DRR visit that starts with deficit kept from the TC's previous visit
      if (l.tc !== null && !strict(l.tc) && prev && prev.cur !== l.tc && prev.deficit[l.tc] > 0) c['carry-overs']++;
    }
    prev = l;
  }
  return c;
}
