// Credit-based link-level flow control (assembly/credit.ts, docs/design.md §4.2): spec vectors with the
// modular arithmetic written out, and properties over a lossy FIFO link model.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CreditFlow, type CreditConfig } from '../../host/core/credit.js';
import { generateVectors } from '../../host/commands/vectors.js';
import { Core } from '../../host/core/loader.js';

function flow(over: Partial<CreditConfig> = {}, core = new Core()): CreditFlow {
  return new CreditFlow(core, { k: 16, unitBytes: 64, capacityUnits: 100, agingPs: 0n, ...over });
}

describe('credit: spec vectors', () => {
  it('no credit before the first grant', () => {
    const f = flow();
    expect(f.trySend(64, 0n)).toBe(0);
    expect(f.snapshot(0n).blocked).toBe(1);
  });

  it('grant, send test and the half-range rule (k = 16, U = 64 B)', () => {
    const f = flow();
    // CL = ABR + min(free, 2^15) = 0 + min(100, 32768) = 100
    expect(f.grantValue()).toBe(100);
    f.onGrant(100, 0n);
    // 1500 B = ceil(1500 / 64) = 24 units; four frames take TBS to 96
    for (let i = 0; i < 4; i++) expect(f.trySend(1500, 0n)).toBe(24);
    expect(f.snapshot(0n).tbs).toBe(96);
    // a fifth: available (100 - 96) mod 65536 = 4 < 24 -> refused
    expect(f.trySend(1500, 0n)).toBe(0);
    // 256 B = 4 units <= 4 available -> sent, TBS = 100
    expect(f.trySend(256, 0n)).toBe(4);
    expect(f.snapshot(0n)).toMatchObject({ tbs: 100, fccl: 100, available_units: 0, sent_units: 100, blocked: 1 });
  });

  it('counters wrap modulo 2^k (k = 4: mod 16, half range 8)', () => {
    const f = flow({ k: 4, capacityUnits: 8 });
    f.onGrant(f.grantValue(), 0n); // CL = 0 + min(8, 8) = 8
    expect(f.trySend(448, 0n)).toBe(7); // TBS = 7
    expect(f.trySend(64, 0n)).toBe(1); // TBS = 8
    f.receive(448);
    f.receive(64); // ABR = 8, used = 8
    f.drain(448);
    f.drain(64); // used = 0
    // CL = (8 + 8) mod 16 = 0
    expect(f.grantValue()).toBe(0);
    f.onGrant(0, 0n);
    expect(f.trySend(6 * 64, 0n)).toBe(6); // available (0 - 8) mod 16 = 8; TBS = 14
    expect(f.trySend(3 * 64, 0n)).toBe(0); // available (0 - 14) mod 16 = 2 < 3
    expect(f.trySend(2 * 64, 0n)).toBe(2); // 2 <= 2; TBS = 16 mod 16 = 0
    expect(f.snapshot(0n).tbs).toBe(0);
  });

  it('a frame of exactly 2^(k-1) units goes with full credit, and never without', () => {
    const f = flow({ k: 6, unitBytes: 128, capacityUnits: 32 });
    // no grant yet: available 0, so b = 32 = 2^5 is refused
    expect(f.trySend(32 * 128, 0n)).toBe(0);
    f.onGrant(f.grantValue(), 0n); // CL = 0 + min(32, 32) = 32: available (32 - 0) mod 64 = 32 <= 32
    expect(f.available(0n)).toBe(32);
    expect(f.trySend(33 * 128, 0n)).toBe(0); // 33 > 32
    expect(f.trySend(32 * 128, 0n)).toBe(32); // 32 <= 32
    expect(f.snapshot(0n)).toMatchObject({ tbs: 32, available_units: 0 });
    expect(f.trySend(128, 0n)).toBe(0);
  });

  it('a stale grant (limit behind TBS) grants nothing: no send without credit', () => {
    const f = flow({ k: 6, unitBytes: 64, capacityUnits: 32 });
    f.onGrant(f.grantValue(), 0n); // CL 32
    expect(f.trySend(20 * 64, 0n)).toBe(20); // TBS 20
    f.onGrant(0, 0n); // a late copy of an older grant: CL 0
    // (0 - 20) mod 64 = 44 > 32, so available = 0; a residue test would let b >= 12 through,
    // since (0 - (20 + 12)) mod 64 = 32 <= 32
    expect(f.available(0n)).toBe(0);
    for (const b of [1, 12, 20, 32]) expect(f.trySend(b * 64, 0n)).toBe(0);
    expect(f.snapshot(0n)).toMatchObject({ tbs: 20, sent_units: 20, blocked: 4 });
  });

  it('a corrupted grant far behind TBS grants nothing either', () => {
    const f = flow(); // k = 16, half 32768
    f.onGrant(f.grantValue(), 0n); // CL 100
    expect(f.trySend(6400, 0n)).toBe(100); // TBS 100
    f.onGrant(32_868 + 1, 0n); // (32869 - 100) mod 65536 = 32769 > 32768: behind TBS
    expect(f.available(0n)).toBe(0);
    expect(f.trySend(64, 0n)).toBe(0);
    f.onGrant(32_868, 0n); // 32768 ahead: inside the half range, taken as a (huge) grant
    expect(f.available(0n)).toBe(32_768);
  });

  it('golden vectors: a stale grant_rx (an older cl) stops the sender; a half-range frame goes', () => {
    const lines = generateVectors('credit', {
      params: { k: 6, unit: 64, buffer_bytes: 64 * 32, aging_ps: 0 },
      events: [
        { t_ps: 0, type: 'grant_tx' }, // CL 32
        { t_ps: 1, type: 'grant_rx' }, // FCCL 32
        { t_ps: 2, type: 'send', bytes: 20 * 64 }, // TBS 20
        { t_ps: 3, type: 'grant_rx', cl: 0 }, // stale: FCCL 0, behind TBS
        { t_ps: 4, type: 'send', bytes: 12 * 64 }, // refused
        { t_ps: 5, type: 'data_rx', bytes: 20 * 64 },
        { t_ps: 6, type: 'drain', bytes: 20 * 64 },
        { t_ps: 7, type: 'grant_tx' }, // CL = 20 + 32 = 52
        { t_ps: 8, type: 'grant_rx' },
        { t_ps: 9, type: 'send', bytes: 32 * 64 }, // exactly 2^(k-1) units
        { t_ps: 10, type: 'data_rx', bytes: 32 * 64 },
      ],
    }) as Array<Record<string, number>>;
    expect(lines[3]).toMatchObject({ fccl: 0, tbs: 20, available_units: 0 });
    expect(lines[4]).toMatchObject({ result: 0, tbs: 20, blocked: 1 });
    expect(lines[7]).toMatchObject({ result: 52 });
    expect(lines[9]).toMatchObject({ result: 32, tbs: 52, available_units: 0 });
    expect(lines[10]).toMatchObject({ result: 1, used_units: 32, overrun_units: 0 });
  });

  it('the grant never exceeds half the counter range', () => {
    const f = flow({ capacityUnits: 100_000 });
    expect(f.grantValue()).toBe(32_768); // 0 + min(100,000, 2^15)
  });

  it('a lost data frame comes back at the next sync', () => {
    const f = flow();
    f.onGrant(f.grantValue(), 0n); // CL 100
    f.trySend(1500, 0n); // 24 units, lost on the wire
    f.trySend(1500, 0n); // 24 units, arrives
    f.receive(1500); // ABR 24, used 24
    // without a sync: CL = 24 + (100 - 24) = 100; sender TBS 48 -> only 52 usable, 24 missing
    f.onGrant(f.grantValue(), 0n);
    expect(f.available(0n)).toBe(52);
    // sync carries TBS 48: ABR := 48, CL = 48 + 76 = 124, usable 124 - 48 = 76 = the free buffer
    f.onSync(f.syncValue());
    expect(f.grantValue()).toBe(124);
    f.onGrant(124, 0n);
    expect(f.available(0n)).toBe(76);
  });

  it('a lost grant is superseded by the next (absolute limits)', () => {
    const f = flow();
    f.grantValue(); // CL 100, lost
    f.grantValue(); // CL 100 again
    f.onGrant(100, 0n);
    expect(f.available(0n)).toBe(100);
  });

  it('credit ages out: a grant older than the aging time is void until a fresh one', () => {
    const f = flow({ agingPs: 1000n });
    f.onGrant(f.grantValue(), 0n);
    expect(f.trySend(64, 999n)).toBe(1); // 999 < 1000
    expect(f.trySend(64, 1000n)).toBe(0); // aged: 99 unused units dropped
    expect(f.snapshot(1000n)).toMatchObject({ expired_units: 99, fccl: 1, tbs: 1, available_units: 0 });
    f.receive(64);
    f.onGrant(f.grantValue(), 2000n); // CL = 1 + 99 = 100
    expect(f.available(2000n)).toBe(99);
    expect(f.trySend(64, 2500n)).toBe(1);
  });

  it('overrun is detected and counted when a sender ignores credit', () => {
    const f = flow({ capacityUnits: 2 });
    expect(f.receive(128)).toBe(true);
    expect(f.receive(64)).toBe(false);
    expect(f.snapshot(0n)).toMatchObject({ used_units: 2, overrun_units: 1, abr: 3 });
  });
});

