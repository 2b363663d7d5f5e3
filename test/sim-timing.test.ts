// Fabric timing (docs/sim.md, "Timing"): each port's transmit clock offset drawn from its own
// stream and applied exactly to serialisation, a switch's forwarding latency and jitter, `timing:
// ideal` as exact nominal timing; and what they do to the phase effect of an n:1 incast.
import { describe, expect, it } from 'vitest';
import { checkScenario, type ScenarioInput } from '../host/scenario/scenario.js';
import { buildFabric } from '../host/sim/fabric.js';
import { runScenario } from '../host/sim/run.js';
import type { SimSummary } from '../host/sim/result.js';

const DCB = { port: { mtu: 1500 }, pfc: { pause_time: 65535 } };
const LOSSY = Array(8).fill('lossy');
const PFC3 = ['lossy', 'lossy', 'lossy', 'pfc', 'lossy', 'lossy', 'lossy', 'lossy'];

/** n hosts h1..hn send to h0 through one switch, each a constant 100 Gb/s of 1500 B frames. */
function incast(n: number, o: { seed: number; flowControl: string[]; timing?: unknown; duration?: string }): ScenarioInput {
  const hosts = Array.from({ length: n + 1 }, (_, i) => ({ name: `h${i}` }));
  return {
    seed: o.seed, duration: o.duration ?? '10ms', sample: '1ms', flow_control: o.flowControl,
    ...(o.timing !== undefined ? { timing: o.timing } : {}),
    defaults: { link: { speed: '100G', cable: '10m' }, buffer: { size: '4MB', headroom: 'auto', lossy_queue: '200KB' }, dcb: DCB },
    hosts, switches: [{ name: 'sw0' }], links: hosts.map((h) => ({ a: h.name, b: 'sw0' })),
    traffic: { incast: [{ senders: hosts.slice(1).map((h) => h.name), dst: 'h0', priority: 3, frames: 1500, rate: '100G' }] },
  } as ScenarioInput;
}
const run = (doc: ScenarioInput): SimSummary => runScenario(checkScenario(doc)).summary;
const gbps = (s: SimSummary) => s.flows.map((f) => Math.round(f.throughput_bps / 1e8) / 10);

/** xorshift32 (13, 17, 5) and the per-entity seeding of docs/design.md "Random streams", written again here. */
function stream(seed: number, id: number): () => number {
  let x = (seed ^ Math.imul(id + 1, 0x9e3779b9)) >>> 0;
  if (x === 0) x = 0x6d2b79f5;
  return () => { x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0; return x; };
}

