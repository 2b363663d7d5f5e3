// dcbkit's fabric simulator against ns-3 3.37 (docs/sim.md, "Validation against ns-3").
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closScenario } from '../host/scenario/clos.js';
import { checkScenario, type Scenario, type ScenarioInput } from '../host/scenario/scenario.js';
import { runScenario } from '../host/sim/run.js';
import type { SimSummary } from '../host/sim/result.js';
import { buildNs3Peer, ns3Spec, removeNs3Peer, runNs3, runNs3Async, type Ns3Result } from './ns3/ns3-peer.js';

const LOSSY = Array(8).fill('lossy') as 'lossy'[];

let peer = '';
beforeAll(() => { peer = buildNs3Peer(); });
afterAll(() => { if (peer) removeNs3Peer(peer); });

function both(doc: ScenarioInput) {
  const scn = checkScenario(doc);
  const dcb = runScenario(scn).summary;
  const ns3: Ns3Result = runNs3(peer, scn);
  return { scn, dcb, ns3 };
}

/** Flows behind one switch `sw` with hosts h0..h{n-1}: [source, destination, Gb/s, start]. */
function oneSwitch(hosts: number, flows: [number, number, number, string?][], duration: string, interarrival: Interarrival = 'constant'): ScenarioInput {
  const names = Array.from({ length: hosts }, (_, i) => `h${i}`);
  return lossyFabric({
    name: 'ns3-one-switch', hosts: names, switches: ['sw'], links: names.map((a) => ({ a, b: 'sw' })), duration, interarrival,
    flows: flows.map(([src, dst, gbps, start]) => ({ path: [names[src], 'sw', names[dst]], gbps, start })),
  });
}

