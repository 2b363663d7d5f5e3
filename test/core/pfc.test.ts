// Spec vectors for assembly/pfc.ts (802.1Qbb PFC and 802.3x PAUSE, docs/design.md §4.1), driven through
// host/core/pfc.ts. Every expected number is derived in the comment next to it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Core } from '../../host/core/loader.js';
import { PfcPort, PORT_UNIT, type PfcPortConfig } from '../../host/core/pfc.js';

const G = 1e9;
const OFF = 2 ** 31 - 1; // "threshold disabled"

function port(core: Core, over: Partial<PfcPortConfig> = {}): PfcPort {
  const fill = (v: number) => Array(9).fill(v);
  return new PfcPort(core, {
    mode: 'pfc', enable: [3, 4], speedBps: 100 * G,
    xoff: fill(OFF), xon: fill(0), headroom: fill(0), ...over,
  });
}

describe('pfc: pause quantum (512 bit times, in ps)', () => {
  it.each([
    [10, 51200n],  // 512 bit * 100 ps/bit = 51.2 ns
    [25, 20480n],  // 512 * 40 ps
    [40, 12800n],  // 512 * 25 ps
    [50, 10240n],  // 512 * 20 ps
    [100, 5120n],  // 512 * 10 ps = 5.12 ns
    [200, 2560n],  // 512 * 5 ps
    [400, 1280n],  // 512 * 2.5 ps = 1.28 ns
  ])('%iG -> %i ps', (gbps, ps) => {
    expect(port(new Core(), { speedBps: gbps * G }).quantumPs).toBe(ps);
  });
});