describe('port clocks', () => {
  it('each port draws its offset from its own stream (id 2^31 | port) and serialises at nominal x 10^9 / (10^9 + offset)', () => {
    const scn = checkScenario(incast(4, { seed: 7, flowControl: LOSSY, duration: '1us' }));
    const fab = buildFabric(scn);
    try {
      const L = fab.L;
      const offsets = scn.ports.map((p) => {
        const pa = fab.portAt(p.id);
        const range = 100_000; // +-100 ppm in parts per 10^9
        const expected = (stream(7, (0x80000000 | p.id) >>> 0)() % (2 * range + 1)) - range;
        const offset = fab.r32(pa + L.SP_CLOCK_OFFSET);
        expect(offset, `port ${p.name}`).toBe(expected);
        // ps per byte at that clock, integer part and 32-bit fraction, from exact integer arithmetic.
        const scaled = BigInt(p.psPerByte) * 1_000_000_000n;
        const den = 1_000_000_000n + BigInt(offset);
        expect(fab.r32(pa + L.SP_PPB)).toBe(Number(scaled / den));
        expect(fab.r32(pa + L.SP_PPB_FRAC) >>> 0).toBe(Number(((scaled % den) << 32n) / den));
        return offset;
      });
      expect(new Set(offsets).size).toBe(offsets.length);
    } finally { fab.close(); }
  });

  it('timing: ideal draws nothing and keeps nominal ps per byte; clock_ppm bounds the offsets', () => {
    for (const [timing, bound] of [['ideal', 0], [{ clock_ppm: 20 }, 20_000]] as const) {
      const scn = checkScenario(incast(8, { seed: 3, flowControl: LOSSY, duration: '1us', timing }));
      const fab = buildFabric(scn);
      try {
        for (const p of scn.ports) {
          const off = fab.r32(fab.portAt(p.id) + fab.L.SP_CLOCK_OFFSET);
          expect(Math.abs(off)).toBeLessThanOrEqual(bound);
          if (bound === 0) expect(fab.r32(fab.portAt(p.id) + fab.L.SP_PPB)).toBe(p.psPerByte);
        }
      } finally { fab.close(); }
    }
  });

  it('a backlogged sender delivers what the slower clock on its path allows: 10 ms at 100 Gb/s +- 100 ppm, to the frame', () => {
    const doc = incast(1, { seed: 11, flowControl: LOSSY, duration: '10ms', timing: { clock_ppm: 100, switch_latency: 0 } });
    const scn = checkScenario(doc);
    const fab = buildFabric(scn);
    const offsetOf = (name: string) => fab.r32(fab.portAt(scn.ports.find((p) => p.name === name)!.id) + fab.L.SP_CLOCK_OFFSET);
    const sender = offsetOf('h1>sw0'), egress = offsetOf('sw0>h0');
    fab.close();
    const s = run({ ...doc, traffic: { flows: [{ src: 'h1', dst: 'h0', priority: 3, frames: 1500 }] } } as ScenarioInput);
    // The slower of the sender's port and the switch's egress sets the pace: 1520 wire bytes a frame.
    // The first frame is stored and forwarded once and crosses 2 x 50 ns of cable before the pace
    // shows at h0. At nominal timing 81,270 frames; the clocks move that by up to 8.
    const slowest = Math.min(sender, egress);
    const frameTimePs = (1520 * 80 * 1e9) / (1e9 + slowest);
    const frames = s.flows[0].bytes_delivered / 1500;
    expect(Math.abs(frames - (10e9 - 100_000 - (1520 * 80 * 1e9) / (1e9 + sender)) / frameTimePs)).toBeLessThanOrEqual(1);
    expect(Math.abs(frames - 81_270)).toBeGreaterThan(1); // this seed's clocks differ from nominal by more than the tolerance
  });
});

describe('switch forwarding latency', () => {
  const oneFrame = (timing: unknown, switches: unknown[] = [{ name: 'sw0' }]) => {
    const doc = incast(1, { seed: 1, flowControl: LOSSY, duration: '100us', timing });
    return run({ ...doc, switches, traffic: { flows: [{ src: 'h1', dst: 'h0', priority: 3, frames: 1500, size: '1500B' }] } } as ScenarioInput).flows[0].fct_ps!;
  };

  it('adds the latency once per switch: 300 ns by default, a switch\'s own latency instead', () => {
    const ideal = oneFrame('ideal');
    expect(oneFrame({ clock_ppm: 0 }) - ideal).toBe(300_000);
    expect(oneFrame({ clock_ppm: 0 }, [{ name: 'sw0', latency: '1us' }]) - ideal).toBe(1_000_000);
    expect(oneFrame({ clock_ppm: 0, switch_latency: '450ns' }) - ideal).toBe(450_000);
  });

  it('jitter never reorders a link: a lossless go-back-N transfer through a 2 us jitter resends nothing', () => {
    const doc = incast(4, { seed: 5, flowControl: PFC3, duration: '2ms', timing: { switch_latency_jitter: '2us' } });
    const s = run({ ...doc, transport: 'roce', traffic: { incast: [{ senders: ['h1', 'h2', 'h3', 'h4'], dst: 'h0', priority: 3, frames: 1500, size: '1MB' }] } } as ScenarioInput);
    expect(s.drops.lossless + s.drops.lossy).toBe(0);
    for (const f of s.flows) {
      expect(f.retransmitted_bytes, `flow ${f.id}`).toBe(0);
      expect(f.bytes_delivered).toBe(1_000_000);
    }
  });

  it('refuses what cannot be a timing, naming the field and the rule', () => {
    expect(() => checkScenario(incast(2, { seed: 1, flowControl: LOSSY, timing: { clock_ppm: 5000 } }))).toThrow(/timing.*clock_ppm is 0 to 1000/s);
    expect(() => checkScenario(incast(2, { seed: 1, flowControl: LOSSY, timing: 'exact' }))).toThrow(/timing.*ideal, real, or/s);
    const doc = incast(2, { seed: 1, flowControl: LOSSY });
    expect(() => checkScenario({ ...doc, switches: [{ name: 'sw0', latency: '3ms' }] })).toThrow(/switches\.0\.latency.*at most 2ms|switches\[0\]\.latency.*at most 2ms/s);
  });
});

