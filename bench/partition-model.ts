// The partitioned engine's speed-up model (docs/sim.md, "One run on every core"), fed by measured
// figures. Runs `gen clos` K FLOWS DURATION on P threads with the window profile on (windows.ts:
// per window and partition the events handled and the frames taken in; this machine may have
// fewer cores than P: the counts do not depend on the threads' timing), and reads the costs from
// COSTS (a JSON file of measurements on this machine: ns per event and per frame taken in,
// µs per barrier, s of set-up and sampling; see docs/sim.md for how each was taken). Model:
//   parallel engine time = sum over windows of max over partitions (events x event_ns + frames x frame_ns)
//                          + windows x barrier(P),   barrier(P) = barrier_us + (P - 2) x arrival_ns
//   serial engine time   = all events x event_ns
// Usage: node dist/bench/partition-model.js K FLOWS DURATION P COSTS.json   (one JSON line on stdout)
//        node dist/bench/partition-model.js project SERIAL_S ENGINE_1_S SPEEDUP[,SPEEDUP...] [SPREAD_S P[,P...]]
//          (the whole-run speed-up of an earlier model run's engine speed-ups, at a new serial part;
//          SPREAD_S: set-up work each partition's thread does for itself, the main thread its 1/P
//          share, e.g. the port records' page faults; P: the thread count of each speed-up)
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface ModelCosts {
  /** Engine cost of one event on one thread, ns. */
  event_ns: number;
  /** Cost of taking in one frame from a ring (copy, record, heap push), ns. */
  frame_ns: number;
  /** One barrier of two threads arriving together, µs; each further thread adds arrival_ns. */
  barrier_us: number;
  arrival_ns: number;
  /** The run's serial part (scenario check, set-up, sampling, summary), s. */
  serial_s: number;
  /** Set-up work each partition's thread does for itself (its port records' pages), s on one thread; absent: none. */
  spread_s?: number;
}

interface PartitionProfile { part: number; parts: number; windows: number; events: number[]; frames_in: number[] }

/**
 * Whole run on P threads against one: the engine's time on one thread (s) and its speed-up on P,
 * each side plus the serial part (s), which no thread count shortens, and the set-up work the
 * partitions' threads share (spreadS, s: all of it on one thread, its 1/P share on the main thread
 * of P, the others doing theirs meanwhile).
 */
export function wholeRunSpeedup(engine1S: number, engineSpeedup: number, serialS: number, spreadS = 0, parts = 1): number {
  return Number(((engine1S + serialS + spreadS) / (engine1S / engineSpeedup + serialS + spreadS / parts)).toFixed(2));
}

export function model(profiles: PartitionProfile[], c: ModelCosts) {
  const parts = profiles.length;
  const windows = profiles[0].windows;
  let maxSum = 0, total = 0, frames = 0;
  for (let w = 0; w < windows; w++) {
    let max = 0;
    for (const p of profiles) {
      const cost = p.events[w] * c.event_ns + (p.frames_in[w] ?? 0) * c.frame_ns;
      if (cost > max) max = cost;
      total += p.events[w];
      frames += p.frames_in[w] ?? 0;
    }
    maxSum += max;
  }
  const barrierNs = (c.barrier_us * 1000 + Math.max(0, parts - 2) * c.arrival_ns) * windows;
  const serialEngine = total * c.event_ns;
  const parallelEngine = maxSum + barrierNs;
  return {
    parts, windows, events: total, frames_crossing: frames,
    events_per_window: Math.round(total / windows),
    imbalance: Number(((profiles.reduce((m, p) => Math.max(m, p.events.reduce((a, b) => a + b, 0)), 0) * parts) / total).toFixed(3)),
    engine_speedup: Number((serialEngine / parallelEngine).toFixed(2)),
    whole_run_speedup: wholeRunSpeedup(serialEngine / 1e9, serialEngine / parallelEngine, c.serial_s, c.spread_s ?? 0, parts),
    barrier_share: Number((barrierNs / parallelEngine).toFixed(3)),
  };
}

if (process.argv[1]?.endsWith('partition-model.js') && process.argv[2] === 'project') {
  const [serialS, engine1S, speedups, spreadS, partsList] = process.argv.slice(3);
  const spread = Number(spreadS ?? 0);
  const parts = partsList?.split(',').map(Number) ?? [];
  const rows = speedups.split(',').map((x, i) => ({
    parts: parts[i], engine_speedup: Number(x), whole_run_speedup: wholeRunSpeedup(Number(engine1S), Number(x), Number(serialS), spread, parts[i] ?? 1),
  }));
  process.stdout.write(JSON.stringify({ serial_s: Number(serialS), spread_s: spread, engine_1_s: Number(engine1S), rows }) + '\n');
} else if (process.argv[1]?.endsWith('partition-model.js')) {
  const [k, flows, duration, p, costsFile] = process.argv.slice(2);
  const costs = JSON.parse(readFileSync(costsFile, 'utf8')) as ModelCosts;
  const dir = mkdtempSync(join(tmpdir(), 'dcbkit-windows-'));
  try {
    const cli = fileURLToPath(new URL('../host/cli/main.js', import.meta.url));
    const gen = spawnSync(process.execPath, [cli, 'gen', 'clos', '-k', k, '--flows', flows, '--duration', duration], { encoding: 'utf8', maxBuffer: 1 << 30 });
    if (gen.status !== 0) throw new Error(gen.stderr);
    const scn = join(dir, 'clos.yaml');
    writeFileSync(scn, gen.stdout);
    const run = spawnSync(process.execPath, [cli, 'run', scn, '--json', '--threads', p], { encoding: 'utf8', env: { ...process.env, DCBKIT_PROFILE_WINDOWS: join(dir, 'prof') }, maxBuffer: 1 << 30 });
    if (run.status !== 0) throw new Error(run.stderr);
    const profiles = readdirSync(join(dir, 'prof')).map((f) => JSON.parse(readFileSync(join(dir, 'prof', f), 'utf8')) as PartitionProfile).sort((a, b) => a.part - b.part);
    process.stdout.write(JSON.stringify({ k: Number(k), flows: Number(flows), duration, ...model(profiles, costs) }) + '\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
