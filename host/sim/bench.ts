// The fabric benchmark: a fixed 16:1 incast at 100 Gb/s through one switch, priority 3 lossless
// (PFC, auto headroom) with QCN (congestion point at the switch, a reaction point per flow),
// 1500 B frames. Figure: simulated packet-hops (a frame serialised on one link) per second of wall
// time on one core, timing only the engine's run (the tables are built before the clock starts).
import { checkScenario, type ScenarioInput } from '../scenario/scenario.js';
import { runScenario } from './run.js';
import { buildFabric } from './fabric.js';
import { closScenario } from '../scenario/clos.js';
import { availableParallelism } from 'node:os';

export interface FabricBench {
  packet_hops_per_s: number;
  packet_hops: number;
  events: number;
  events_per_s: number;
  wall_s: number;
  /** Process CPU time of the timed run (less sensitive than wall time to other load on the machine). */
  cpu_s: number;
  packet_hops_per_cpu_s: number;
  simulated_ps: number;
  scenario: string;
}

export function benchScenario(durationUs: number): ScenarioInput {
  const hosts = Array.from({ length: 17 }, (_, i) => ({ name: `h${i}` }));
  return {
    name: 'bench-incast-16to1', seed: 1, duration: `${durationUs}us`, sample: '100us',
    defaults: {
      link: { speed: '100G', cable: '10m' },
      buffer: { size: '16MB', headroom: 'auto' },
      dcb: {
        port: { mtu: 9216 },
        ets: { prio_tc: [0, 0, 1, 1, 2, 2, 3, 3], tsa: ['ets', 'ets', 'ets', 'strict', 'strict', 'strict', 'strict', 'strict'], bw: [40, 40, 20, 0, 0, 0, 0, 0] },
        pfc: { enable: [3] },
        qcn: { cp: { priorities: [3] } },
      },
    },
    qcn: { enable: true },
    hosts, switches: [{ name: 'sw0' }], links: hosts.map((h) => ({ a: h.name, b: 'sw0' })),
    traffic: { incast: [{ senders: hosts.slice(1).map((h) => h.name), dst: 'h0', priority: 3, frames: 1500 }] },
    series: { ports: [], flows: [] },
  };
}

/**
 * Runs the fixed scenario (quick: 2 ms simulated, else 100 ms, about 1.6 M packet-hops): untimed
 * runs first so V8 tiers the engine up (no on-stack replacement for Wasm: a 20 ms run measured
 * straight after one warm-up still ran partly in baseline code, ~25 % slower), then three timed
 * runs; reports the median.
 */
export function benchFabric(opts: { quick?: boolean } = {}): FabricBench {
  const durationUs = opts.quick ? 2000 : 100000;
  const scn = checkScenario(benchScenario(durationUs));
  const runAll = (sc: typeof scn, fab: ReturnType<typeof buildFabric>) => {
    for (let t = sc.sample_ps; t <= sc.duration_ps; t += sc.sample_ps) fab.runUntil(t);
  };
  const once = () => {
    const fab = buildFabric(scn);
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    runAll(scn, fab);
    const wall = Number(process.hrtime.bigint() - t0) / 1e9;
    const c = process.cpuUsage(c0);
    const cpu = (c.user + c.system) / 1e6;
    const r64 = (field: number) => Number(fab.core.i64[(fab.addr.counters + field) >>> 3]);
    return { wall, cpu, hops: r64(fab.L.SC_HOPS), events: r64(fab.L.SC_EVENTS) };
  };
  const warmup = checkScenario(benchScenario(opts.quick ? 2000 : 20000));
  for (let i = 0; i < (opts.quick ? 1 : 3); i++) runAll(warmup, buildFabric(warmup));
  const runs = [once(), once(), once()].sort((a, b) => a.wall - b.wall);
  const { wall, cpu, hops, events } = runs[1];
  return {
    packet_hops_per_s: Math.round(hops / wall), packet_hops: hops, events,
    events_per_s: Math.round(events / wall), wall_s: Math.round(wall * 1e6) / 1e6,
    cpu_s: Math.round(cpu * 1e6) / 1e6, packet_hops_per_cpu_s: cpu > 0 ? Math.round(hops / cpu) : 0,
    simulated_ps: scn.duration_ps, scenario: scn.name,
  };
}

/** The fat-tree figure: one whole run, as `dcbkit run` does it, on one thread and on every core. */
export interface ClosBench {
  k: number;
  flows: number;
  packet_hops: number;
  events: number;
  /** Threads of the partitioned run (the machine's cores; 1 on one core). */
  threads: number;
  /** Wall time of the whole run on `threads` threads: scenario check, fabric set-up, simulation and sampling. */
  wall_s: number;
  packet_hops_per_s: number;
  /** The same span's process CPU time (every thread), and the rate per CPU second (less sensitive to other load). */
  cpu_s: number;
  packet_hops_per_cpu_s: number;
  /** The same run on one thread, timed in the same process just before. */
  serial_wall_s: number;
  serial_packet_hops_per_s: number;
  serial_cpu_s: number;
  /** serial_wall_s / wall_s. */
  speedup: number;
  scenario: string;
}

/**
 * `gen clos --k 16 --flows 1024 --duration 1ms` (quick: k = 4, 16 flows, 200 us), timed whole from
 * the scenario document to the summary, default sampling (duration / 200, no series asked): what a
 * user's `run` of a fat tree costs, so set-up and sampling count, not only the engine. Run on one
 * thread, then on `threads` (default: the machine's cores) in the same process; the outputs are the
 * same (test/sim-threads.test.ts), so the two wall times compare directly. Only a k = 4 run on both
 * thread counts comes first, so that V8 has compiled the host code both timed runs use.
 */
export function benchClos(opts: { quick?: boolean; threads?: number; k?: number; flows?: number; duration?: string } = {}): ClosBench {
  const [k, flows, duration] = opts.k !== undefined ? [opts.k, opts.flows ?? opts.k ** 2 * 4, opts.duration ?? '1ms'] : opts.quick ? [4, 16, '200us'] : [16, 1024, '1ms'];
  const threads = opts.threads ?? availableParallelism();
  const warm = checkScenario(closScenario({ k: 4, flows: 16, duration: '100us' }));
  runScenario(warm, { threads: 1 });
  runScenario(warm, { threads });
  const timed = (n: number) => {
    const doc = closScenario({ k, flows, duration });
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    const { summary } = runScenario(checkScenario(doc), { threads: n });
    const wall = Number(process.hrtime.bigint() - t0) / 1e9;
    const c = process.cpuUsage(c0);
    return { summary, wall, cpu: (c.user + c.system) / 1e6 };
  };
  const one = timed(1);
  const many = timed(threads);
  const hops = many.summary.sim.packet_hops;
  const r6 = (x: number) => Math.round(x * 1e6) / 1e6;
  return {
    k, flows, packet_hops: hops, events: many.summary.sim.events, threads: many.summary.sim.threads,
    wall_s: r6(many.wall), packet_hops_per_s: Math.round(hops / many.wall),
    cpu_s: r6(many.cpu), packet_hops_per_cpu_s: many.cpu > 0 ? Math.round(hops / many.cpu) : 0,
    serial_wall_s: r6(one.wall), serial_packet_hops_per_s: Math.round(one.summary.sim.packet_hops / one.wall), serial_cpu_s: r6(one.cpu),
    speedup: Math.round((one.wall / many.wall) * 1000) / 1000,
    scenario: `clos-k${k}, ${flows} random flows, ${duration}`,
  };
}