describe('dcbkit against ns-3', () => {
  it('delivers the same bytes per flow on constant-rate, uncongested paths', () => {
    const { dcb, ns3 } = both(oneSwitch(6, [[0, 1, 30], [2, 3, 45, '3us'], [4, 5, 20], [4, 1, 35, '1us']], '1ms'));
    // Same frames at the same instants on every link: the same bytes, to the frame.
    expect(ns3.drops).toBe(0);
    expect(dcb.drops.lossy).toBe(0);
    expect(dcb.flows.map((f) => f.bytes_sent)).toEqual(ns3.flows.map((f) => f.sent_frames * ns3.frame));
    expect(dcb.flows.map((f) => f.bytes_delivered)).toEqual(ns3.flows.map((f) => f.delivered_bytes));
    // ... and not all of them, or the comparison would prove nothing about timing: some frames are
    // still on their way at the end.
    expect(dcb.flows.some((f) => f.bytes_delivered < f.bytes_sent)).toBe(true);
  });

  it('drops the same frames at a 2:1 drop-tail port when the sources are out of phase', () => {
    // 60 + 55 Gb/s into 100 Gb/s, the second source 1.234567 us later: the full queue (100 frames)
    // takes whichever frame comes first after a departure, in both simulators the same one.
    const { dcb, ns3 } = both(oneSwitch(3, [[0, 2, 60], [1, 2, 55, '1234567ps']], '2ms'));
    expect(dcb.drops.lossy).toBeGreaterThan(1000);
    expect(ns3.drops).toBe(dcb.drops.lossy);
    expect(dcb.flows.map((f) => f.bytes_delivered)).toEqual(ns3.flows.map((f) => f.delivered_bytes));
  });

  it('leaves line-rate sources in lockstep to each simulator\'s order of equal-time events', () => {
    // Two sources at 100 Gb/s into one 100 Gb/s port: every departure frees one slot, and both
    // sources' frames arrive at the instant it frees. Which one gets it is a tie-break, not physics
    // (docs/sim.md, "Validation against ns-3" and "Event order"): dcbkit queues equal-time arrivals
    // by receiving port, so the first source's frame always takes the slot; ns-3's device is busy
    // until its TransmitComplete event, scheduled after those arrivals, so there too the first
    // source always gets it.
    const gbps = (bytes: number) => (bytes * 8) / 2e-3 / 1e9;
    const lockstep = both(oneSwitch(3, [[0, 2, 100], [1, 2, 100]], '2ms'));
    const [d0, d1] = lockstep.dcb.flows.map((f) => gbps(f.bytes_delivered));
    const [n0, n1] = lockstep.ns3.flows.map((f) => gbps(f.delivered_bytes));
    for (const [first, second] of [[d0, d1], [n0, n1]]) {
      expect(first).toBeGreaterThan(98);
      expect(second).toBeLessThan(1);
    }
    // The second source 1 ns late: the first source's frames still arrive at the very instants the
    // port's frames end, a tie the two break differently. ns-3 takes the arrival first (the queue is
    // still full: the first source loses every frame), dcbkit the departure first (the transmitter-
    // done class runs before arrivals: the first source wins). Both splits are the tie rule's.
    const offset = both(oneSwitch(3, [[0, 2, 100], [1, 2, 100, '1ns']], '2ms'));
    expect(gbps(offset.ns3.flows[1].delivered_bytes)).toBeGreaterThan(98);
    expect(gbps(offset.dcb.flows[0].bytes_delivered)).toBeGreaterThan(98);
  });

  it('refuses scenarios the two models would not mean the same way, and bad descriptions', () => {
    const base = oneSwitch(3, [[0, 2, 50]], '1ms');
    const refusal = (change: (flow: Record<string, unknown>, doc: ScenarioInput) => void): string => {
      const doc = structuredClone(base);
      change(doc.traffic!.flows![0] as Record<string, unknown>, doc);
      try {
        ns3Spec(checkScenario(doc));
        return 'accepted';
      } catch (e) {
        return (e as Error).message;
      }
    };
    expect(refusal(() => {})).toBe('accepted');
    expect(refusal((f) => { f.frames = { uniform: [64, 1500] }; })).toMatch(/flow 0 has a frame-size distribution/);
    expect(refusal((f) => { delete f.path; })).toMatch(/flow 0 has no pinned path/);
    expect(refusal((f) => { delete f.rate; })).toMatch(/flow 0 has no offered rate/);
    expect(refusal((f) => { f.size = '1MB'; })).toMatch(/flow 0 is sized or on\/off/);
    expect(refusal((f) => { f.transport = 'roce'; })).toMatch(/flow 0 has transport roce/);
    expect(refusal((f) => { f.weight = 2; })).toMatch(/flow 0 has weight 2/);
    expect(refusal((f) => { f.start_jitter = '1us'; })).toMatch(/flow 0 has a start_jitter/);
    expect(refusal((_, d) => { delete (d as { timing?: unknown }).timing; })).toMatch(/clock offsets and switch latency \(add timing: ideal\)/);
    expect(refusal((f, d) => { d.traffic!.flows!.push({ ...f, priority: 1 } as never); })).toMatch(/flows use priorities 0, 1/);
    expect(refusal((_, d) => { d.defaults!.buffer = { size: '400000B', lossy_queue: '150000B' }; })).toMatch(/sw: 3 egress queues of 150000 B can outgrow its 400000 B buffer/);
    // The program names the line it cannot read and exits 2.
    const dir = mkdtempSync(join(tmpdir(), 'dcbkit-ns3-bad-'));
    const spec = join(dir, 'bad.spec');
    writeFileSync(spec, ns3Spec(checkScenario(base)).replace(/^link h1 .*$/m, 'link h1 sw fast'));
    const r = spawnSync(peer, [spec], { encoding: 'utf8' });
    rmSync(dir, { recursive: true, force: true });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/bad\.spec:\d+: cannot read "link h1 sw fast"/);
  });

  it('gives every flow the same throughput within 5 % behind one switch with Poisson sources (2:1, 3:1, two flows of one host)', async () => {
    const flows: [number, number, number][] = [
      [0, 2, 70], [1, 2, 65], // 2:1 at sw>h2: 135 Gb/s into 100
      [3, 6, 50], [4, 6, 45], [5, 6, 40], // 3:1 at sw>h6: 135 Gb/s into 100
      // two flows of one host (85 % of its link) to two receivers, and one host's second flow beside a congested one
      [7, 0, 40], [7, 1, 45], [5, 3, 35],
    ];
    const doc = oneSwitch(8, flows, '20ms', 'poisson');
    await expectSameThroughput(doc, ['sw>h2', 'sw>h6']);
  }, 600_000);

  it('delivers the same bytes per flow in a k = 4 fat tree with congested queues when constant-rate sources are out of phase', () => {
    // The Poisson case's flows at constant rates for 2 ms, flow i starting i x 137.131 ns late.
    const flows = FAT_TREE_FLOWS.map((f, i) => ({ ...f, start: `${i * 137_131}ps` }));
    const { dcb, ns3 } = both(fatTree(flows, '2ms', 'constant'));
    expect(dcb.drops.lossy).toBeGreaterThan(1000);
    expect(ns3.drops).toBe(dcb.drops.lossy);
    expect(ns3.packet_hops).toBe(dcb.sim.packet_hops);
    expect(dcb.flows.map((f) => f.bytes_delivered)).toEqual(ns3.flows.map((f) => f.delivered_bytes));
  });

  it('gives every flow the same throughput within 5 % in a k = 4 fat tree with pinned paths and Poisson sources', async () => {
    await expectSameThroughput(fatTree(FAT_TREE_FLOWS, '20ms', 'poisson'), ['agg0_0>core0', 'edge1_1>h1_1_1']);
  }, 600_000);
});