describe('pfc: egress obeys received PFC', () => {
  for (const flavour of ['release', 'debug'] as const) {
    it(`0xFFFF quanta at 100G pauses for 335,539,200 ps (${flavour})`, () => {
      const p = port(new Core(flavour));
      const t0 = 1_000_000n;
      // e = bit 3, time[3] = 65535: pausedUntil = t0 + 65535 * 5120 = t0 + 335,539,200
      p.receivePfc(0b1000, [0, 0, 0, 0xffff, 0, 0, 0, 0], t0);
      const until = t0 + 335_539_200n;
      expect(p.snapshot(t0).paused_until_ps[3]).toBe(Number(until));
      expect(p.blocked(t0)).toBe(0b1000);
      expect(p.blocked(until - 1n)).toBe(0b1000);
      expect(p.blocked(until)).toBe(0); // the timer has expired at exactly pausedUntil
      expect(p.pausedPs(3, until + 5n)).toBe(335_539_200n);
      expect(p.snapshot(until).xoff_rx[3]).toBe(1);
    });
  }

  it('a new time REPLACES the running timer, never adds to it (10G)', () => {
    const p = port(new Core(), { speedBps: 10 * G });
    // t = 0: 100 quanta at 10G = 100 * 51,200 = 5,120,000 ps
    p.receivePfc(0b1000, [0, 0, 0, 100, 0, 0, 0, 0], 0n);
    expect(p.snapshot(0n).paused_until_ps[3]).toBe(5_120_000);
    // t = 1,000,000: 10 quanta -> 1,000,000 + 512,000 = 1,512,000 (adding would give 5,632,000)
    p.receivePfc(0b1000, [0, 0, 0, 10, 0, 0, 0, 0], 1_000_000n);
    expect(p.snapshot(1_000_000n).paused_until_ps[3]).toBe(1_512_000);
    expect(p.blocked(1_511_999n)).toBe(0b1000);
    expect(p.blocked(1_512_000n)).toBe(0);
    // paused time: [0, 1,000,000) then [1,000,000, 1,512,000) = 1,512,000 ps in all
    expect(p.pausedPs(3, 9_000_000n)).toBe(1_512_000n);
  });

  it('time 0 (XON) ends a pause at once; e[n] = 0 leaves priority n alone', () => {
    const p = port(new Core());
    p.receivePfc(0b11000, [0, 0, 0, 0xffff, 0xffff, 0, 0, 0], 0n);
    // XON for priority 3 only at t = 2000 ps; priority 4 stays paused
    p.receivePfc(0b1000, [0, 0, 0, 0, 0x1234, 0, 0, 0], 2000n);
    const s = p.snapshot(2000n);
    expect(s.blocked).toBe(0b10000);
    expect(s.paused_until_ps[3]).toBe(2000);
    expect(s.paused_until_ps[4]).toBe(65535 * 5120); // untouched: e[4] was 0 in the second frame
    expect(s.paused_ps[3]).toBe(2000);
    expect(s.xon_rx[3]).toBe(1);
    expect(s.xoff_rx[3]).toBe(1);
    expect(s.xoff_rx[4]).toBe(1);
  });

  it('entries for priorities without PFC are ignored and counted', () => {
    const p = port(new Core()); // PFC on 3 and 4
    p.receivePfc(0b101, [100, 0, 100, 0, 0, 0, 0, 0], 0n);
    const s = p.snapshot(0n);
    expect(s.blocked).toBe(0);
    expect(s.rx_ignored).toBe(2);
  });

  it('802.3x PAUSE pauses all eight priorities; PFC frames are ignored in PAUSE mode', () => {
    const p = port(new Core(), { mode: 'pause', speedBps: 10 * G });
    // 100 quanta at 10G = 5,120,000 ps
    p.receivePause(100, 0n);
    expect(p.blocked(0n)).toBe(0xff);
    expect(p.blocked(5_119_999n)).toBe(0xff);
    expect(p.blocked(5_120_000n)).toBe(0);
    p.receivePfc(0xff, [9, 9, 9, 9, 9, 9, 9, 9], 6_000_000n);
    expect(p.blocked(6_000_000n)).toBe(0);
    // PAUSE time 0 resumes at once
    p.receivePause(0xffff, 7_000_000n);
    p.receivePause(0, 7_000_100n);
    const s = p.snapshot(8_000_000n);
    expect(s.blocked).toBe(0);
    expect(s.rx_ignored).toBe(8); // one per enabled entry of the PFC frame (e = 0xFF)
    expect(s.xoff_rx[PORT_UNIT]).toBe(2);
    expect(s.xon_rx[PORT_UNIT]).toBe(1);
    expect(s.paused_ps[PORT_UNIT]).toBe(5_120_000 + 100);
  });

  it('a PAUSE frame on a PFC port is ignored (the two are mutually exclusive)', () => {
    const p = port(new Core());
    p.receivePause(0xffff, 0n);
    expect(p.blocked(0n)).toBe(0);
    expect(p.snapshot(0n).rx_ignored).toBe(1);
  });

  it('maps blocked priorities to blocked traffic classes', () => {
    const core = new Core();
    const blockedTcs = core.fn<(b: number, m: number) => number>('pfcBlockedTcsOne');
    // prio_tc [0,0,1,1,2,2,3,3] packed 3 bits per priority
    const map = [0, 0, 1, 1, 2, 2, 3, 3].reduce((a, tc, n) => a | (tc << (3 * n)), 0);
    expect(blockedTcs(0b1000, map)).toBe(0b10);   // priority 3 -> TC 1
    expect(blockedTcs(0b10001, map)).toBe(0b101); // priorities 0, 4 -> TCs 0, 2
    expect(blockedTcs(0, map)).toBe(0);
  });
});

