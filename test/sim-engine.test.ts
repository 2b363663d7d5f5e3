// Fabric simulator: small scenarios whose outcome can be worked out by hand (docs/sim.md).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { checkScenario, type ScenarioInput } from '../host/scenario/scenario.js';
import { buildFabric, runScenario } from '../host/sim/run.js';
import type { SimSummary } from '../host/sim/result.js';

const ETS_403020 = {
  port: { mtu: 9216 },
  ets: {
    prio_tc: [0, 0, 1, 1, 2, 2, 3, 3],
    tsa: ['ets', 'ets', 'ets', 'strict', 'strict', 'strict', 'strict', 'strict'],
    bw: [40, 40, 20, 0, 0, 0, 0, 0],
  },
  pfc: { enable: [3], pause_time: 65535 },
};

function star(n: number, extra: Partial<ScenarioInput> = {}): ScenarioInput {
  const hosts = Array.from({ length: n }, (_, i) => ({ name: `h${i}` }));
  return {
    // Nominal clocks and no switch latency: the checks below are exact times (docs/sim.md "Timing").
    name: 'star', duration: '100us', sample: '5us', timing: 'ideal',
    defaults: { link: { speed: '100G', cable: '10m' }, buffer: { size: '1MB', headroom: 'auto' }, dcb: ETS_403020 },
    hosts, switches: [{ name: 'sw' }], links: hosts.map((h) => ({ a: h.name, b: 'sw' })),
    ...extra,
  };
}

/** Runs with nominal clocks and no switch latency unless the document says otherwise: the answers here are exact. */
const run = (doc: ScenarioInput) => runScenario(checkScenario({ timing: 'ideal', ...doc })).summary;

describe('links: serialisation and propagation', () => {
  it('one 1500 B frame over one 100G link with 1 us delay arrives after 121.6 ns + 1 us', () => {
    // wire = 1500 + 20 B; 100 Gb/s = 80 ps/B -> 1520 x 80 = 121,600 ps; + 1,000,000 ps propagation.
    const s = run({
      duration: '5us', hosts: [{ name: 'a' }, { name: 'b' }], links: [{ a: 'a', b: 'b', speed: '100G', delay: '1us' }],
      traffic: { flows: [{ src: 'a', dst: 'b', priority: 0, size: '1500B', frames: 1500 }] },
    });
    expect(s.flows[0].fct_ps).toBe(121_600 + 1_000_000);
    expect(s.sim.packet_hops).toBe(1);
  });

  it('through one switch the frame is stored and forwarded: twice (serialisation + 10 m)', () => {
    // 10 m x 5 ns/m = 50,000 ps per link; 2 x (121,600 + 50,000) = 343,200 ps.
    const s = run({ ...star(2), traffic: { flows: [{ src: 'h0', dst: 'h1', priority: 0, size: '1500B' }] } });
    expect(s.flows[0].fct_ps).toBe(343_200);
    expect(s.sim.packet_hops).toBe(2);
  });

  it('at 10G a 64 B frame serialises in 84 x 800 ps', () => {
    const s = run({
      duration: '1us', hosts: [{ name: 'a' }, { name: 'b' }], links: [{ a: 'a', b: 'b', speed: '10G', delay: 0 }],
      traffic: { flows: [{ src: 'a', dst: 'b', priority: 0, size: '64B', frames: 64 }] },
    });
    expect(s.flows[0].fct_ps).toBe(84 * 800);
  });
});

