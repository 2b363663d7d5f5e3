// Property: a lossless priority never drops when the ingress buffer holds xoff + the computed
// headroom (host/analysis/headroom.ts) and the sender obeys pauses within the modelled delays.
//
// Two parties on one link, both driven by the PFC kernel in the core:
//   S (sender)   sends priority-3 frames back to back at line rate; before starting a frame it asks
//                its egress record (pfcBlockedMask); a started frame always finishes.
//   R (receiver) accounts each frame when it starts arriving (pfcArrive), drains at a fraction of
//                line rate (0 = never), and sends the PFC frames its ingress record asks for.
// Delays, each drawn anywhere in its bound (and often at the bound itself):
//   R's reverse link may be busy with a data frame for up to (mtu + 20) * 8 bit times before the
//   PFC frame (672 bits) starts; a PFC frame already on the reverse link delays the next one;
//   propagation each way = one interface delay + cable (5 ns/m); S may keep starting frames up to
//   the 802.3 peer-response bound after the PFC frame has arrived. These are the terms of the
//   headroom model, so the bound it gives must hold: zero drops.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeHeadroom, SPEED_TABLE } from '../host/analysis/headroom.js';
import { Core } from '../host/core/loader.js';
import { PfcPort } from '../host/core/pfc.js';

const PRIO = 3;
/** Frames per run: enough to fill any headroom of the table many times over, and to keep runs short. */
const MAX_FRAMES = 3000;
const BIT = 1 << PRIO;

interface Setup {
  speedBps: number;
  cableM: number;
  mtu: number;
  xoff: number;
  xonFrac: number;
  /** Drain rate as a fraction num/8 of line rate; 0 = R never drains. */
  drainEighths: number;
  seed: number;
  /** Headroom used by R minus the computed one (negative to show the bound is tight). */
  headroomDelta: number;
  /** Force every delay and frame to its worst case. */
  worst: boolean;
}

interface Outcome { drops: number; peakOverXoff: number; headroom: number; sent: number; xoffs: number }

function simulate(core: Core, s: Setup): Outcome {
  const row = SPEED_TABLE.get(s.speedBps)!;
  const headroom = computeHeadroom({ speedBps: s.speedBps, cableM: s.cableM, mtu: s.mtu }).headroom_bytes;
  const ppb = 8e12 / s.speedBps; // ps per byte (integer for every table speed)
  const oneWayPs = (row.interfaceBt * ppb) / 8 + s.cableM * 5000;
  const maxFramePs = (s.mtu + 20) * ppb;
  const responsePs = row.responseQuanta * 64 * ppb;
  const pfcFramePs = 84 * ppb;
  const fill = (v: number) => Array(9).fill(v);
  const xoff = fill(2 ** 30), xon = fill(0), hr = fill(0);
  xoff[PRIO] = s.xoff;
  xon[PRIO] = Math.floor(s.xoff * s.xonFrac);
  hr[PRIO] = headroom + s.headroomDelta;
  const base = core.constant('SCRATCH');
  const R = new PfcPort(core, { mode: 'pfc', enable: [PRIO], speedBps: s.speedBps, xoff, xon, headroom: hr }, base);
  const S = new PfcPort(core, { mode: 'pfc', enable: [PRIO], speedBps: s.speedBps, xoff: fill(2 ** 30), xon: fill(0), headroom: fill(0) }, base + 2048);

  let x = s.seed >>> 0 || 1;
  const rand = (n: number) => { x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0; return x % (n + 1); };
  const upTo = (bound: number) => (s.worst || rand(1) === 0 ? bound : rand(bound));

  type Ev = { t: number; seq: number; run: (t: number) => void };
  const queue: Ev[] = [];
  let seq = 0;
  const at = (t: number, run: (t: number) => void) => {
    const e = { t, seq: seq++, run };
    let lo = 0, hi = queue.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (queue[mid].t < t || (queue[mid].t === t && queue[mid].seq < e.seq)) lo = mid + 1; else hi = mid; }
    queue.splice(lo, 0, e);
  };

  const pauseQuanta = 0xffff;
  const horizon = Math.round(pauseQuanta * 64 * ppb * 1.6); // two refreshes at least
  let senderFree = 0, sent = 0, drops = 0, peak = 0, xoffs = 0;
  let reverseFree = 0, pfcTxScheduled = false, lastApply = 0;
  const stored: number[] = [];
  let draining = false;

  const trySend = (t: number) => {
    if (t < senderFree || sent >= MAX_FRAMES) return; // still sending (a try is queued at senderFree), or done
    if (S.blocked(BigInt(t)) & BIT) {
      at(Number(S.pausedUntil(PRIO)), trySend);
      return;
    }
    const size = s.worst || rand(1) === 0 ? s.mtu : 64 + rand(s.mtu - 64);
    senderFree = t + (size + 20) * ppb;
    sent++;
    at(t + oneWayPs, (ta) => arrive(ta, size));
    at(senderFree, trySend);
  };

  const pfcTxStart = (t: number) => {
    pfcTxScheduled = false;
    const { mask, times } = R.takePending();
    if (!(mask & BIT)) return;
    if (times[PRIO] > 0) xoffs++;
    reverseFree = t + pfcFramePs;
    const apply = Math.max(lastApply, t + pfcFramePs + oneWayPs + upTo(responsePs));
    lastApply = apply;
    const frameTimes = [0, 0, 0, 0, 0, 0, 0, 0];
    frameTimes[PRIO] = times[PRIO];
    at(apply, (ta) => { S.receivePfc(BIT, frameTimes, BigInt(ta)); trySend(ta); });
  };

  const afterRecordChange = (t: number) => {
    if (!R.pendingMask() || pfcTxScheduled) return;
    pfcTxScheduled = true;
    // a PFC frame already on the reverse link delays this one; otherwise a data frame may be
    at(reverseFree > t ? reverseFree : t + upTo(maxFramePs), pfcTxStart);
  };

  const startDrain = (t: number) => {
    if (draining || !stored.length || s.drainEighths === 0) return;
    draining = true;
    const size = stored[0];
    at(t + Math.ceil((size * ppb * 8) / s.drainEighths), (td) => {
      draining = false;
      R.depart(PRIO, stored.shift()!);
      afterRecordChange(td);
      startDrain(td);
    });
  };

  const arrive = (t: number, size: number) => {
    if (!R.arrive(PRIO, size, BigInt(t))) drops++;
    else stored.push(size);
    peak = Math.max(peak, R.occupancy(PRIO));
    afterRecordChange(t);
    startDrain(t);
  };

  at(0, trySend);
  while (queue.length) {
    // R's XOFF refresh is an event too: it fires at its deadline, before anything later
    const due = R.nextRefresh();
    if (due !== null && Number(due) <= queue[0].t) {
      R.refreshDue(due);
      afterRecordChange(Number(due));
      continue;
    }
    const e = queue.shift()!;
    if (e.t > horizon) break;
    e.run(e.t);
  }
  return { drops, peakOverXoff: peak - s.xoff, headroom, sent, xoffs };
}