// ---------------------------------------------------------------------------------------------
// Properties: a sender and a receiver joined by two FIFO wires that lose frames at random.
// ---------------------------------------------------------------------------------------------

type Msg = { kind: 'data'; bytes: number } | { kind: 'sync'; tbs: number } | { kind: 'grant'; cl: number };
type Action =
  | { op: 'send'; bytes: number; lose: boolean }
  | { op: 'sync'; lose: boolean }
  | { op: 'grant'; lose: boolean }
  | { op: 'deliverData' }
  | { op: 'deliverGrant' }
  | { op: 'staleGrant'; pick: number }
  | { op: 'corruptGrant'; cl: number }
  | { op: 'drain' }
  | { op: 'tick'; ps: number };

const action = (maxBytes: number): fc.Arbitrary<Action> => fc.oneof(
  fc.record({ op: fc.constant('send' as const), bytes: fc.integer({ min: 1, max: maxBytes }), lose: fc.boolean() }),
  fc.record({ op: fc.constant('sync' as const), lose: fc.boolean() }),
  fc.record({ op: fc.constant('grant' as const), lose: fc.boolean() }),
  fc.constant({ op: 'deliverData' as const }),
  fc.constant({ op: 'deliverGrant' as const }),
  fc.record({ op: fc.constant('staleGrant' as const), pick: fc.nat() }),
  fc.record({ op: fc.constant('corruptGrant' as const), cl: fc.nat({ max: 2 ** 16 - 1 }) }),
  fc.constant({ op: 'drain' as const }),
  fc.record({ op: fc.constant('tick' as const), ps: fc.integer({ min: 0, max: 3000 }) }),
);