describe('pfc: ingress generates PFC', () => {
  // priority 3 lossless: xoff 10,000 B, xon 5,000 B, headroom 20,000 B -> drop limit 30,000 B
  const cfg = (): Partial<PfcPortConfig> => {
    const xoff = Array(9).fill(OFF), xon = Array(9).fill(0), headroom = Array(9).fill(0);
    xoff[3] = 10_000; xon[3] = 5_000; headroom[3] = 20_000;
    return { xoff, xon, headroom };
  };

  it('XOFF at occupancy >= xoff, refresh every pause_time/2 quanta, one XON at <= xon', () => {
    const p = port(new Core(), cfg());
    let t = 0n;
    // 6 x 1500 = 9000 < 10,000: nothing; the 7th brings 10,500 >= 10,000 -> XOFF
    for (let i = 0; i < 6; i++) expect(p.arrive(3, 1500, (t += 120_000n))).toBe(true);
    expect(p.takePending().mask).toBe(0);
    expect(p.arrive(3, 1500, (t += 120_000n))).toBe(true);
    const tXoff = t; // 840,000 ps
    const xoff = p.takePending();
    expect(xoff.mask).toBe(0b1000);
    expect(xoff.times[3]).toBe(0xffff);
    // refresh interval = (65535 >> 1) quanta = 32767 * 5120 ps = 167,767,040 ps
    expect(p.refreshPs).toBe(167_767_040n);
    expect(p.nextRefresh()).toBe(tXoff + 167_767_040n);
    // another arrival while in XOFF state sends nothing new
    p.arrive(3, 1500, (t += 120_000n));
    expect(p.takePending().mask).toBe(0);
    // the refresh fires at its deadline, and the next is one interval later
    expect(p.refreshDue(tXoff + 167_767_039n)).toBe(0);
    expect(p.refreshDue(tXoff + 167_767_040n)).toBe(0b1000);
    expect(p.takePending()).toEqual({ mask: 0b1000, times: [0, 0, 0, 0xffff, 0, 0, 0, 0, 0] });
    expect(p.nextRefresh()).toBe(tXoff + 2n * 167_767_040n);
    // occupancy 12,000: departures to 6,000 (> xon) send nothing, to 4,500 (<= 5,000) one XON
    for (let i = 0; i < 4; i++) p.depart(3, 1500);
    expect(p.occupancy(3)).toBe(6000);
    expect(p.takePending().mask).toBe(0);
    p.depart(3, 1500);
    expect(p.takePending()).toEqual({ mask: 0b1000, times: [0, 0, 0, 0, 0, 0, 0, 0, 0] });
    expect(p.nextRefresh()).toBeNull();
    p.depart(3, 1500);
    expect(p.takePending().mask).toBe(0); // only one XON
    const s = p.snapshot(t);
    expect(s.xoff_tx[3]).toBe(2); // first XOFF + one refresh
    expect(s.xon_tx[3]).toBe(1);
    expect(s.occ[3]).toBe(3000);
    expect(s.occ[PORT_UNIT]).toBe(3000);
  });

  it('a custom refresh interval and pause time are honoured', () => {
    const c = { ...cfg(), pauseTime: 1000, refreshQuanta: 300, speedBps: 10 * G };
    const p = port(new Core(), c);
    for (let i = 0; i < 7; i++) p.arrive(3, 1500, 0n);
    expect(p.takePending().times[3]).toBe(1000);
    expect(p.nextRefresh()).toBe(300n * 51_200n); // 15,360,000 ps
  });

  it('drops and counts frames beyond xoff + headroom; lossy priorities never send PFC', () => {
    const p = port(new Core(), cfg());
    // 20 x 1500 = 30,000 = limit exactly: all accepted; the 21st would make 31,500 > 30,000
    for (let i = 0; i < 20; i++) expect(p.arrive(3, 1500, 0n)).toBe(true);
    expect(p.arrive(3, 1500, 0n)).toBe(false);
    expect(p.arrive(3, 64, 0n)).toBe(false); // 30,064 > 30,000
    const s = p.snapshot(0n);
    expect(s.drops[3]).toBe(2);
    expect(s.drop_bytes[3]).toBe(1564);
    expect(s.occ[3]).toBe(30_000);
    // priority 1 (no PFC) with its own thresholds: tail drop only, no PFC
    const q = port(new Core(), { ...cfg() });
    for (let i = 0; i < 50; i++) q.arrive(1, 9000, 0n);
    expect(q.takePending().mask).toBe(0);
    expect(q.snapshot(0n).drops[1]).toBe(0); // limit disabled for priority 1
  });

  it('in PAUSE mode the port total is the flow-controlled unit and a PAUSE frame is queued', () => {
    const xoff = Array(9).fill(OFF), xon = Array(9).fill(0), headroom = Array(9).fill(0);
    xoff[PORT_UNIT] = 4000; xon[PORT_UNIT] = 1000; headroom[PORT_UNIT] = 2000;
    const p = port(new Core(), { mode: 'pause', xoff, xon, headroom, pauseTime: 500 });
    p.arrive(0, 1500, 0n);
    p.arrive(5, 1500, 0n);
    expect(p.takePending().mask).toBe(0); // port total 3000 < 4000
    p.arrive(7, 1500, 0n); // 4500 >= 4000 -> PAUSE (bit 8) with time 500
    expect(p.takePending()).toEqual({ mask: 1 << PORT_UNIT, times: [0, 0, 0, 0, 0, 0, 0, 0, 500] });
    expect(p.arrive(2, 1600, 0n)).toBe(false); // 6100 > 4000 + 2000
    p.depart(0, 1500);
    p.depart(5, 1500); // port total 1500 > 1000
    expect(p.takePending().mask).toBe(0);
    p.depart(7, 1500); // 0 <= 1000 -> resume
    expect(p.takePending()).toEqual({ mask: 1 << PORT_UNIT, times: [0, 0, 0, 0, 0, 0, 0, 0, 0] });
    const s = p.snapshot(0n);
    expect(s.drops[2]).toBe(1);
    expect(s.xoff_tx[PORT_UNIT]).toBe(1);
    expect(s.xon_tx[PORT_UNIT]).toBe(1);
  });

  it('the batched benchmark driver matches single events and memory never grows', () => {
    const core = new Core();
    const c = cfg();
    const items: Array<[number, number, number]> = []; // prio, depart?, bytes
    for (let i = 0; i < 200; i++) items.push([3, 0, 1500], [1, 0, 64]);
    for (let i = 0; i < 150; i++) items.push([3, 1, 1500], [1, 1, 64]);
    const p = port(core, c);
    const itemsPtr = p.rec + 4096;
    items.forEach(([prio, dep, bytes], i) => {
      core.setI32(itemsPtr + 8 * i, prio | (dep << 3) | (bytes << 16));
      core.setI32(itemsPtr + 8 * i + 4, 1000);
    });
    const before = core.memoryBytes;
    const sum = core.fn<(r: number, p: number, n: number) => number>('pfcBenchRunItems')(p.rec, itemsPtr, items.length);
    expect(core.memoryBytes).toBe(before);
    const viaBatch = p.snapshot(0n);
    const q = port(new Core(), c);
    let t = 0n;
    for (const [prio, dep, bytes] of items) {
      t += 1000n;
      if (dep) q.depart(prio, bytes); else q.arrive(prio, bytes, t);
      q.takePending();
    }
    const viaSingle = q.snapshot(0n);
    expect(viaBatch.occ).toEqual(viaSingle.occ);
    expect(viaBatch.drops).toEqual(viaSingle.drops);
    expect(viaBatch.xoff_tx).toEqual(viaSingle.xoff_tx);
    expect(viaBatch.xon_tx).toEqual(viaSingle.xon_tx);
    expect(typeof sum).toBe('number');
    // 200 arrivals of priority 3 reach the 30,000 B limit after 20: 180 dropped
    expect(viaBatch.drops[3]).toBe(180);
  });
});