describe('PFC', () => {
  it('an XOFF is a 64 B frame that crosses the reverse link before it pauses the switch port', () => {
    // h1 sends XOFF(prio 3, 65535 quanta) at t = 0: serialisation 84 x 80 = 6,720 ps, then 10 m
    // = 50,000 ps, so sw>h1 is paused from 56,720 ps for 65535 x 5,120 ps (beyond the 100 us run).
    const s = run({
      ...star(2, { duration: '100us' }),
      traffic: { flows: [{ src: 'h0', dst: 'h1', priority: 3, size: '15000B' }], pfc_storm: [{ host: 'h1', priority: 3 }] },
    });
    expect(s.pfc.paused_ps_by_priority[3]).toBe(100_000_000 - 56_720);
    expect(s.flows[0].bytes_delivered).toBe(0);
    expect(s.pfc.pause_frames).toBe(1);
  });

  it('an 8:1 incast on a lossless priority with auto headroom drops nothing and pauses the senders', () => {
    const s = run({ ...star(9), traffic: { incast: [{ senders: ['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'h7', 'h8'], dst: 'h0', priority: 3 }] } });
    expect(s.drops.lossless).toBe(0);
    expect(s.pfc.xoff_frames).toBeGreaterThan(0);
    // The bottleneck stays busy: 8 flows share ~100 Gb/s (minus the time before the queue builds).
    const total = s.flows.reduce((a, f) => a + f.throughput_bps, 0);
    expect(total).toBeGreaterThan(95e9);
    expect(total).toBeLessThanOrEqual(100e9);
  });

  it('property: lossless priorities never drop with auto headroom (fan-in, cable, frames, buffer)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 6 }), fc.integer({ min: 1, max: 300 }), fc.integer({ min: 64, max: 9216 }),
        fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 1000 }),
        (fanIn, cable, frame, mb, seed) => {
          const doc = star(fanIn + 1, { duration: '40us', sample: '10us', seed });
          doc.defaults!.link = { speed: '100G', cable: `${cable}m` };
          doc.defaults!.buffer = { size: `${mb}MB`, headroom: 'auto' };
          const senders = Array.from({ length: fanIn }, (_, i) => `h${i + 1}`);
          const s = run({ ...doc, traffic: { incast: [{ senders, dst: 'h0', priority: 3, frames: { uniform: [64, frame] } }] } });
          expect(s.drops.lossless).toBe(0);
        },
      ),
      { numRuns: 12 },
    );
  });
});

describe('lossy tail drop', () => {
  it('counts every dropped frame: sent = delivered + dropped once the queues drain', () => {
    // 4 senders x 300 frames of 1500 B into a 200 KB lossy queue; all done well before 200 us.
    const doc = star(5, { duration: '200us' });
    doc.defaults!.buffer = { size: '1MB', headroom: 'auto', lossy_queue: '200KB' };
    const s = run({ ...doc, traffic: { incast: [{ senders: ['h1', 'h2', 'h3', 'h4'], dst: 'h0', priority: 0, size: '450000B' }] } });
    const sent = s.flows.reduce((a, f) => a + f.bytes_sent, 0) / 1500;
    const delivered = s.flows.reduce((a, f) => a + f.bytes_delivered, 0) / 1500;
    expect(s.drops.lossy).toBeGreaterThan(0);
    expect(s.drops.lossless).toBe(0);
    expect(sent).toBe(1200);
    expect(delivered + s.drops.lossy).toBe(sent);
    expect(s.drops.by_priority[0]).toBe(s.drops.lossy);
  });
});

describe('ETS', () => {
  it('40/40/20 under saturation: measured shares within 1 pp', () => {
    // Priorities 0, 2, 4 map to TCs 0, 1, 2 (ets 40/40/20); three greedy senders to h0.
    const s = run({
      ...star(4, { duration: '200us', sample: '10us' }),
      traffic: { flows: [
        { src: 'h1', dst: 'h0', priority: 0 }, { src: 'h2', dst: 'h0', priority: 2 }, { src: 'h3', dst: 'h0', priority: 4 },
      ] },
    });
    expect(s.ets.max_share_error_pp).not.toBeNull();
    expect(s.ets.max_share_error_pp!).toBeLessThanOrEqual(1);
    const swH0 = s.ets.per_tc.filter((r) => r.port === 'sw>h0');
    expect(swH0.map((r) => r.configured_pct)).toEqual([40, 40, 20]);
  });
});

describe('ETS property', () => {
  it('any 3-way split of the bandwidth (each >= 10 %) is met within 1 pp under saturation', () => {
    fc.assert(
      fc.property(fc.integer({ min: 10, max: 80 }), fc.integer({ min: 10, max: 80 }), fc.integer({ min: 64, max: 1500 }), (a, b, frame) => {
        fc.pre(a + b <= 90);
        const doc = star(4, { duration: '150us', sample: '10us' });
        // MTU 1500: DWRR quanta are bw x ceil(1520 / min bw) bytes, so a 10 us interval holds several rounds.
        doc.defaults!.dcb = { ...ETS_403020, port: { mtu: 1500 }, ets: { ...ETS_403020.ets, bw: [a, b, 100 - a - b, 0, 0, 0, 0, 0] } };
        // Each lossy TC queue may hold 150 KB, so no TC loses the shared pool to the others and all stay backlogged.
        doc.defaults!.buffer = { size: '1MB', headroom: 'auto', lossy_queue: '150KB' };
        const s = run({ ...doc, traffic: { flows: [
          { src: 'h1', dst: 'h0', priority: 0, frames: frame }, { src: 'h2', dst: 'h0', priority: 2, frames: frame },
          { src: 'h3', dst: 'h0', priority: 4, frames: frame },
        ] } });
        expect(s.ets.max_share_error_pp).not.toBeNull();
        expect(s.ets.max_share_error_pp!).toBeLessThanOrEqual(1);
      }),
      { numRuns: 6 },
    );
  });
});

describe('determinism and memory', () => {
  const strip = (s: SimSummary) => JSON.stringify({ ...s, sim: { ...s.sim, wall_s: 0, packet_hops_per_s: 0 } });
  it('same seed gives a byte-identical summary (wall-clock fields aside)', () => {
    const doc = star(5, { duration: '50us', seed: 7 });
    const traffic = { incast: [{ senders: ['h1', 'h2', 'h3', 'h4'], dst: 'h0', priority: 3, frames: { uniform: [64, 9000] as [number, number] } }] };
    const a = strip(run({ ...doc, traffic }));
    const b = strip(run({ ...doc, traffic }));
    expect(a).toBe(b);
    const c = strip(run({ ...doc, seed: 8, traffic }));
    expect(c).not.toBe(a);
  });

  it('linear memory does not grow during a run', () => {
    const fab = buildFabric(checkScenario({ ...star(5), traffic: { incast: [{ senders: ['h1', 'h2', 'h3', 'h4'], dst: 'h0', priority: 3 }] } }));
    const before = fab.core.memoryBytes;
    for (let t = 10e6; t <= 100e6; t += 10e6) fab.runUntil(t);
    expect(fab.core.memoryBytes).toBe(before);
  });
});

describe('PAUSE vs PFC (Reinemo et al. 2010, Figure 1)', () => {
  // h1..h4 send a 4:1 incast on priority 3 to h0; h1 also sends priority 0 to h5 (a victim that
  // shares h1's link). PAUSE stops the whole link, so the victim stalls with the incast (Fig. 1a);
  // PFC stops priority 3 only, so the victim keeps most of h1's link (Fig. 1b).
  const scenario = (mode: 'pfc' | 'pause'): ScenarioInput => ({
    ...star(6, { duration: '200us' }),
    flow_control: ['lossy', 'lossy', 'lossy', mode, 'lossy', 'lossy', 'lossy', 'lossy'],
    defaults: { ...star(6).defaults, dcb: { ...ETS_403020, pfc: { enable: mode === 'pfc' ? [3] : [] } } },
    traffic: {
      incast: [{ senders: ['h1', 'h2', 'h3', 'h4'], dst: 'h0', priority: 3 }],
      flows: [{ src: 'h1', dst: 'h5', priority: 0, victim: true }],
    },
  });
  it('the victim flow keeps its bandwidth under PFC and loses it under PAUSE', () => {
    const pfc = run(scenario('pfc'));
    const pause = run(scenario('pause'));
    const victim = (s: SimSummary) => s.flows.find((f) => f.victim)!.throughput_bps;
    expect(pfc.drops.lossless).toBe(0);
    expect(pause.drops.lossless).toBe(0);
    expect(pause.pfc.xoff_frames).toBeGreaterThan(0);
    expect(victim(pfc)).toBeGreaterThan(60e9);
    expect(victim(pause)).toBeLessThan(victim(pfc) / 2);
  });
});

describe('credit-based flow control', () => {
  it('a 4:1 incast on a credit priority drops nothing, sends no PFC and keeps the bottleneck busy', () => {
    const s = run({
      ...star(5, { duration: '200us' }),
      flow_control: ['lossy', 'lossy', 'lossy', 'credit', 'lossy', 'lossy', 'lossy', 'lossy'],
      defaults: { ...star(5).defaults, dcb: { ...ETS_403020, pfc: { enable: [] }, credit: { priorities: [3], unit: 64 } } },
      traffic: { incast: [{ senders: ['h1', 'h2', 'h3', 'h4'], dst: 'h0', priority: 3 }] },
    });
    expect(s.drops.lossless).toBe(0);
    expect(s.pfc.xoff_frames).toBe(0);
    expect((s as SimSummary & { credit: { grants: number } }).credit.grants).toBeGreaterThan(0);
    const total = s.flows.reduce((a, f) => a + f.throughput_bps, 0);
    expect(total).toBeGreaterThan(90e9);
  });
});

describe('PFC watchdog', () => {
  it('detects a storm on a paused, non-draining lossless queue and acts (drop), then restores', () => {
    const s = run({
      ...star(3, { duration: '300us' }),
      watchdog: { detection_time: '20us', restoration_time: '40us', poll_interval: '5us', action: 'drop' },
      traffic: { flows: [{ src: 'h0', dst: 'h1', priority: 3 }], pfc_storm: [{ host: 'h1', priority: 3, stop: '1us' }] },
    });
    const first = s.watchdog[0];
    expect(first).toMatchObject({ port: 'sw>h1', priority: 3, event: 'storm_detected', action: 'drop' });
    // Condition holds from the first poll that sees a queue (5 us); detection after 20 us of polls.
    expect(first.t_ps).toBeGreaterThanOrEqual(20e6);
    expect(first.t_ps).toBeLessThanOrEqual(30e6);
    expect(s.watchdog.some((e) => e.event === 'storm_restored')).toBe(true);
    expect(s.drops.lossless).toBeGreaterThan(0);
  });
});

describe('deliveries to hosts (no arrival event, docs/sim.md)', () => {
  // One 1500 B frame a -> b at 100G with 1 us delay arrives at 1520 x 80 + 1,000,000 = 1,121,600 ps.
  const one = (sample: number) => runScenario(checkScenario({
    duration: '3us', sample: `${sample}ps`, timing: 'ideal', hosts: [{ name: 'a' }, { name: 'b' }], links: [{ a: 'a', b: 'b', speed: '100G', delay: '1us' }],
    traffic: { flows: [{ src: 'a', dst: 'b', priority: 0, size: '1500B', frames: 1500 }] },
  }));
  const delivered = (r: ReturnType<typeof one>) => Array.from(r.series.find((x) => x.name === 'throughput flow 0')!.values, (v) => v > 0);

  it('a frame arriving exactly at a batch end counts in that batch, one picosecond later in the next', () => {
    expect(delivered(one(1_121_600)).slice(0, 2)).toEqual([true, false]);
    expect(delivered(one(1_121_599)).slice(0, 2)).toEqual([false, true]);
    // 1500 B in the first 1,121,600 ps: 12,000 bit / 1.1216 us = 10.699 Gb/s.
    expect(one(1_121_600).series.find((x) => x.name === 'throughput flow 0')!.values[0]).toBe(10.699);
  });

  it('the batch size does not change what is delivered or when (fast-check over sample intervals)', () => {
    const ref = run({ ...star(4, { duration: '40us' }), traffic: { incast: [{ senders: ['h1', 'h2', 'h3'], dst: 'h0', priority: 3, frames: { uniform: [64, 1500] } }] } });
    fc.assert(fc.property(fc.integer({ min: 100_000, max: 40_000_000 }), (samplePs) => {
      const s = run({ ...star(4, { duration: '40us', sample: `${samplePs}ps` }), traffic: { incast: [{ senders: ['h1', 'h2', 'h3'], dst: 'h0', priority: 3, frames: { uniform: [64, 1500] } }] } });
      expect(s.flows).toEqual(ref.flows);
    }), { numRuns: 12 });
  });
});

describe('traffic generators', () => {
  it('on/off: a 10 Gb/s source sends only in the 5 us on part of every 20 us period', () => {
    // 5 periods of 20 us (the run stops at 99 us, before a sixth on period starts at 100 us):
    // 1,270 wire bytes every 1,016 ns at 10 Gb/s -> 5 frames per on period (0, 1.016, ..., 4.064 us).
    const s = run({
      duration: '99us', hosts: [{ name: 'a' }, { name: 'b' }], links: [{ a: 'a', b: 'b', speed: '100G', delay: 0 }],
      traffic: { on_off: [{ src: 'a', dst: 'b', priority: 0, rate: '10G', on_time: '5us', off_time: '15us', frames: 1250 }] },
    });
    expect(s.flows[0].bytes_sent).toBe(5 * 5 * 1250);
  });

  it('all-to-all among 4 hosts makes 12 flows; a weighted mix only uses its sizes', () => {
    const s = run({
      ...star(4, { duration: '20us' }),
      traffic: { all_to_all: [{ hosts: ['h0', 'h1', 'h2', 'h3'], priority: 0, size: '30000B', frames: { mix: [{ bytes: 64, weight: 1 }, { bytes: 1500, weight: 3 }] } }] },
    });
    expect(s.flows).toHaveLength(12);
    expect(s.flows.every((f) => f.bytes_sent === 30_000 && f.fct_ps !== null)).toBe(true);
  });
});

describe('QCN', () => {
  it('a 16:1 incast with QCN: CNMs cut the senders, the shares stay fair, nothing is lost', () => {
    const hosts = Array.from({ length: 17 }, (_, i) => `h${i}`);
    const s = run({
      ...star(17, { duration: '2ms', sample: '100us' }),
      defaults: { ...star(17).defaults, buffer: { size: '16MB', headroom: 'auto' }, dcb: { ...ETS_403020, qcn: { cp: { priorities: [3] } } } },
      qcn: { enable: true },
      traffic: { incast: [{ senders: hosts.slice(1), dst: 'h0', priority: 3 }] },
    });
    expect(s.qcn.cnms).toBeGreaterThan(0);
    expect(s.drops.lossless).toBe(0);
    // QCN's oscillation around Qeq = 26 KB lets the bottleneck queue run empty at times: seeds 1-3
    // measured 87.6, 90.8 and 90.3 Gb/s (the rate limiters act at once on each rate change).
    const total = s.flows.reduce((a, f) => a + f.throughput_bps, 0);
    expect(total).toBeGreaterThan(85e9);
    expect(s.fairness.jain!).toBeGreaterThan(0.8);
  });
});

describe('DCQCN profile', () => {
  it('a 16:1 incast with dcqcn: CE marks bring CNPs (at most one per flow per 50 us) and rate cuts, nothing is lost', () => {
    const hosts = Array.from({ length: 17 }, (_, i) => `h${i}`);
    const s = run({
      ...star(17, { duration: '2ms', sample: '100us' }),
      defaults: {
        ...star(17).defaults, buffer: { size: '16MB', headroom: 'auto' },
        dcb: { ...ETS_403020, qcn: { cp: { priorities: [3], kmin: 5000, kmax: 200000, pmax: 1 }, rp: { profile: 'dcqcn' } } },
      },
      qcn: { enable: true },
      traffic: { incast: [{ senders: hosts.slice(1), dst: 'h0', priority: 3 }] },
    });
    // 16 flows x 2 ms / 50 us = at most 640 CNPs.
    expect(s.qcn.cnms).toBeGreaterThan(0);
    expect(s.qcn.cnms).toBeLessThanOrEqual(16 * 40);
    expect(s.drops.lossless).toBe(0);
    // DCQCN starts with alpha = 1 (a first cut of 50 %) and recovers by 40 Mb/s steps every 55 us
    // after fast recovery, so the bottleneck is under-used in the first milliseconds (Zhu et al. 2015).
    const total = s.flows.reduce((a, f) => a + f.throughput_bps, 0);
    expect(total).toBeGreaterThan(40e9);
    expect(total).toBeLessThanOrEqual(100e9);
  });
});
