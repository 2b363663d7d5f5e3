// Side-by-side cost per packet-hop of two (or more) builds of the core, in one process: the 16:1
// incast of `bench` (key `fabric`, host/sim/bench.ts) and a k = 8 fat tree with permutation traffic
// (`gen clos -k 8 --flows 128 --pattern permutation`), each timed as the engine alone (tables built
// before the clock starts). The builds alternate round by round, so the machine's other load falls
// on each alike; the figure to read is the ratio of the builds' CPU time per hop in each round and
// its median. Every build must give the same packet-hops (the outputs are identical).
// Usage: node dist/bench/engine-ab.js [--rounds N] [--incast-us D] [--tree-us D] WASM...   (JSON on stdout)
import { readFileSync } from 'node:fs';
import { useCompiledModule } from '../host/core/loader.js';
import { closScenario } from '../host/scenario/clos.js';
import { checkScenario, type Scenario } from '../host/scenario/scenario.js';
import { benchScenario } from '../host/sim/bench.js';
import { buildFabric } from '../host/sim/fabric.js';

interface Timed { cpu_ns_per_hop: number; wall_ns_per_hop: number; hops: number; events: number }

/** One engine-only run of `scn` on the current module, in sampling-interval steps as `run` does. */
function timeRun(scn: Scenario): Timed {
  const fab = buildFabric(scn);
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  for (let t = scn.sample_ps; t <= scn.duration_ps; t += scn.sample_ps) fab.runUntil(t);
  const wall = Number(process.hrtime.bigint() - t0);
  const c = process.cpuUsage(c0);
  const hops = fab.r64(fab.addr.counters + fab.L.SC_HOPS);
  const events = fab.r64(fab.addr.counters + fab.L.SC_EVENTS);
  fab.close();
  return { cpu_ns_per_hop: ((c.user + c.system) * 1000) / hops, wall_ns_per_hop: wall / hops, hops, events };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

const args = process.argv.slice(2);
const opt = (name: string, dflt: number) => {
  const i = args.indexOf(name);
  if (i < 0) return dflt;
  const v = Number(args[i + 1]);
  args.splice(i, 2);
  return v;
};
const rounds = opt('--rounds', 5);
const incastUs = opt('--incast-us', 20000);
const treeUs = opt('--tree-us', 300);
const builds = args.map((path) => ({ path, module: new WebAssembly.Module(readFileSync(path)) }));
if (builds.length === 0) {
  process.stderr.write('usage: engine-ab.js [--rounds N] [--incast-us D] [--tree-us D] WASM...\n');
  process.exit(2);
}
const incast = checkScenario(benchScenario(incastUs));
const tree = checkScenario({ ...closScenario({ k: 8, flows: 128, duration: `${treeUs}us`, seed: 1, pattern: 'permutation' }), sample: `${treeUs / 10}us` });
const warmIncast = checkScenario(benchScenario(2000));
const warmTree = checkScenario(closScenario({ k: 4, flows: 16, duration: '200us', seed: 1, pattern: 'permutation' }));
// V8 has no on-stack replacement for Wasm: short runs first, so the timed ones run optimised code.
for (const b of builds) {
  useCompiledModule('release', b.module);
  for (let i = 0; i < 3; i++) { timeRun(warmIncast); timeRun(warmTree); }
}
const per = builds.map(() => ({ incast: [] as Timed[], tree: [] as Timed[] }));
for (let r = 0; r < rounds; r++) {
  // Alternate the order too, so neither build always runs first in a round.
  const order = builds.map((_, i) => i);
  if (r % 2) order.reverse();
  for (const i of order) {
    useCompiledModule('release', builds[i].module);
    per[i].incast.push(timeRun(incast));
    per[i].tree.push(timeRun(tree));
  }
}
const summary = builds.map((b, i) => {
  const inc = per[i].incast, tr = per[i].tree;
  const incCpu = median(inc.map((x) => x.cpu_ns_per_hop));
  const trCpu = median(tr.map((x) => x.cpu_ns_per_hop));
  return {
    build: b.path,
    incast: { hops: inc[0].hops, events: inc[0].events, cpu_ns_per_hop: +incCpu.toFixed(2), wall_ns_per_hop: +median(inc.map((x) => x.wall_ns_per_hop)).toFixed(2), mhops_per_cpu_s: +(1e3 / incCpu).toFixed(2) },
    tree_k8: { hops: tr[0].hops, events: tr[0].events, cpu_ns_per_hop: +trCpu.toFixed(2), wall_ns_per_hop: +median(tr.map((x) => x.wall_ns_per_hop)).toFixed(2), mhops_per_cpu_s: +(1e3 / trCpu).toFixed(2) },
    tree_over_incast_per_hop: +(trCpu / incCpu).toFixed(3),
    // Per round, this build's CPU per hop over the first build's (side by side).
    incast_ratio_to_first: +median(inc.map((x, r) => x.cpu_ns_per_hop / per[0].incast[r].cpu_ns_per_hop)).toFixed(4),
    tree_ratio_to_first: +median(tr.map((x, r) => x.cpu_ns_per_hop / per[0].tree[r].cpu_ns_per_hop)).toFixed(4),
    // The packet-hops must match (the same simulation); the events may differ if a build batches them.
    same_hops_as_first: inc.every((x) => x.hops === per[0].incast[0].hops) && tr.every((x) => x.hops === per[0].tree[0].hops),
  };
});
process.stdout.write(JSON.stringify({ rounds, incast_us: incastUs, tree_us: treeUs, builds: summary }, null, 1) + '\n');