type Interarrival = 'constant' | 'poisson';
/** A flow: its pinned path, offered rate and start. */
interface PathFlow { path: string[]; gbps: number; start?: string }

const LINK_GBPS = 100;

/**
 * A lossy fabric of 100G links (10 m) whose switches tail-drop at 100 frames of 1500 B per egress
 * queue (the 64 MB buffer never binds) and whose hosts never drop (their NIC queue holds 1 MB).
 */
function lossyFabric(o: {
  name: string; hosts: string[]; switches: string[]; links: { a: string; b: string }[]; flows: PathFlow[]; duration: string; interarrival: Interarrival;
}): ScenarioInput {
  return {
    name: o.name, seed: 1, duration: o.duration, flow_control: LOSSY, timing: 'ideal', // ns-3 has neither clock offsets nor switch latency
    defaults: { link: { speed: `${LINK_GBPS}G`, cable: '10m' }, buffer: { size: '64MB', lossy_queue: '150000B' }, host_queue: '1000000B' },
    hosts: o.hosts.map((name) => ({ name })), switches: o.switches.map((name) => ({ name })), links: o.links,
    traffic: {
      flows: o.flows.map((f) => ({
        src: f.path[0], dst: f.path[f.path.length - 1], priority: 0, frames: 1500, rate: `${f.gbps}G`, interarrival: o.interarrival,
        ...(f.start ? { start: f.start } : {}), path: f.path,
      })),
    },
    series: { ports: [], flows: [] },
  };
}

/**
 * The path of a flow in `dcbkit gen clos --k 4`'s fat tree (host/scenario/clos.ts names): within an edge
 * switch, up to aggregation switch `agg` of the pod, or over core `agg x 2 + core` (core c links the
 * aggregation switches c / 2 of every pod).
 */
function fatTreeFlow(src: string, dst: string, gbps: number, agg = 0, core = 0): PathFlow {
  const [ps, es] = src.slice(1).split('_').map(Number);
  const [pd, ed] = dst.slice(1).split('_').map(Number);
  const up = [src, `edge${ps}_${es}`];
  const down = [`edge${pd}_${ed}`, dst];
  if (ps === pd && es === ed) return { path: [src, `edge${ps}_${es}`, dst], gbps };
  if (ps === pd) return { path: [...up, `agg${ps}_${agg}`, ...down], gbps };
  return { path: [...up, `agg${ps}_${agg}`, `core${agg * 2 + core}`, `agg${pd}_${agg}`, ...down], gbps };
}

/** Flows of the fat-tree cases, each on its own pinned path. */
const FAT_TREE_FLOWS: PathFlow[] = [
  // 2:1 on the core link agg0_0>core0 (65 + 60 Gb/s), the two flows parting after core0
  fatTreeFlow('h0_0_0', 'h1_0_0', 65, 0, 0), fatTreeFlow('h0_1_0', 'h2_0_0', 60, 0, 0),
  // 3:1 into h1_1_1 (45 + 45 + 40), arriving over three different cores
  fatTreeFlow('h0_0_1', 'h1_1_1', 45, 1, 0), fatTreeFlow('h2_1_0', 'h1_1_1', 45, 0, 1), fatTreeFlow('h3_0_1', 'h1_1_1', 40, 1, 1),
  // two flows of one host (85 % of its link) on different paths
  fatTreeFlow('h3_1_1', 'h0_1_1', 40, 1, 0), fatTreeFlow('h3_1_1', 'h2_0_1', 45, 1, 1),
  // within one edge switch, within one pod, across pods
  fatTreeFlow('h2_1_1', 'h2_1_0', 50), fatTreeFlow('h1_0_1', 'h1_1_0', 40, 0), fatTreeFlow('h1_1_0', 'h3_0_0', 35, 0, 1),
];

