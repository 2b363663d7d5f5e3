// Random credit-loop stimuli (`dcbkit vectors credit --random N --seed S [--config CONFIG]`) and the
// coverage of credit vectors.
//
// One flow (channel 0 of the priority: the selected one with --config, else 0). Without a config
// the generator draws k, the unit, the receiver buffer and the aging time; with one, `fixed` holds
// the credit section's. The flow itself (host/credit.ts on a core of its own) is the generator's
// oracle, as the kernel that runs the set: a `data_rx` delivers a frame the sender did send (a few
// are lost: left out), a `drain` takes the oldest frame the receiver stored, a `grant_rx` or
// `sync_rx` follows its `*_tx` (a few are lost, a few grants arrive stale with an older CL), and
// time steps between frames are sometimes longer than the aging time, so credits expire.

import { CreditFlow } from '../core/credit.js';
import { Core } from '../core/loader.js';
import type { Rand } from './random.js';

type Params = { k: number; unit: number; buffer_bytes: number; aging_ps: number };

/** A valid credit stimulus of `n` events; `fixed` holds `params` from a config. */
export function randomCredit(r: Rand, n: number, fixed?: Record<string, unknown>): Record<string, unknown> {
  const params = (fixed?.params as Params | undefined) ?? {
    k: r.pick([8, 12, 16]), unit: r.pick([64, 128]), buffer_bytes: r.pick([4096, 32768, 87040]), aging_ps: r.pick([5_000_000, 100_000_000]),
  };
  const flow = new CreditFlow(new Core('release'), {
    k: params.k, unitBytes: params.unit, capacityUnits: Math.floor(params.buffer_bytes / params.unit), agingPs: BigInt(params.aging_ps),
  });
  const maxFrame = r.pick([1518, 4096, 9216]);
  const events: Record<string, unknown>[] = [];
  const inFlight: number[] = [];
  const stored: number[] = [];
  const oldCls: number[] = [];
  let t = 0;
  const push = (e: Record<string, unknown>) => events.push({ t_ps: t, ...e });
  while (events.length < n) {
    t += r.chance(0.02) ? params.aging_ps + r.int(1, params.aging_ps) : r.int(1, 2000) * 1000;
    const x = r.next() % 100;
    if (x < 30) {
      const bytes = r.frame(maxFrame);
      if (flow.trySend(bytes, BigInt(t)) > 0) inFlight.push(bytes);
      push({ type: 'send', bytes });
    } else if (x < 55 && inFlight.length) {
      const bytes = inFlight.shift()!;
      if (r.chance(0.03)) continue; // lost on the link
      if (flow.receive(bytes)) stored.push(bytes);
      push({ type: 'data_rx', bytes });
    } else if (x < 75 && stored.length) {
      const bytes = stored.shift()!;
      flow.drain(bytes);
      push({ type: 'drain', bytes });
    } else if (x < 90) {
      const cl = flow.grantValue();
      push({ type: 'grant_tx' });
      oldCls.push(cl);
      if (oldCls.length > 8) oldCls.shift();
      if (r.chance(0.05)) continue; // lost
      t += r.int(1, 500) * 1000;
      const stale = r.chance(0.05) ? oldCls[0] : undefined;
      flow.onGrant(stale ?? cl, BigInt(t));
      push(stale === undefined ? { type: 'grant_rx' } : { type: 'grant_rx', cl: stale });
    } else if (x < 95) {
      const tbs = flow.syncValue();
      push({ type: 'sync_tx' });
      if (r.chance(0.05)) continue; // lost
      t += r.int(1, 500) * 1000;
      flow.onSync(tbs);
      push({ type: 'sync_rx' });
    } else {
      flow.age(BigInt(t));
      push({ type: 'tick' });
    }
  }
  events.length = n;
  return { params, events };
}

interface CreditLine { type: string; result: number; cl?: number; last_cl: number }

/**
 * What a set of credit vectors exercises: frames sent and sends blocked for want of credit, frames
 * received and overruns (a frame that found no room), drains, grants and stale grants (a CL older
 * than the last one taken), syncs, and ticks that expired credit.
 */
export function creditCoverage(s: { events: { type: string; cl?: number }[] }, lines: object[]): Record<string, number> {
  const c = { sent: 0, blocked: 0, received: 0, overruns: 0, drains: 0, grants: 0, 'stale-grants': 0, syncs: 0, expiries: 0 };
  (lines as CreditLine[]).forEach((l, i) => {
    if (l.type === 'send') c[l.result > 0 ? 'sent' : 'blocked']++;
    if (l.type === 'data_rx') c[l.result ? 'received' : 'overruns']++;
    if (l.type === 'drain') c.drains++;
    if (l.type === 'grant_rx') c[s.events[i].cl === undefined ? 'grants' : 'stale-grants']++;
    if (l.type === 'sync_rx') c.syncs++;
    if (l.type === 'tick' && l.result > 0) c.expiries++;
  });
  return c;
}