// ---------------------------------------------------------------------------------------------
// Properties against a direct reading of the rules (one small reference per side)
// ---------------------------------------------------------------------------------------------

describe('pfc: properties', () => {
  it('egress: blocked iff now < (time of the last entry for n) + its quanta * quantum; paused time adds up', () => {
    const core = new Core();
    fc.assert(
      fc.property(
        fc.array(fc.record({ dt: fc.integer({ min: 0, max: 400_000 }), enable: fc.integer({ min: 0, max: 255 }), time: fc.constantFrom(0, 1, 7, 100, 0xffff) }), { maxLength: 40 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        (frames, probe) => {
          const p = port(core, { speedBps: 10 * G, enable: [0, 1, 2, 3, 4, 5, 6, 7] });
          const last: Array<{ at: number; until: number } | null> = Array(8).fill(null);
          const paused = Array(8).fill(0);
          let t = 0;
          for (const f of frames) {
            t += f.dt;
            p.receivePfc(f.enable, Array(8).fill(f.time), BigInt(t));
            for (let n = 0; n < 8; n++) {
              if (!((f.enable >> n) & 1)) continue;
              const prev = last[n];
              if (prev) paused[n] += Math.max(0, Math.min(prev.until, t) - prev.at);
              last[n] = { at: t, until: t + f.time * 51_200 }; // replaces, never adds
            }
          }
          const now = t + probe;
          let expected = 0;
          for (let n = 0; n < 8; n++) {
            const l = last[n];
            if (l && now < l.until) expected |= 1 << n;
            const open = l ? Math.max(0, Math.min(l.until, now) - l.at) : 0;
            expect(Number(p.pausedPs(n, BigInt(now)))).toBe(paused[n] + open);
          }
          expect(p.blocked(BigInt(now))).toBe(expected);
        },
      ),
      { numRuns: 200, seed: 0xbeef },
    );
  });

  it('ingress: XOFF/XON frames and drops follow the hysteresis rules for any arrival/departure sequence', () => {
    const core = new Core();
    fc.assert(
      fc.property(
        fc.integer({ min: 1000, max: 20_000 }), fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 20_000 }),
        fc.array(fc.record({ depart: fc.boolean(), bytes: fc.integer({ min: 64, max: 9216 }) }), { maxLength: 120 }),
        (xoff, xonPct, headroom, ops) => {
          const xon = Math.floor((xoff * xonPct) / 100);
          const xoffs = Array(9).fill(OFF), xons = Array(9).fill(0), hr = Array(9).fill(0);
          xoffs[3] = xoff; xons[3] = xon; hr[3] = headroom;
          const p = port(core, { xoff: xoffs, xon: xons, headroom: hr });
          const held: number[] = [];
          let occ = 0, inXoff = false, drops = 0, xoffTx = 0, xonTx = 0;
          for (const op of ops) {
            let expectMask = 0, expectTime = 0;
            if (op.depart && held.length) {
              const b = held.shift()!;
              occ -= b;
              p.depart(3, b);
              if (inXoff && occ <= xon) { inXoff = false; xonTx++; expectMask = 8; expectTime = 0; }
            } else if (!op.depart) {
              const ok = occ + op.bytes <= xoff + headroom;
              expect(p.arrive(3, op.bytes, 0n)).toBe(ok);
              if (!ok) drops++;
              else {
                occ += op.bytes;
                held.push(op.bytes);
                if (!inXoff && occ >= xoff) { inXoff = true; xoffTx++; expectMask = 8; expectTime = 0xffff; }
              }
            }
            const tx = p.takePending();
            expect(tx.mask).toBe(expectMask);
            if (expectMask) expect(tx.times[3]).toBe(expectTime);
          }
          const s = p.snapshot(0n);
          expect(s.occ[3]).toBe(occ);
          expect(s.occ[PORT_UNIT]).toBe(occ);
          expect(s.drops[3]).toBe(drops);
          expect(s.xoff_tx[3]).toBe(xoffTx);
          expect(s.xon_tx[3]).toBe(xonTx);
          expect(s.xoff_state).toBe(inXoff ? 8 : 0);
        },
      ),
      { numRuns: 200, seed: 0xcafe },
    );
  });
});

