// Measures what a pod-partitioned parallel run of a fat tree would face (docs/sim.md, "One run past
// one core, on paper"): partition p = pod p's edge and aggregation switches and hosts, plus core
// switches c with c mod k = p (k/4 cores each). For the scenario `gen clos` prints, it runs the
// engine as `run` does and reports, from the per-port counters at the end:
//   lookahead      the smallest delay from a transmission starting in one partition to its first
//                  effect in another: cable propagation, and that plus the shortest frame's
//                  serialisation (64 B PFC frame)
//   cross frames   data frames sent, and PFC frames received, on ports whose peer is in another
//                  partition: the messages partitions would exchange; their rate per simulated
//                  second and per lookahead window, and their share of all packet-hops and events
//   balance        packet-hops sent by each partition's ports, max over mean
// Usage: node dist/bench/clos-partition.js K FLOWS DURATION [SEED]    (one JSON line on stdout)
import { closScenario } from '../host/scenario/clos.js';
import { buildFabric } from '../host/sim/run.js';
import { checkScenario } from '../host/scenario/scenario.js';

export interface PartitionFigures {
  k: number; flows: number; duration_ps: number; partitions: number;
  packet_hops: number; events: number; wall_s: number;
  lookahead_prop_ps: number; lookahead_ps: number;
  cross_data_frames: number; cross_pfc_frames: number; cross_share_of_hops: number; cross_per_event: number;
  cross_per_window: number; windows: number; hops_by_partition: number[]; hops_balance_max_over_mean: number;
}

export function measurePartition(k: number, flows: number, duration: string, seed = 1): PartitionFigures {
  const scn = checkScenario(closScenario({ k, flows, duration, seed }));
  // Node names from clos.ts: core<c>, agg<p>_<a>, edge<p>_<e>, h<p>_<e>_<h>.
  const partOf = scn.nodes.map((n) => {
    const core = /^core(\d+)$/.exec(n.name);
    if (core) return Number(core[1]) % k;
    const pod = /^(?:agg|edge|h)(\d+)_/.exec(n.name);
    if (!pod) throw new Error(`not a fat-tree node: ${n.name}`);
    return Number(pod[1]);
  });
  const t0 = process.hrtime.bigint();
  const fab = buildFabric(scn);
  for (let t = scn.sample_ps; t <= scn.duration_ps; t += scn.sample_ps) fab.runUntil(t);
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  const { core, L } = fab;
  const r64 = (at: number) => Number(core.i64[at >>> 3]);
  const sum8 = (at: number) => { let s = 0; for (let i = 0; i < 8; i++) s += r64(at + i * 8); return s; };
  let crossData = 0;
  let crossPfc = 0;
  let lookProp = Infinity;
  let look = Infinity;
  const hopsByPart = new Array(k).fill(0);
  for (const p of scn.ports) {
    const pa = fab.addr.ports + p.id * L.SP_SIZE;
    const sent = sum8(pa + L.SP_TX_PKTS);
    hopsByPart[partOf[p.node]] += sent;
    if (partOf[p.node] === partOf[p.peerNode]) continue;
    crossData += sent;
    crossPfc += sum8(pa + L.SP_PFC_RX);
    lookProp = Math.min(lookProp, p.delay_ps);
    look = Math.min(look, p.delay_ps + Math.round(64 * p.psPerByte));
  }
  const c = (f: number) => r64(fab.addr.counters + f);
  const hops = c(L.SC_HOPS);
  const events = c(L.SC_EVENTS);
  const windows = Math.ceil(scn.duration_ps / look);
  const mean = hopsByPart.reduce((a, b) => a + b, 0) / k;
  return {
    k, flows, duration_ps: scn.duration_ps, partitions: k, packet_hops: hops, events, wall_s: Number(wall.toFixed(3)),
    lookahead_prop_ps: lookProp, lookahead_ps: look,
    cross_data_frames: crossData, cross_pfc_frames: crossPfc,
    cross_share_of_hops: Number(((crossData + crossPfc) / hops).toFixed(4)),
    cross_per_event: Number(((crossData + crossPfc) / events).toFixed(4)),
    windows, cross_per_window: Number(((crossData + crossPfc) / windows).toFixed(2)),
    hops_by_partition: hopsByPart,
    hops_balance_max_over_mean: Number((Math.max(...hopsByPart) / mean).toFixed(3)),
  };
}

if (process.argv[1]?.endsWith('clos-partition.js')) {
  const [k, flows, duration, seed] = process.argv.slice(2);
  process.stdout.write(JSON.stringify(measurePartition(Number(k), Number(flows), duration, seed === undefined ? 1 : Number(seed))) + '\n');
}
