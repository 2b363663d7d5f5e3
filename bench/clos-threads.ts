// The whole-run fat-tree figure of `dcbkit bench` (host/sim/bench.ts benchClos) for any tree: the
// same `gen clos` run on one thread, then on THREADS (default: the machine's cores) in one process,
// with the speed-up (docs/sim.md, "One run on every core"). Peak memory is measured per process
// (run it twice under /usr/bin/time -v with THREADS 1 and N for that).
// Usage: node dist/bench/clos-threads.js K FLOWS DURATION [THREADS]    (one JSON line on stdout)
import { benchClos } from '../host/sim/bench.js';

const [k, flows, duration, threads] = process.argv.slice(2);
process.stdout.write(JSON.stringify(benchClos({ k: Number(k), flows: Number(flows), duration, threads: threads === undefined ? undefined : Number(threads) })) + '\n');
