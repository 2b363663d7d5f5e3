// Fabric-level checks against answers worked out by hand (docs/sim.md, Validation): how a host's
// NIC shares its link among its flows (deficit round robin per TC, ETS across TCs, weights), how an
// n:1 incast splits a bottleneck under PFC, what go-back-N does with and without losses, and the
// arrival processes (Poisson gaps, start jitter).
import { describe, expect, it } from 'vitest';
import { checkScenario, type ScenarioInput } from '../host/scenario/scenario.js';
import { runScenario } from '../host/sim/run.js';

/** Priority 0 -> TC0, 1 -> TC1 (ETS 60/40), 3 -> TC3 lossless (ETS 0 %, alone on its port in the incasts). */
const DCB = {
  port: { mtu: 1500 },
  ets: {
    prio_tc: [0, 1, 2, 3, 2, 2, 2, 2],
    tsa: ['ets', 'ets', 'strict', 'ets', 'strict', 'strict', 'strict', 'strict'],
    bw: [60, 40, 0, 0, 0, 0, 0, 0],
  },
  pfc: { enable: [3], pause_time: 65535 },
};
/** Wire share of a 1500 B frame: the payload a 100G link carries. */
const PAYLOAD_100G = (100e9 * 1500) / 1520;

/** One switch, hosts h0..h(n-1), 100G, 10 m; nominal clocks and no switch latency, as the answers assume. */
function star(n: number, extra: Partial<ScenarioInput>): ScenarioInput {
  const hosts = Array.from({ length: n }, (_, i) => ({ name: `h${i}` }));
  return {
    duration: '1ms', sample: '50us', timing: 'ideal',
    defaults: { link: { speed: '100G', cable: '10m' }, buffer: { size: '4MB', headroom: 'auto' }, dcb: DCB },
    hosts, switches: [{ name: 'sw' }], links: hosts.map((h) => ({ a: h.name, b: 'sw' })),
    ...extra,
  };
}
const run = (doc: ScenarioInput) => runScenario(checkScenario(doc)).summary;
/** actual within a relative tolerance of expected. */
function within(actual: number, expected: number, tol: number, label = ''): void {
  expect(Math.abs(actual / expected - 1), `${label} ${actual} vs ${expected}`).toBeLessThanOrEqual(tol);
}

describe('the NIC shares its link among its flows', () => {
  it('n flows of one host and TC to idle receivers each get 1/n of the link (n = 2, 3, 5), within 2 %', () => {
    for (const n of [2, 3, 5]) {
      const flows = Array.from({ length: n }, (_, i) => ({ src: 'h0', dst: `h${i + 1}`, priority: 0, frames: 1500 }));
      const s = run(star(n + 1, { traffic: { flows } }));
      for (const f of s.flows) within(f.throughput_bps, (PAYLOAD_100G / n), 0.02, `n = ${n}, flow ${f.id}`);
    }
  });

  it('flows of different frame sizes share by bytes, not by frames (deficit round robin)', () => {
    const flows = [
      { src: 'h0', dst: 'h1', priority: 0, frames: 1500 },
      { src: 'h0', dst: 'h2', priority: 0, frames: 300 },
    ];
    const s = run(star(3, { traffic: { flows } }));
    // Equal wire bytes: 1520 and 320 B frames, so payload 1500/1520 and 300/320 of half the link each.
    within(s.flows[0].throughput_bps, ((50e9 * 1500) / 1520), 0.02);
    within(s.flows[1].throughput_bps, ((50e9 * 300) / 320), 0.02);
  });

  it('weights 1 and 3 share the link 1:3', () => {
    const flows = [
      { src: 'h0', dst: 'h1', priority: 0, frames: 1500, weight: 1 },
      { src: 'h0', dst: 'h2', priority: 0, frames: 1500, weight: 3 },
    ];
    const s = run(star(3, { traffic: { flows } }));
    within(s.flows[0].throughput_bps, (PAYLOAD_100G / 4), 0.02);
    within(s.flows[1].throughput_bps, ((3 * PAYLOAD_100G) / 4), 0.02);
  });

  it('two TCs of one host share by ETS (60/40), and the flows within each TC equally', () => {
    const flows = [
      { src: 'h0', dst: 'h1', priority: 0, frames: 1500 }, { src: 'h0', dst: 'h2', priority: 0, frames: 1500 },
      { src: 'h0', dst: 'h3', priority: 0, frames: 1500 }, { src: 'h0', dst: 'h4', priority: 1, frames: 1500 },
    ];
    const s = run(star(5, { traffic: { flows } }));
    for (const f of s.flows.slice(0, 3)) within(f.throughput_bps, ((0.6 * PAYLOAD_100G) / 3), 0.02, `flow ${f.id}`);
    within(s.flows[3].throughput_bps, (0.4 * PAYLOAD_100G), 0.02);
  });

  it('a flow that stops leaves its share to the others at once (the issue: 37.5 KB vs 12.3 MB before)', () => {
    const flows = [
      { src: 'h0', dst: 'h1', priority: 3, frames: 1500 },
      { src: 'h0', dst: 'h1', priority: 3, frames: 1500, stop: '500us' },
    ];
    const s = run(star(2, { traffic: { flows } }));
    // Flow 1 gets half the link for its 500 us; flow 0 half for 500 us, then all of it for 500 us.
    within(s.flows[1].throughput_bps, (PAYLOAD_100G / 2), 0.02);
    within(s.flows[0].bytes_delivered, ((0.75 * PAYLOAD_100G * 1e-3) / 8), 0.02);
    expect(s.pfc.xoff_frames).toBe(0);
  });
});