const speeds = [...SPEED_TABLE.keys()];

describe('pfc: lossless with the computed headroom (two-party model)', () => {
  it('never drops, whatever the speed, cable, MTU, thresholds, drain rate and delays', () => {
    const core = new Core();
    let xoffsSeen = 0;
    fc.assert(
      fc.property(
        fc.record({
          speedBps: fc.constantFrom(...speeds),
          cableM: fc.integer({ min: 0, max: 2000 }),
          mtu: fc.integer({ min: 64, max: 9216 }),
          xoffFrames: fc.integer({ min: 1, max: 6 }),
          xonFrac: fc.constantFrom(0, 0.25, 0.5, 0.9),
          drainEighths: fc.constantFrom(0, 1, 4, 7),
          seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
          worst: fc.boolean(),
        }),
        (p) => {
          const out = simulate(core, { ...p, xoff: p.xoffFrames * p.mtu, headroomDelta: 0 });
          xoffsSeen += out.xoffs;
          expect(out.drops).toBe(0);
          expect(out.peakOverXoff).toBeLessThanOrEqual(out.headroom);
        },
      ),
      { numRuns: 150, seed: 0x1eaf },
    );
    expect(xoffsSeen).toBeGreaterThan(150); // every run was pushed into XOFF
  });

  it('the bound is tight: in the worst case the peak comes within two frames of it, and less headroom drops', () => {
    const core = new Core();
    // 100G, 300 m, MTU 9216: headroom 111,992 B; R never drains; every delay at its bound.
    const worst: Setup = { speedBps: 100e9, cableM: 300, mtu: 9216, xoff: 20_000, xonFrac: 0.5, drainEighths: 0, seed: 7, headroomDelta: 0, worst: true };
    const ok = simulate(core, worst);
    expect(ok.headroom).toBe(111_992);
    expect(ok.drops).toBe(0);
    // the sender stays paused across the run (1.6 * 65535 quanta): the first XOFF and a refresh
    // every 32767 quanta = 167.77 us at 100G, i.e. at 167.77, 335.54 and 503.3 us -> 4 XOFF frames
    expect(ok.xoffs).toBe(4);
    // the frame-granular sender fills all but less than two frames (with their 20 B wire overhead)
    expect(ok.peakOverXoff).toBeGreaterThan(ok.headroom - 2 * (9216 + 20));
    const short = simulate(core, { ...worst, headroomDelta: -2 * (9216 + 20) });
    expect(short.drops).toBeGreaterThan(0);
  });
});
