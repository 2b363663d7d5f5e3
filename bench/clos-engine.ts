// Engine-only cost of a fat-tree run (docs/sim.md, "What limits the speed"): builds the scenario
// `gen clos` prints, then times `runUntil(duration)` alone, without the scenario check, the set-up
// or any sampling, so that the cost per event of different tree sizes and builds compares directly.
// Compare two builds by alternating their runs in one session: absolute times on a shared machine
// drift, ratios measured side by side do not.
// `dcbkit bench` reports a k = 8 permutation this way beside the incast (benchClosK8, key clos_k8).
// Usage: node dist/bench/clos-engine.js K FLOWS DURATION [SEED [PATTERN]]    (one JSON line on stdout)
import { closScenario, type ClosPattern } from '../host/scenario/clos.js';
import { median } from './stats.js';
import { buildFabric } from '../host/sim/run.js';
import { checkScenario } from '../host/scenario/scenario.js';

export interface EngineFigures {
  k: number; flows: number; pattern: ClosPattern; duration_ps: number;
  /** Scenario check and fabric set-up, then the engine alone, wall seconds. */
  setup_s: number; engine_s: number;
  /** CPU time of the engine run (user + system, this process): less disturbed by other tenants than wall time. */
  engine_cpu_s: number; ns_per_event_cpu: number;
  packet_hops: number; events: number; events_per_hop: number;
  ns_per_event: number; packet_hops_per_s: number;
  /** Packet-hops per CPU second of the engine run: what `bench` compares with the incast's. */
  packet_hops_per_cpu_s: number;
}

export function measureEngine(k: number, flows: number, duration: string, seed = 1, pattern: ClosPattern = 'random'): EngineFigures {
  const t0 = process.hrtime.bigint();
  const scn = checkScenario(closScenario({ k, flows, duration, seed, pattern }));
  const fab = buildFabric(scn);
  const t1 = process.hrtime.bigint();
  const cpu0 = process.cpuUsage();
  fab.runUntil(scn.duration_ps);
  const cpu = process.cpuUsage(cpu0);
  const t2 = process.hrtime.bigint();
  const hops = fab.r64(fab.addr.counters + fab.L.SC_HOPS);
  const events = fab.r64(fab.addr.counters + fab.L.SC_EVENTS);
  const engineNs = Number(t2 - t1);
  const cpuNs = (cpu.user + cpu.system) * 1000;
  return {
    k, flows, pattern, duration_ps: scn.duration_ps,
    setup_s: Number(t1 - t0) / 1e9, engine_s: engineNs / 1e9,
    engine_cpu_s: cpuNs / 1e9, ns_per_event_cpu: Number((cpuNs / events).toFixed(1)),
    packet_hops: hops, events, events_per_hop: Number((events / hops).toFixed(3)),
    ns_per_event: Number((engineNs / events).toFixed(1)), packet_hops_per_s: Math.round(hops / (engineNs / 1e9)),
    packet_hops_per_cpu_s: cpuNs > 0 ? Math.round(hops / (cpuNs / 1e9)) : 0,
  };
}

/**
 * The k = 8 tree beside the incast: `gen clos -k 8 --flows 128 --pattern permutation` (every host
 * sends to one other, most paths five hops through the core), the engine alone for 300 us simulated,
 * after one untimed 50 us run so that V8 has tiered the engine up; the median of three runs by CPU
 * time. Quick: one 50 us run, cold.
 */
export function benchClosK8(opts: { quick?: boolean } = {}): EngineFigures {
  if (opts.quick) return measureEngine(8, 128, '50us', 1, 'permutation');
  measureEngine(8, 128, '50us', 1, 'permutation');
  const runs = [0, 1, 2].map(() => measureEngine(8, 128, '300us', 1, 'permutation'));
  const mid = median(runs.map((r) => r.engine_cpu_s));
  return runs.find((r) => r.engine_cpu_s === mid) ?? runs[1];
}

if (process.argv[1]?.endsWith('clos-engine.js')) {
  const [k, flows, duration, seed, pattern] = process.argv.slice(2);
  process.stdout.write(JSON.stringify(measureEngine(Number(k), Number(flows), duration, seed === undefined ? 1 : Number(seed), (pattern ?? 'random') as ClosPattern)) + '\n');
}