describe('an n:1 incast under PFC', () => {
  it('splits the bottleneck equally among symmetric senders (FIFO per TC at the egress, PFC pauses them alike), nothing lost', () => {
    for (const n of [2, 4, 8]) {
      const senders = Array.from({ length: n }, (_, i) => `h${i + 1}`);
      const s = run(star(n + 1, { traffic: { incast: [{ senders, dst: 'h0', priority: 3, frames: 1500 }] } }));
      expect(s.drops.lossless).toBe(0);
      expect(s.pfc.xoff_frames).toBeGreaterThan(0);
      for (const f of s.flows) within(f.throughput_bps, (PAYLOAD_100G / n), 0.02, `n = ${n}, flow ${f.id}`);
    }
  });
});

describe('go-back-N (transport roce)', () => {
  /** A 4:1 incast of 2 MB messages into a 200 KB egress queue: lossy or with PFC on priority 3. */
  const incast = (lossless: boolean): ScenarioInput => star(5, {
    duration: '5ms', transport: 'roce',
    defaults: {
      link: { speed: '100G', cable: '10m' }, buffer: { size: '4MB', headroom: 'auto', lossy_queue: '200KB' },
      dcb: lossless ? DCB : { ...DCB, pfc: { enable: [] } },
    },
    traffic: { incast: [{ senders: ['h1', 'h2', 'h3', 'h4'], dst: 'h0', priority: 3, frames: 1500, size: '2MB' }] },
  });

  it('a lossy incast completes every message, retransmitting (NACKs, and timeouts for lost retransmissions)', () => {
    const s = run(incast(false));
    expect(s.drops.lossy).toBeGreaterThan(0);
    for (const f of s.flows) {
      expect(f.bytes_delivered, `flow ${f.id}`).toBe(2_000_000);
      expect(f.fct_ps, `flow ${f.id}`).not.toBeNull();
      // Go-back-N resends only after a NACK or a timeout.
      expect(f.retransmitted_bytes! > 0, `flow ${f.id}`).toBe(f.nacks! + f.timeouts! > 0);
    }
    // The four senders' frames reach the switch at the same instants; equal-time arrivals queue in
    // receiving-port order (docs/sim.md "Event order"), so h1's frames (port sw>h1, the lowest) always
    // get in before the queue is full and the other three lose frames and resend.
    expect(s.flows.map((f) => f.retransmitted_bytes! > 0)).toEqual([false, true, true, true]);
    expect(s.flows.reduce((a, f) => a + f.nacks!, 0)).toBeGreaterThan(0);
    expect(s.flows.reduce((a, f) => a + f.timeouts!, 0)).toBeGreaterThan(0);
  });

  it('with PFC nothing is dropped or resent, and the four messages finish together at 4 x 2 MB / 100G', () => {
    const s = run(incast(true));
    expect(s.drops.lossless + s.drops.lossy).toBe(0);
    // 4 x 1334 frames (2 MB / 1500, the last 500 B) of 1520 wire bytes at 80 ps/B, plus a few us of path.
    const wire = 4 * (1333 * 1520 + 520) * 80;
    for (const f of s.flows) {
      expect(f.retransmitted_bytes, `flow ${f.id}`).toBe(0);
      expect(f.timeouts! + f.nacks!, `flow ${f.id}`).toBe(0);
      expect(f.fct_ps! / wire, `flow ${f.id}`).toBeGreaterThan(0.99);
      expect(f.fct_ps! / wire, `flow ${f.id}`).toBeLessThan(1.02);
      expect(f.slowdown!).toBeGreaterThan(3.9);
    }
  });

  it('an alone message completes in its ideal time: slowdown 1 within 1 %', () => {
    const s = run(star(2, { transport: 'roce', traffic: { flows: [{ src: 'h0', dst: 'h1', priority: 3, frames: 1500, size: '1MB' }] } }));
    expect(s.flows[0].slowdown!).toBeGreaterThanOrEqual(1);
    expect(s.flows[0].slowdown!).toBeLessThan(1.01);
  });

  it('refuses a roce flow with a frame-size law: a message is cut into frames of one size', () => {
    expect(() => checkScenario(star(2, { transport: 'roce', traffic: { flows: [{ src: 'h0', dst: 'h1', priority: 3, frames: { uniform: [64, 1500] } }] } })))
      .toThrow(/traffic\.flows\[0\]\.frames: transport roce cuts a message into frames of one size/);
  });
});

