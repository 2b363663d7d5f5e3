// Engine-only cost of a fat-tree run (docs/sim.md, "What limits the speed"): builds the scenario
// `gen clos` prints, then times `runUntil(duration)` alone, without the scenario check, the set-up
// or any sampling, so that the cost per event of different tree sizes and builds compares directly.
// Compare two builds by alternating their runs in one session: absolute times on a shared machine
// drift, ratios measured side by side do not.
// Usage: node dist/bench/clos-engine.js K FLOWS DURATION [SEED]    (one JSON line on stdout)
import { closScenario } from '../host/scenario/clos.js';
import { buildFabric } from '../host/sim/run.js';
import { checkScenario } from '../host/scenario/scenario.js';

export interface EngineFigures {
  k: number; flows: number; duration_ps: number;
  /** Scenario check and fabric set-up, then the engine alone, wall seconds. */
  setup_s: number; engine_s: number;
  /** CPU time of the engine run (user + system, this process): less disturbed by other tenants than wall time. */
  engine_cpu_s: number; ns_per_event_cpu: number;
  packet_hops: number; events: number; events_per_hop: number;
  ns_per_event: number; packet_hops_per_s: number;
}

export function measureEngine(k: number, flows: number, duration: string, seed = 1): EngineFigures {
  const t0 = process.hrtime.bigint();
  const scn = checkScenario(closScenario({ k, flows, duration, seed }));
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
    k, flows, duration_ps: scn.duration_ps,
    setup_s: Number(t1 - t0) / 1e9, engine_s: engineNs / 1e9,
    engine_cpu_s: cpuNs / 1e9, ns_per_event_cpu: Number((cpuNs / events).toFixed(1)),
    packet_hops: hops, events, events_per_hop: Number((events / hops).toFixed(3)),
    ns_per_event: Number((engineNs / events).toFixed(1)), packet_hops_per_s: Math.round(hops / (engineNs / 1e9)),
  };
}

if (process.argv[1]?.endsWith('clos-engine.js')) {
  const [k, flows, duration, seed] = process.argv.slice(2);
  process.stdout.write(JSON.stringify(measureEngine(Number(k), Number(flows), duration, seed === undefined ? 1 : Number(seed))) + '\n');
}