/** `dcbkit gen clos --k 4`'s fabric (host/scenario/clos.ts) carrying `flows`. */
function fatTree(flows: PathFlow[], duration: string, interarrival: Interarrival): ScenarioInput {
  const clos = closScenario({ k: 4, flows: 1 });
  return lossyFabric({
    name: 'ns3-fat-tree', hosts: clos.hosts.map((n) => n.name), switches: clos.switches!.map((n) => n.name), links: clos.links,
    flows, duration, interarrival,
  });
}

/**
 * Checks that a case is what it says, from the offered rates alone: every directed link is either
 * clearly uncongested (at most 90 % of its rate offered) or clearly congested (at least 120 %: a
 * queue near 100 % load wanders between full and empty, and 20 ms is then too short for a
 * stable share), the congested ones are the ones named, every flow crosses at most one, and no
 * host offers more than 90 % of its link.
 */
function expectCase(scn: Scenario, congested: string[]): void {
  const flows = scn.flows.map((f) => ({ path: f.path!.map((n) => scn.nodes[n].name), gbps: f.rate_bps / 1e9 }));
  const offered = new Map<string, number>();
  const hostLoad = new Map<string, number>();
  for (const f of flows) {
    for (let i = 0; i + 1 < f.path.length; i++) {
      const link = `${f.path[i]}>${f.path[i + 1]}`;
      offered.set(link, (offered.get(link) ?? 0) + f.gbps);
    }
    hostLoad.set(f.path[0], (hostLoad.get(f.path[0]) ?? 0) + f.gbps);
  }
  const over = [...offered].filter(([, g]) => g > 0.9 * LINK_GBPS);
  expect(over.filter(([, g]) => g < 1.2 * LINK_GBPS)).toEqual([]);
  expect(over.map(([l]) => l).sort()).toEqual([...congested].sort());
  for (const f of flows) expect(f.path.slice(1).filter((n, i) => congested.includes(`${f.path[i]}>${n}`)).length).toBeLessThanOrEqual(1);
  expect(Math.max(...hostLoad.values())).toBeLessThanOrEqual(0.9 * LINK_GBPS);
}

/**
 * Checks the case (expectCase), runs dcbkit and ns-3 at the same time (ns-3 is a child process)
 * and compares each flow's throughput over the run; the message lists every flow when one is off.
 * Congestion must have cost something in both, or the case compared nothing but sources.
 */
async function expectSameThroughput(doc: ScenarioInput, congested: string[]): Promise<void> {
  const scn = checkScenario(doc);
  expectCase(scn, congested);
  const pending = runNs3Async(peer, scn);
  const dcb: SimSummary = runScenario(scn).summary;
  const ns3 = await pending;
  const gbps = (bytes: number) => (bytes * 8 * 1e12) / scn.duration_ps / 1e9;
  const rows = scn.flows.map((f) => {
    const d = gbps(dcb.flows[f.id].bytes_delivered);
    const n = gbps(ns3.flows[f.id].delivered_bytes);
    const path = f.path!.map((node) => scn.nodes[node].name).join(' ');
    return { path, offered: f.rate_bps / 1e9, dcbkit: +d.toFixed(2), ns3: +n.toFixed(2), diff_pct: +((100 * (d - n)) / n).toFixed(2) };
  });
  const table = rows.map((r) => JSON.stringify(r)).join('\n');
  expect(dcb.drops.lossy, table).toBeGreaterThan(0);
  expect(ns3.drops, table).toBeGreaterThan(0);
  for (const r of rows) expect(Math.abs(r.diff_pct), table).toBeLessThanOrEqual(5);
}