describe('arrival processes', () => {
  it('Poisson sources deliver their rate on average, from their own streams (seeds differ, each seed repeats)', () => {
    const doc = (seed: number) => star(5, {
      seed, duration: '5ms',
      traffic: { flows: [1, 2, 3, 4].map((i) => ({ src: `h${i}`, dst: 'h0', priority: 0, frames: 1500, rate: '20G', interarrival: 'poisson' as const })) },
    });
    const a = run(doc(1));
    for (const f of a.flows) within(f.throughput_bps, ((20e9 * 1500) / 1520), 0.03, `flow ${f.id}`);
    const again = run(doc(1));
    expect(again.flows.map((f) => f.bytes_delivered)).toEqual(a.flows.map((f) => f.bytes_delivered));
    expect(run(doc(2)).flows.map((f) => f.bytes_delivered)).not.toEqual(a.flows.map((f) => f.bytes_delivered));
  });

  it('poisson needs a rate', () => {
    expect(() => checkScenario(star(2, { traffic: { flows: [{ src: 'h0', dst: 'h1', priority: 0, interarrival: 'poisson' }] } })))
      .toThrow(/traffic\.flows\[0\]\.interarrival: poisson gaps are drawn at the flow's rate/);
  });

  it('start_jitter delays each start by a draw in [0, start_jitter), different per flow', () => {
    const s = run(star(5, {
      traffic: { flows: [1, 2, 3, 4].map((i) => ({ src: `h${i}`, dst: 'h0', priority: 0, frames: 1500, rate: '1G', start: '10us', start_jitter: '50us' })) },
    }));
    const starts = s.flows.map((f) => f.start_ps);
    for (const t of starts) { expect(t).toBeGreaterThanOrEqual(10e6); expect(t).toBeLessThan(60e6); }
    expect(new Set(starts).size).toBe(4);
  });
});
