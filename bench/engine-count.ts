// Instructions per packet-hop of the fabric engine, deterministic (docs/bench.md, "Engine cost per
// hop"): cachegrind's count of the code V8 generated (bench/perf.ts) for `drive SCENARIO D 1` minus
// that for `drive SCENARIO D 0` — the same build of the same tables, run to the end or not at all —
// over the packet-hops of the run. SCENARIO is the incast of `bench` (host/sim/bench.ts) or the
// k = 8 fat tree with permutation traffic; node runs with --no-liftoff (TurboFan at once, the code
// the timed runs execute after warm-up) and --single-threaded.
// Usage: node dist/bench/engine-count.js [--incast-us D] [--tree-us D] [--only incast|tree] [--sim] [WASM]   (JSON on stdout;
//        --sim: cachegrind's cache and branch models too, their misses per hop)
//        node dist/bench/engine-count.js drive incast|tree D 0|1 [WASM]   (the measured program; WASM: another build
//        of the release core, e.g. one with function names for a profile)
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { useCompiledModule } from '../host/core/loader.js';
import { closScenario } from '../host/scenario/clos.js';
import { checkScenario, type Scenario } from '../host/scenario/scenario.js';
import { benchScenario } from '../host/sim/bench.js';
import { buildFabric } from '../host/sim/fabric.js';
import { generatedCodeEvents } from './perf.js';

/** The measured scenarios, by name, for a simulated duration in microseconds. */
export function engineScenario(name: string, us: number): Scenario {
  if (name === 'incast') return checkScenario(benchScenario(us));
  if (name === 'tree') return checkScenario({ ...closScenario({ k: 8, flows: 128, duration: `${us}us`, seed: 1, pattern: 'permutation' }), sample: `${us / 10}us` });
  throw new Error(`scenario must be incast or tree, not ${name}`);
}

function drive(name: string, us: number, run: boolean): void {
  const scn = engineScenario(name, us);
  const fab = buildFabric(scn);
  if (run) for (let t = scn.sample_ps; t <= scn.duration_ps; t += scn.sample_ps) fab.runUntil(t);
  const hops = fab.r64(fab.addr.counters + fab.L.SC_HOPS);
  const events = fab.r64(fab.addr.counters + fab.L.SC_EVENTS);
  process.stdout.write(JSON.stringify({ hops, events }) + '\n');
}

type Count = { simulated_us: number; hops: number; events: number; instructions: number; per_hop: number; per_event: number; simulated_per_hop?: Record<string, number> } | { reason: string };

/**
 * The cachegrind events of the run over those of the same program not running, per packet-hop;
 * with `simulate`, also its cache and branch models' misses per hop (simulated_per_hop).
 */
function measure(name: string, us: number, wasm: string[], simulate: boolean): Count {
  const self = fileURLToPath(import.meta.url);
  const flags = ['--no-liftoff', '--single-threaded', self, 'drive', name, String(us)];
  const base = generatedCodeEvents(process.execPath, [...flags, '0', ...wasm], simulate);
  const full = generatedCodeEvents(process.execPath, [...flags, '1', ...wasm], simulate);
  if (typeof base === 'string' || typeof full === 'string') return { reason: typeof base === 'string' ? base : String(full) };
  const { hops, events } = full.stdout;
  const ir = full.events.Ir - base.events.Ir;
  const count: Count = { simulated_us: us, hops, events, instructions: ir,
    per_hop: Number((ir / hops).toFixed(1)), per_event: Number((ir / events).toFixed(1)) };
  if (simulate) {
    const per = (k: string) => Number(((full.events[k] - base.events[k]) / hops).toFixed(3));
    count.simulated_per_hop = { d1_misses: per('D1mr') + per('D1mw'), ll_misses: per('DLmr') + per('DLmw'),
      branches: per('Bc') + per('Bi'), mispredicts: per('Bcm') + per('Bim') };
  }
  return count;
}

const argv = process.argv.slice(2);
if (argv[0] === 'drive') {
  if (argv[4]) useCompiledModule('release', new WebAssembly.Module(readFileSync(argv[4])));
  drive(argv[1], Number(argv[2]), argv[3] === '1');
} else {
  const opt = (n: string, d: string) => {
    const i = argv.indexOf(n);
    return i < 0 ? d : argv.splice(i, 2)[1];
  };
  const incastUs = Number(opt('--incast-us', '10000'));
  const treeUs = Number(opt('--tree-us', '100'));
  const only = opt('--only', '');
  const simulate = argv.includes('--sim');
  if (simulate) argv.splice(argv.indexOf('--sim'), 1);
  const incast: Count = only === 'tree' ? { reason: 'not asked' } : measure('incast', incastUs, argv, simulate);
  const tree: Count = only === 'incast' ? { reason: 'not asked' } : measure('tree', treeUs, argv, simulate);
  const ratio = 'per_hop' in incast && 'per_hop' in tree ? Number((tree.per_hop / incast.per_hop).toFixed(3)) : null;
  process.stdout.write(JSON.stringify({ incast, tree, tree_over_incast_per_hop: ratio }, null, 1) + '\n');
}