describe('phase effects of an n:1 incast (10 ms, constant 100 Gb/s senders, 5 seeds)', () => {
  // Ideal timing: every sender keeps its phase against the bottleneck's departures and the one whose
  // frames arrive first after each departure takes every freed slot (Floyd and Jacobson 1991).
  // Default timing (+-100 ppm clocks, 300 ns switches, no jitter: no published figure for it) moves
  // the phases, but a sender whose clock is within a few ppm of the bottleneck's keeps its phase
  // longer than the run: seed 1 draws h1 at +99.2 ppm and the egress to h0 at +93.6 ppm, one frame
  // of slip per 1 / 5.6 ppm = 178,000 frames = 22 ms. The figures measured: Jain 0.74 / 0.72 / 0.76
  // for n = 2 / 4 / 8 at seed 1, 0.97 to 1.0 (n = 2, 4) and 0.77 to 0.92 (n = 8) at seeds 2 to 5.
  // So the check is what the defaults justify: every seed at least 0.7 and far above ideal timing,
  // whose 1/n is the same for every seed. The 0.95 the phase luck question asked for is reached with
  // a forwarding jitter of one frame time (123 ns), which no vendor figure supports as a default.
  it('lossy: ideal timing gives one sender the link; default timing shares it (Jain >= 0.7 at every seed)', () => {
    for (const n of [2, 4, 8]) {
      const ideal = run(incast(n, { seed: 1, flowControl: LOSSY, timing: 'ideal' }));
      expect(ideal.fairness.jain, `ideal n = ${n}: ${gbps(ideal)}`).toBeLessThan(1 / n + 0.01);
      for (let seed = 1; seed <= 5; seed++) {
        const s = run(incast(n, { seed, flowControl: LOSSY }));
        expect(s.fairness.jain!, `n = ${n}, seed ${seed}: ${gbps(s)}`).toBeGreaterThanOrEqual(0.7);
      }
    }
  });

  it('lossy 8:1 with a forwarding jitter of one frame time: Jain >= 0.95 at every seed', () => {
    for (let seed = 1; seed <= 5; seed++) {
      const s = run(incast(8, { seed, flowControl: LOSSY, timing: { switch_latency_jitter: '123ns' } }));
      expect(s.fairness.jain!, `seed ${seed}: ${gbps(s)}`).toBeGreaterThanOrEqual(0.95);
    }
  });

  it('lossless (PFC): no drops and equal shares, ideal or not', () => {
    for (const n of [2, 4, 8]) {
      for (let seed = 1; seed <= 5; seed++) {
        const s = run(incast(n, { seed, flowControl: PFC3 }));
        expect(s.drops.lossless + s.drops.lossy, `n = ${n}, seed ${seed}`).toBe(0);
        const rates = s.flows.map((f) => f.throughput_bps);
        const share = (100e9 * 1500) / 1520 / n;
        for (const r of rates) expect(Math.abs(r / share - 1), `n = ${n}, seed ${seed}: ${gbps(s)}`).toBeLessThanOrEqual(0.01);
      }
    }
  });
});
