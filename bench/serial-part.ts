// What of a whole fat-tree run is serial (docs/sim.md, "One run on every core"): the `dcbkit bench`
// fabric_clos run (host/sim/bench.ts benchClos: `gen clos` K FLOWS DURATION, from the scenario
// document to the summary) split into its phases: building the document, the scenario check, the
// set-up (tables, routes, partitions, threads), the engine's calls, what the driver does between them
// (samples, deadlock watch) and the summary. Everything but the engine runs on the main thread alone
// while the partitions' threads wait: that is the serial part the speed-up model charges
// (bench/partition-model.ts `serial_s`). REPS rounds, each running the thread counts in turn (order
// flipped every round, as bench/fixed-cost-ab.ts does); each phase's median, s, by the main thread's
// CPU time (Linux: /proc/thread-self/schedstat, ns on a core; what the phase costs whatever else
// the machine runs) or with --wall by wall time (what it costs on an idle machine); and the main
// thread's minor page faults over the run (runScenario's call), of which the set-up's are most.
// Usage: node dist/bench/serial-part.js K FLOWS DURATION THREADS[,THREADS...] [REPS] [--wall]   (one JSON line on stdout)
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { closScenario } from '../host/scenario/clos.js';
import { checkScenario } from '../host/scenario/scenario.js';
import { runScenario, type RunPhases } from '../host/sim/run.js';

type Phases = Omit<RunPhases, 'clock'> & { doc_s: number; check_s: number };

/** CPU time of the calling thread, s (the first field of its schedstat: ns on a core). */
export function threadCpuSeconds(): number {
  return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e9;
}

/**
 * Minor page faults of the calling thread so far (field 10 of its stat): a first write to a fresh
 * page, some 14 us of CPU each on a 2-vCPU virtual machine, counted whatever else the machine runs.
 */
export function threadMinorFaults(): number {
  const stat = readFileSync('/proc/thread-self/stat', 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[7]);
}

/** One timed run of the tree on `threads` threads, phase by phase, by `clock` (s). */
export function timePhases(k: number, flows: number, duration: string, threads: number, clock: () => number): Phases & { threads: number; serial_s: number; faults: number } {
  const t0 = clock();
  const doc = closScenario({ k, flows, duration });
  const t1 = clock();
  const scn = checkScenario(doc);
  const t2 = clock();
  const phases: RunPhases = { setup_s: 0, engine_s: 0, between_s: 0, summary_s: 0, clock };
  const f0 = threadMinorFaults();
  const { summary } = runScenario(scn, { threads, phases });
  const faults = threadMinorFaults() - f0;
  delete phases.clock;
  const all = { doc_s: t1 - t0, check_s: t2 - t1, ...phases };
  return { threads: summary.sim.threads, ...all, serial_s: all.doc_s + all.check_s + all.setup_s + all.between_s + all.summary_s, faults };
}

const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };

if (process.argv[1]?.endsWith('serial-part.js')) {
  const wall = process.argv.includes('--wall');
  const [k, flows, duration, threadList, reps] = process.argv.slice(2).filter((a) => a !== '--wall');
  const clock = wall ? () => performance.now() / 1e3 : threadCpuSeconds;
  const counts = threadList.split(',').map(Number);
  // V8 compiles the host code on a small tree first, as benchClos does.
  for (const n of counts) timePhases(4, 16, '100us', n, clock);
  const load = [loadavg()[0]];
  const runs = new Map<number, ReturnType<typeof timePhases>[]>(counts.map((n) => [n, []]));
  for (let r = 0; r < Number(reps ?? 3); r++) {
    for (const n of r % 2 ? [...counts].reverse() : counts) runs.get(n)!.push(timePhases(Number(k), Number(flows), duration, n, clock));
  }
  load.push(loadavg()[0]);
  const r4 = (x: number) => Math.round(x * 1e4) / 1e4;
  const out = counts.map((n) => {
    const rs = runs.get(n)!;
    const keys = ['doc_s', 'check_s', 'setup_s', 'engine_s', 'between_s', 'summary_s', 'serial_s'] as const;
    return {
      asked: n, threads: rs[0].threads, ...Object.fromEntries(keys.map((key) => [key, r4(median(rs.map((x) => x[key])))])), serial_s_each: rs.map((x) => r4(x.serial_s)),
      main_faults: median(rs.map((x) => x.faults)), main_faults_each: rs.map((x) => x.faults),
    };
  });
  process.stdout.write(JSON.stringify({ k: Number(k), flows: Number(flows), duration, clock: wall ? 'wall' : 'main thread CPU', load_1min: load.map((x) => Number(x.toFixed(2))), runs: out }) + '\n');
}