const scenario = fc.record({
  k: fc.integer({ min: 6, max: 16 }),
  unitBytes: fc.constantFrom(64, 128, 256),
  capacityFactor: fc.integer({ min: 1, max: 6 }),
  agingPs: fc.constantFrom(0, 2000, 10_000),
}).chain((p) => {
  // frames up to the half range: units <= 2^(k-1)
  const maxBytes = Math.min(9216, p.unitBytes * 2 ** (p.k - 1));
  const maxUnits = Math.ceil(maxBytes / p.unitBytes);
  const capacityUnits = Math.max(maxUnits, Math.round((p.capacityFactor * 2 ** p.k) / 8));
  return fc.record({
    k: fc.constant(p.k), unitBytes: fc.constant(p.unitBytes), capacityUnits: fc.constant(capacityUnits),
    agingPs: fc.constant(p.agingPs), actions: fc.array(action(maxBytes), { minLength: 40, maxLength: 300 }),
  });
});

describe('credit: properties under random loss of grants, syncs and data, stale and corrupted grants', () => {
  it('the receiver never overruns, and after one clean exchange all credit is back', () => {
    const core = new Core();
    const seen = { lost: 0, blocked: 0, expired: 0, syncs: 0, behind: 0 };
    fc.assert(
      fc.property(scenario, (s) => {
        const f = new CreditFlow(core, { k: s.k, unitBytes: s.unitBytes, capacityUnits: s.capacityUnits, agingPs: BigInt(s.agingPs) });
        const half = 2 ** (s.k - 1);
        const toReceiver: Msg[] = [];
        const toSender: Msg[] = [];
        const stored: number[] = [];
        const issued: number[] = []; // every CL the receiver sent, for late (stale) copies
        let now = 0n;
        let lostUnits = 0;
        const units = (b: number) => Math.ceil(b / s.unitBytes);
        const deliverData = () => {
          const m = toReceiver.shift()!;
          if (m.kind === 'data') {
            expect(f.receive(m.bytes)).toBe(true);
            stored.push(m.bytes);
          } else if (m.kind === 'sync') f.onSync(m.tbs);
        };
        for (const a of s.actions) {
          switch (a.op) {
            case 'send':
              if (f.trySend(a.bytes, now) > 0) {
                if (a.lose) lostUnits += units(a.bytes); else toReceiver.push({ kind: 'data', bytes: a.bytes });
              }
              break;
            case 'sync': { const tbs = f.syncValue(); if (!a.lose) toReceiver.push({ kind: 'sync', tbs }); break; }
            case 'grant': { const cl = f.grantValue(); issued.push(cl); if (!a.lose) toSender.push({ kind: 'grant', cl }); break; }
            case 'deliverData': if (toReceiver.length) deliverData(); break;
            case 'deliverGrant': { const m = toSender.shift(); if (m?.kind === 'grant') f.onGrant(m.cl, now); break; }
            case 'staleGrant': if (issued.length) f.onGrant(issued[a.pick % issued.length], now); break;
            case 'corruptGrant': {
              // A corrupted limit that lands ahead of TBS but beyond the real grant cannot be told
              // from a real grant by any counter rule (the FCS drops such frames: a lost grant);
              // every other value, in particular any limit behind TBS, must grant nothing new.
              const cl = a.cl % 2 ** s.k;
              const ahead = (cl - f.syncValue() + 2 ** s.k) % 2 ** s.k;
              const realAhead = issued.length ? (issued[issued.length - 1] - f.syncValue() + 2 ** s.k) % 2 ** s.k : 0;
              if (ahead > half) seen.behind++;
              if (ahead > half || ahead <= Math.min(realAhead, half)) f.onGrant(cl, now);
              break;
            }
            case 'drain': { const b = stored.shift(); if (b !== undefined) f.drain(b); break; }
            case 'tick': now += BigInt(a.ps); break;
          }
          const snap = f.snapshot(now);
          expect(snap.overrun_units).toBe(0);
          expect(snap.used_units).toBeLessThanOrEqual(s.capacityUnits);
          expect(snap.available_units).toBeLessThanOrEqual(half);
        }
        // Heal: everything in flight arrives, the buffer drains, then one clean sync and grant.
        while (toReceiver.length) deliverData();
        while (toSender.length) { const m = toSender.shift()!; if (m.kind === 'grant') f.onGrant(m.cl, now); }
        for (const b of stored.splice(0)) f.drain(b);
        f.onSync(f.syncValue());
        f.onGrant(f.grantValue(), now);
        const end = f.snapshot(now);
        // no credit lost for good: the sender may use the whole buffer (capped at the half range)
        expect(end.available_units).toBe(Math.min(s.capacityUnits, half));
        // conservation: every unit sent was either stored or lost on the wire
        expect(end.sent_units).toBe(end.recv_units + lostUnits);
        expect(end.abr).toBe(end.tbs);
        seen.lost += lostUnits;
        seen.blocked += end.blocked;
        seen.expired += end.expired_units;
        seen.syncs += end.syncs_rx;
      }),
      { numRuns: 300, seed: 0x5eed },
    );
    // the runs did exercise loss, exhaustion of credit and aging
    expect(seen.lost).toBeGreaterThan(0);
    expect(seen.blocked).toBeGreaterThan(0);
    expect(seen.expired).toBeGreaterThan(0);
    expect(seen.syncs).toBeGreaterThan(300);
    expect(seen.behind).toBeGreaterThan(300);
  });
});