describe('pfc: derived per-packet state agrees with the rules it replaces', () => {
  // pfcArrive/pfcDepart test one precomputed threshold per unit (xoffAt, xonAt) instead of the
  // mode, enable mask and XOFF-state bits; this model keeps the bits and applies docs/design.md §4.1
  // literally, for every mode, enable mask and priority.
  it('ingress: any mode, enable mask, priorities and thresholds give the frames of the rule-by-rule model', () => {
    const core = new Core();
    fc.assert(
      fc.property(
        fc.constantFrom<'off' | 'pfc' | 'pause'>('off', 'pfc', 'pause'),
        fc.integer({ min: 0, max: 255 }),
        fc.array(fc.record({ xoff: fc.integer({ min: 500, max: 30_000 }), xonPct: fc.integer({ min: 0, max: 100 }), headroom: fc.integer({ min: 0, max: 20_000 }) }), { minLength: 9, maxLength: 9 }),
        fc.array(fc.record({ depart: fc.boolean(), prio: fc.integer({ min: 0, max: 7 }), bytes: fc.integer({ min: 64, max: 9216 }) }), { maxLength: 150 }),
        (mode, enableMask, th, ops) => {
          const enable = [0, 1, 2, 3, 4, 5, 6, 7].filter((n) => (enableMask >> n) & 1);
          const xoff = th.map((t) => t.xoff), xon = th.map((t) => Math.floor((t.xoff * t.xonPct) / 100)), hr = th.map((t) => t.headroom);
          const p = port(core, { mode, enable, xoff, xon, headroom: hr });
          const unitOf = (prio: number) => (mode === 'pause' ? PORT_UNIT : prio);
          const controlled = (u: number) => (mode === 'pause' ? u === PORT_UNIT : mode === 'pfc' && ((enableMask >> u) & 1) === 1);
          const occ = Array(9).fill(0);
          const held: Array<{ prio: number; bytes: number }> = [];
          let state = 0;
          for (const op of ops) {
            let expectMask = 0;
            if (op.depart && held.length) {
              const f = held.shift()!;
              occ[f.prio] -= f.bytes; occ[PORT_UNIT] -= f.bytes;
              p.depart(f.prio, f.bytes);
              const u = unitOf(f.prio);
              if ((state >> u) & 1 && occ[u] <= xon[u]) { state &= ~(1 << u); expectMask = 1 << u; }
            } else if (!op.depart) {
              const u = unitOf(op.prio);
              const ok = occ[u] + op.bytes <= Math.min(2 ** 31 - 1, xoff[u] + hr[u]);
              expect(p.arrive(op.prio, op.bytes, 0n)).toBe(ok);
              if (ok) {
                occ[op.prio] += op.bytes; occ[PORT_UNIT] += op.bytes;
                held.push({ prio: op.prio, bytes: op.bytes });
                if (controlled(u) && !((state >> u) & 1) && occ[u] >= xoff[u]) { state |= 1 << u; expectMask = 1 << u; }
              }
            }
            expect(p.takePending().mask).toBe(expectMask);
          }
          const s = p.snapshot(0n);
          expect(s.occ).toEqual(occ);
          expect(s.xoff_state).toBe(state);
        },
      ),
      { numRuns: 300, seed: 0x5eed },
    );
  });

  it('egress: the cached blocked mask equals the timers at any probe time, in any order', () => {
    const core = new Core();
    fc.assert(
      fc.property(
        fc.constantFrom<'pfc' | 'pause'>('pfc', 'pause'),
        fc.array(fc.record({
          dt: fc.integer({ min: 0, max: 300_000 }), enable: fc.integer({ min: 0, max: 255 }), time: fc.constantFrom(0, 1, 3, 7, 100),
          probes: fc.array(fc.integer({ min: -400_000, max: 400_000 }), { maxLength: 4 }),
        }), { maxLength: 30 }),
        (mode, frames) => {
          const p = port(core, { mode, enable: [0, 1, 2, 3, 4, 5, 6, 7], speedBps: 10 * G });
          const until = Array(9).fill(0);
          let t = 0;
          const expected = (now: number) => mode === 'pause'
            ? (now < until[PORT_UNIT] ? 0xff : 0)
            : until.slice(0, 8).reduce((m, u, n) => m | (now < u ? 1 << n : 0), 0);
          for (const f of frames) {
            t += f.dt;
            if (mode === 'pause') { p.receivePause(f.time, BigInt(t)); until[PORT_UNIT] = t + f.time * 51_200; }
            else {
              p.receivePfc(f.enable, Array(8).fill(f.time), BigInt(t));
              for (let n = 0; n < 8; n++) if ((f.enable >> n) & 1) until[n] = t + f.time * 51_200;
            }
            for (const d of f.probes) expect(p.blocked(BigInt(Math.max(0, t + d)))).toBe(expected(Math.max(0, t + d)));
          }
        },
      ),
      { numRuns: 300, seed: 0xb10c },
    );
  });
});

describe('pfc: limits', () => {
  it('an unlimited unit accepts up to 2^31 - 1 bytes and then drops instead of wrapping', () => {
    const p = port(new Core()); // thresholds disabled: limit = 2^31 - 1
    // 32767 frames of 65535 B = 2,147,385,345 B; 98,302 B of room remain below 2^31 - 1
    for (let i = 0; i < 32767; i++) p.arrive(1, 65535, 0n);
    expect(p.occupancy(1)).toBe(2_147_385_345);
    expect(p.arrive(1, 65535, 0n)).toBe(true); // 2,147,450,880
    expect(p.arrive(1, 65535, 0n)).toBe(false); // would be 2,147,516,415 > 2,147,483,647
    expect(p.occupancy(1)).toBe(2_147_450_880);
  });
});
