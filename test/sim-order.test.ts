// The engine's event order (docs/sim.md "Event order"): equal-time events run by (event class,
// entity id), never by the order they were queued in nor by packet record indices. So a run depends
// on how entities are numbered only where entities that share state meet at one instant: the ports
// of one node, the flows of one host. Renumbering anything else (listing links, nodes and flows in
// another order that keeps, per node, the order of its ports and, per host, the order of its flows)
// leaves every flow's result unchanged; so does any order of the packet pool's free list.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { checkScenario, type ScenarioInput } from '../host/scenario/scenario.js';
import { runScenario, type RunOptions } from '../host/sim/run.js';
import type { SimSummary } from '../host/sim/result.js';
import { dcbEts403020 } from './helpers.js';

const DCB = dcbEts403020(1500);

interface FlowSpec { src: number; dst: number; priority: number; /** 0: unlimited */ size: number; frames: number; start: number; roce: boolean; rate?: string }
interface FabricSpec {
  nSw: number; hostSw: number[]; speeds: string[]; cables: string[]; /** shared buffer beyond the headroom, B */ buffer: number; flows: FlowSpec[]; seed: number;
  /** Every link 100G 10 m, every flow 1500 B frames from t = 0: equal-time events everywhere. */
  uniform: boolean;
}

const flowSpec = fc.record({
  src: fc.nat(), dst: fc.nat(), priority: fc.constantFrom(0, 3), size: fc.constantFrom(4_500, 30_000, 120_000, 0),
  frames: fc.constantFrom(1500, 1500, 1000, 64), start: fc.constantFrom(0, 0, 0, 2_000_000), roce: fc.boolean(),
  rate: fc.constantFrom(undefined, undefined, '40G'),
}, { requiredKeys: ['src', 'dst', 'priority', 'size', 'frames', 'start', 'roce'] });

const fabricSpec: fc.Arbitrary<FabricSpec> = fc.record({
  nSw: fc.integer({ min: 1, max: 3 }),
  hostSw: fc.array(fc.nat(), { minLength: 3, maxLength: 6 }),
  speeds: fc.array(fc.constantFrom('25G', '100G', '100G', '100G'), { minLength: 8, maxLength: 8 }),
  cables: fc.array(fc.constantFrom('10m', '10m', '10m', '30m'), { minLength: 8, maxLength: 8 }),
  buffer: fc.constantFrom(20_000, 1_000_000),
  flows: fc.array(flowSpec, { minLength: 2, maxLength: 6 }),
  seed: fc.integer(),
  uniform: fc.boolean(),
});

/** xorshift32 for the shuffles (the test's own; fast-check shrinks the seed). */
function rng(seed: number): () => number {
  let s = (seed | 0) || 0x6d2b79f5;
  return () => { s ^= s << 13; s ^= s >>> 17; s ^= s << 5; return (s >>> 0) / 4294967296; };
}

/**
 * A random order of items in which, for every group, the items of that group keep their relative
 * order (items may belong to several groups: a link to both its nodes). Each step takes one of the
 * items that is next in all of its groups; the earliest item left always is, so one always exists.
 */
function constrainedShuffle(groupsOf: string[][], rand: () => number): number[] {
  const placed = groupsOf.map(() => false);
  const order: number[] = [];
  while (order.length < groupsOf.length) {
    const ready = groupsOf.map((_, i) => i).filter((i) => !placed[i] && groupsOf[i].every((g) =>
      groupsOf.findIndex((hs, j) => !placed[j] && hs.includes(g)) === i));
    const pick = ready[Math.floor(rand() * ready.length)];
    placed[pick] = true;
    order.push(pick);
  }
  return order;
}

function shuffled<T>(xs: T[], rand: () => number): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) { const j = Math.floor(rand() * (i + 1)); [out[i], out[j]] = [out[j], out[i]]; }
  return out;
}

interface Built { doc: ScenarioInput; flowOrder: number[] }

/** A tree of switches (a chain) with hosts hanging off them; `renumber` lists everything in another order. */
function build(spec: FabricSpec, renumber: boolean): Built {
  const rand = rng(spec.seed);
  const hosts = spec.hostSw.map((_, i) => `h${i}`);
  const switches = Array.from({ length: spec.nSw }, (_, i) => `s${i}`);
  const links: { a: string; b: string; speed: string; cable: string }[] = [];
  const cable = (i: number) => (spec.uniform ? '10m' : spec.cables[i]);
  for (let i = 1; i < spec.nSw; i++) links.push({ a: `s${i - 1}`, b: `s${i}`, speed: '100G', cable: cable(i) });
  spec.hostSw.forEach((s, i) => links.push({ a: hosts[i], b: `s${s % spec.nSw}`, speed: spec.uniform ? '100G' : spec.speeds[i], cable: cable(i) }));
  const flows = spec.flows.map((f) => {
    const src = f.src % hosts.length;
    let dst = f.dst % hosts.length;
    if (dst === src) dst = (src + 1) % hosts.length;
    return {
      src: hosts[src], dst: hosts[dst], priority: f.priority, frames: spec.uniform ? 1500 : f.frames, start: spec.uniform || f.start === 0 ? 0 : `${f.start}ps`, ...(f.size > 0 ? { size: `${f.size}B` } : {}),
      ...(f.roce ? { transport: 'roce' as const } : {}), ...(f.rate ? { rate: f.rate } : {}),
    };
  });
  let flowOrder = flows.map((_, i) => i);
  let linkList = links;
  let hostList = hosts, switchList = switches;
  if (renumber) {
    linkList = constrainedShuffle(links.map((l) => [l.a, l.b]), rand).map((i) => links[i])
      .map((l) => (rand() < 0.5 ? l : { ...l, a: l.b, b: l.a }));
    flowOrder = constrainedShuffle(flows.map((f) => [f.src]), rand);
    hostList = shuffled(hosts, rand);
    switchList = shuffled(switches, rand);
  }
  // The buffer holds the largest switch's headroom (under 62 KB a port here) and spec.buffer more.
  const ports = switches.map((sw) => links.filter((l) => l.a === sw || l.b === sw).length);
  const buffer = Math.max(...ports) * 62_000 + spec.buffer;
  const doc: ScenarioInput = {
    // Ideal timing: renumbering the ports gives each its stream (its clock) by its new number.
    name: 'order', seed: 1, duration: '150us', sample: '10us', timing: 'ideal',
    defaults: { link: { speed: '100G', cable: '10m' }, buffer: { size: `${buffer}B`, headroom: 'auto' }, dcb: DCB },
    hosts: hostList.map((name) => ({ name })), switches: switchList.map((name) => ({ name })), links: linkList,
    traffic: { flows: flowOrder.map((i) => flows[i]) },
  } as ScenarioInput;
  return { doc, flowOrder };
}

