// Random congestion-point stimuli (`dcbkit vectors qcn-cp --random N --seed S [--config CONFIG]`)
// and the coverage of qcn-cp vectors.
//
// Without a config the generator draws a profile and its parameters (qau-pc: Qeq, w and the
// quantiser; dcqcn: Kmin < Kmax and Pmax); with one, `fixed` holds the TC's registers. Events come
// in phases of 8..64: `fill` (mostly enqueues, the queue climbs past the set point or Kmax), `drain`
// (mostly dequeues, back to empty) and `hover` (an enqueue below the level, a dequeue above it, so
// the queue swings around Qeq or the middle of the marking ramp). Frames are 64..max frame with both ends
// often; a dequeue only takes bytes the queue holds, and the queue stays below a few times the
// level so a set stays well inside the kernel's 2^30-byte bound.

import type { Rand } from './random.js';

type Params = { profile: 'qau-pc'; q_eq: number; w: number; quantiser: string } | { profile: 'dcqcn'; kmin_bytes: number; kmax_bytes: number; pmax: number };

function randomParams(r: Rand): Params {
  if (r.pick(['qau-pc', 'dcqcn']) === 'qau-pc') return { profile: 'qau-pc', q_eq: r.pick([26_000, 30_208, 66_000, 150_000]), w: r.int(1, 8), quantiser: r.pick(['linear', 'msb']) };
  const kmin = r.pick([0, 5_000, 20_000, 40_000]);
  return { profile: 'dcqcn', kmin_bytes: kmin, kmax_bytes: kmin + r.pick([1_000, 50_000, 200_000]), pmax: r.pick([0.01, 0.07, 0.2, 1]) };
}

/** A valid qcn-cp stimulus of `n` events; `fixed` holds `params` from a register image. */
export function randomQcnCp(r: Rand, n: number, fixed?: Record<string, unknown>): Record<string, unknown> {
  const params = (fixed?.params as Params | undefined) ?? randomParams(r);
  const seed = r.next();
  const maxFrame = r.pick([1518, 4096, 9216]);
  // hover swings the queue around the set point, or the middle of the marking ramp; fill climbs
  // to a few times the set point or Kmax (where the feedback saturates, or every frame is marked)
  const top = params.profile === 'qau-pc' ? params.q_eq : params.kmax_bytes;
  const level = params.profile === 'qau-pc' ? params.q_eq : (params.kmin_bytes + params.kmax_bytes) / 2;
  const cap = 5 * top + 4 * maxFrame;
  const events: Record<string, unknown>[] = [];
  let q = 0;
  while (events.length < n) {
    const phase = r.pick(['fill', 'fill', 'drain', 'hover', 'hover'] as const);
    for (let k = r.int(8, 64); k > 0 && events.length < n; k--) {
      const bytes = r.frame(maxFrame);
      const enq = q === 0 || (q + bytes <= cap && (phase === 'fill' ? r.chance(0.85) : phase === 'drain' ? r.chance(0.15) : q < level));
      if (enq) {
        events.push({ type: 'enq', bytes, src: r.int(1, 8) });
        q += bytes;
      } else {
        const take = Math.min(q, bytes);
        events.push({ type: 'deq', bytes: take });
        q -= take;
      }
    }
  }
  events.length = n;
  return { seed, params, events };
}

interface CpLine { type: string; q: number; ttm?: number; fb?: number; cnm?: object | null; p_q16?: number; ce?: number }

/**
 * What a set of qcn-cp vectors exercises. qau-pc: enqueues, dequeues, samples (an enqueue after
 * which the countdown restarted), CNMs, samples whose Fb was clamped at -Fbmax = -Qeq (2w + 1) (the
 * largest feedback the quantiser gives), samples with no CNM.
 * dcqcn: enqueues, dequeues, enqueues below Kmin, on the ramp and above Kmax, and marks.
 */
export function qcnCpCoverage(s: { params: Params; events: { type: string; bytes: number }[] }, lines: object[]): Record<string, number> {
  const ls = lines as CpLine[];
  if (s.params.profile === 'dcqcn') {
    const c = { enq: 0, deq: 0, 'below-kmin': 0, ramp: 0, 'above-kmax': 0, marks: 0 };
    for (const l of ls) {
      if (l.type === 'deq') { c.deq++; continue; }
      c.enq++;
      if (l.p_q16 === 0) c['below-kmin']++;
      else if (l.p_q16! < 65536) c.ramp++;
      else c['above-kmax']++;
      if (l.ce) c.marks++;
    }
    return c;
  }
  const p = s.params;
  const fbMax = p.q_eq * (2 * p.w + 1);
  const c = { enq: 0, deq: 0, samples: 0, cnms: 0, 'fb-max': 0, 'quiet-samples': 0 };
  let ttm = 150_000; // the congestion point's first countdown (802.1Qau sample base at qf 0)
  ls.forEach((l, i) => {
    if (l.type === 'deq') c.deq++;
    else {
      c.enq++;
      if (l.ttm !== ttm - s.events[i].bytes) {
        c.samples++;
        if (l.cnm) c.cnms++;
        else c['quiet-samples']++;
        if (l.fb === -fbMax) c['fb-max']++;
      }
    }
    ttm = l.ttm!;
  });
  return c;
}