/** What the order can change: every flow's result (without its id, matched by the original index), drops, PFC, events. */
function outcome(s: SimSummary, flowOrder: number[]) {
  const flows: unknown[] = [];
  s.flows.forEach(({ id: _id, ...rest }, j) => { flows[flowOrder[j]] = rest; });
  return {
    flows, drops: s.drops, events: s.sim.events, packet_hops: s.sim.packet_hops,
    pfc: { xoff: s.pfc.xoff_frames, xon: s.pfc.xon_sent, frames: s.pfc.pause_frames, paused: s.pfc.paused_ps_by_priority },
  };
}

function runBuilt(b: Built, opts: RunOptions = {}) {
  return runScenario(checkScenario(b.doc), opts);
}

describe('event order', () => {
  it('property: renumbering links, nodes and flows (each node keeping its ports\' order, each host its flows\') changes no flow\'s result', () => {
    // The cases must exercise what the order decides: PFC and drops, not only free-flowing frames.
    const seen = { pfc: 0, drops: 0 };
    fc.assert(fc.property(fabricSpec, (spec) => {
      const a = build(spec, false);
      const b = build(spec, true);
      const sa = runBuilt(a).summary;
      expect(outcome(runBuilt(b).summary, b.flowOrder)).toEqual(outcome(sa, a.flowOrder));
      if (sa.pfc.xoff_frames > 0) seen.pfc++;
      if (sa.drops.lossy > 0) seen.drops++;
    }), { numRuns: 60 });
    // About 1 case in 5 pauses and 1 in 8 drops (go-back-N resends, about 1 in 15, are not required).
    expect(seen.pfc).toBeGreaterThan(0);
    expect(seen.drops).toBeGreaterThan(0);
  });

  it('property: the packet pool\'s free-list order changes nothing: summary and series identical', () => {
    fc.assert(fc.property(fabricSpec, fc.integer({ min: 1, max: 1 << 30 }), fc.integer({ min: 0, max: 1 << 30 }), (spec, a, b) => {
      const built = build(spec, false);
      const plain = runBuilt(built);
      const permuted = runBuilt(built, { poolOrder: { a, b } });
      const strip = (s: SimSummary) => ({ ...s, sim: { ...s.sim, wall_s: 0, packet_hops_per_s: 0 } });
      expect(strip(permuted.summary)).toEqual(strip(plain.summary));
      expect(permuted.series).toEqual(plain.series);
    }), { numRuns: 30 });
  });

  it('two frames reaching one switch at the same instant queue in receiving-port order, whatever the flows\' order', () => {
    // h0 and h1 start a 1500 B frame each at t = 0 over equal links: both arrive at sw at 171,600 ps
    // (121,600 serialisation + 50,000 of 10 m) and queue for sw>h2 by receiving port: sw>h0's frame
    // (link 0) first, whichever flow is listed first. The second leaves 121,600 ps after the first.
    const doc = (flows: { src: string }[]): ScenarioInput => ({
      name: 'tie', duration: '5us', sample: '1us', timing: 'ideal',
      defaults: { link: { speed: '100G', cable: '10m' }, buffer: { size: '1MB', headroom: 'auto' }, dcb: DCB },
      hosts: [{ name: 'h0' }, { name: 'h1' }, { name: 'h2' }], switches: [{ name: 'sw' }],
      links: [{ a: 'h0', b: 'sw' }, { a: 'h1', b: 'sw' }, { a: 'h2', b: 'sw' }],
      traffic: { flows: flows.map((f) => ({ src: f.src, dst: 'h2', priority: 0, size: '1500B' })) },
    });
    const fct = (flows: { src: string }[]) => Object.fromEntries(runScenario(checkScenario(doc(flows))).summary.flows.map((f) => [f.src, f.fct_ps]));
    const first = 2 * 171_600, second = first + 121_600;
    expect(fct([{ src: 'h0' }, { src: 'h1' }])).toEqual({ h0: first, h1: second });
    expect(fct([{ src: 'h1' }, { src: 'h0' }])).toEqual({ h0: first, h1: second });
  });
});
