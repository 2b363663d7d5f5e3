// The partitioned engine (docs/sim.md "One run on every core"): a run on N threads gives every
// output of the run on one, whatever N: the summary (but for how it ran: wall time, threads) and
// every series, for every example, for gen clos trees k = 4 and 8 (random, permutation, incast) and,
// as a property, for 200 random small fabrics of 2-6 switches that exercise every mechanism the
// engine models (PFC, PAUSE, credit, QCN and DCQCN, RoCE, storms, the watchdog, drops), with the
// default fabric timing (port clocks drawn per port, switch latency), with forwarding jitter and ideal. 8 threads
// on this 2-core machine are fine: the order of events never depends on the threads' timing.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deterministicSummary } from '../host/report/report.js';
import { closScenario } from '../host/scenario/clos.js';
import { checkScenario, loadScenario, type Scenario, type ScenarioInput } from '../host/scenario/scenario.js';
import { AUTO_THREADS_WORK, autoThreads, partitionFabric } from '../host/sim/partition.js';
import type { SimResult } from '../host/sim/result.js';
import { runScenario } from '../host/sim/run.js';
import { packageRoot } from '../host/core/loader.js';
import { model } from '../bench/partition-model.js';
import { dcbEts403020, runCli } from './helpers.js';

const THREADS = [2, 3, 4, 8];

/** What must not depend on the threads: the summary without wall time and threads, and every series. */
function outputs(r: SimResult): string {
  return JSON.stringify({ summary: deterministicSummary(r.summary), series: r.series });
}

/** Runs `scn` on 1 thread and on each of THREADS; returns the threads each run used. */
function expectSameOnEveryThreadCount(scn: Scenario): number[] {
  const serial = runScenario(scn, { threads: 1 });
  expect(serial.summary.sim.threads).toBe(1);
  const want = outputs(serial);
  return THREADS.map((n) => {
    const r = runScenario(scn, { threads: n });
    expect(outputs(r), `${scn.name} on ${n} threads`).toBe(want);
    return r.summary.sim.threads;
  });
}

const root = packageRoot();
const examples = readdirSync(join(root, 'examples'), { withFileTypes: true })
  .filter((d) => d.isDirectory() && readdirSync(join(root, 'examples', d.name)).includes('scenario.yaml'))
  .map((d) => d.name);

describe('partitioned runs give the serial run\'s outputs', () => {
  it('every example, on 1, 2, 3, 4 and 8 threads (those with one switch run on one)', () => {
    const used = new Map<string, number[]>();
    for (const name of examples) used.set(name, expectSameOnEveryThreadCount(loadScenario(join(root, 'examples', name, 'scenario.yaml'))));
    // Two examples have more than one switch and so really run partitioned.
    expect(used.get('congestion-tree')).toEqual([2, 2, 2, 2]);
    expect(used.get('pfc-deadlock')).toEqual([2, 3, 4, 4]);
    expect(used.get('sim-tiny')).toEqual([1, 1, 1, 1]);
  });

  it('every output file of `run --out` (run.json aside) on 1 and 4 threads: the partitioned examples and a k = 4 fat tree', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dcbkit-threads-'));
    try {
      const clos = join(dir, 'clos.json');
      const gen = runCli(['gen', 'clos', '-k', '4', '--flows', '12', '--duration', '100us', '--pattern', 'permutation']);
      expect(gen.status).toBe(0);
      writeFileSync(clos, gen.stdout);
      for (const file of [join(root, 'examples', 'congestion-tree', 'scenario.yaml'), join(root, 'examples', 'pfc-deadlock', 'scenario.yaml'), clos]) {
        const outs = [1, 4].map((n) => {
          const out = join(dir, `out-${n}`);
          const r = runCli(['run', file, '--out', out, '--threads', String(n)]);
          expect(r.status, r.stderr).toBe(0);
          return out;
        });
        const files = readdirSync(outs[0], { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => join(d.parentPath, d.name).slice(outs[0].length + 1)).sort();
        expect(files.length).toBeGreaterThan(5);
        for (const f of files) {
          if (f === 'run.json') continue;
          expect(readFileSync(join(outs[1], f)).equals(readFileSync(join(outs[0], f))), `${file}: ${f}`).toBe(true);
        }
        // congestion-tree has two switches: two threads at most.
        expect(JSON.parse(readFileSync(join(outs[1], 'run.json'), 'utf8')).threads).toBeGreaterThan(1);
        for (const o of outs) rmSync(o, { recursive: true, force: true });
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gen clos k = 4 and k = 8, random, permutation and incast traffic, on 1, 2, 3, 4 and 8 threads', () => {
    for (const k of [4, 8]) {
      for (const pattern of ['random', 'permutation', 'incast'] as const) {
        const flows = pattern === 'incast' ? k * k / 4 - 1 : k * k;
        const used = expectSameOnEveryThreadCount(checkScenario(closScenario({ k, flows, duration: k === 4 ? '200us' : '100us', pattern })));
        expect(used).toEqual(THREADS);
      }
    }
  });

  it('gen clos k = 4 with forwarding jitter on 1, 2, 3, 4 and 8 threads: each switch port\'s stream is drawn by the one port that sends to it', () => {
    const jittered = { ...closScenario({ k: 4, flows: 16, duration: '200us', pattern: 'random' }), timing: { switch_latency_jitter: '200ns' } };
    expect(expectSameOnEveryThreadCount(checkScenario(jittered))).toEqual(THREADS);
  });
});

// ---------------------------------------------------------------------------------------------
// 200 random small fabrics
// ---------------------------------------------------------------------------------------------

interface FlowSpec { src: number; dst: number; priority: number; size: number; frames: number; start: number; roce: boolean; rate?: string }
interface FabricSpec {
  nSw: number; extraLinks: [number, number][]; hostSw: number[]; cables: string[]; speeds: string[];
  flows: FlowSpec[]; mechanism: 'pfc' | 'pause' | 'credit' | 'qcn' | 'dcqcn' | 'lossy'; storm: boolean; watchdog: boolean;
  buffer: number; seed: number;
  /** Fabric timing: the defaults (clock offsets, switch latency), with a forwarding jitter, or ideal. */
  timing: 'real' | 'ideal' | 'jitter';
}

const flowSpec = fc.record({
  src: fc.nat(), dst: fc.nat(), priority: fc.constantFrom(0, 3, 3), size: fc.constantFrom(4_500, 30_000, 120_000, 0),
  frames: fc.constantFrom(1500, 1000, 64), start: fc.constantFrom(0, 0, 3_000_000), roce: fc.boolean(),
  rate: fc.constantFrom(undefined, undefined, '40G'),
}, { requiredKeys: ['src', 'dst', 'priority', 'size', 'frames', 'start', 'roce'] });

const fabricSpec: fc.Arbitrary<FabricSpec> = fc.record({
  nSw: fc.integer({ min: 2, max: 6 }),
  // Links beyond the chain s0-s1-...: parallel paths (ECMP) and cycles.
  extraLinks: fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 4 }),
  hostSw: fc.array(fc.nat(), { minLength: 3, maxLength: 8 }),
  // 1 m is shorter than a 64 B frame at 100G: such a link is never cut.
  cables: fc.array(fc.constantFrom('1m', '10m', '10m', '30m', '100m'), { minLength: 16, maxLength: 16 }),
  speeds: fc.array(fc.constantFrom('25G', '100G', '100G'), { minLength: 16, maxLength: 16 }),
  flows: fc.array(flowSpec, { minLength: 2, maxLength: 8 }),
  mechanism: fc.constantFrom('pfc', 'pfc', 'pause', 'credit', 'qcn', 'dcqcn', 'lossy'),
  storm: fc.boolean(), watchdog: fc.boolean(),
  buffer: fc.constantFrom(30_000, 1_000_000),
  seed: fc.integer({ min: 1, max: 1 << 30 }),
  timing: fc.constantFrom('real', 'real', 'jitter', 'ideal'),
});

const DCB = dcbEts403020(1500);

function randomFabric(spec: FabricSpec): ScenarioInput {
  const switches = Array.from({ length: spec.nSw }, (_, i) => `s${i}`);
  const hosts = spec.hostSw.map((_, i) => `h${i}`);
  const links: { a: string; b: string; cable: string; speed: string }[] = [];
  let c = 0;
  const link = (a: string, b: string) => { links.push({ a, b, cable: spec.cables[c % 16], speed: spec.speeds[c % 16] }); c++; };
  for (let i = 1; i < spec.nSw; i++) link(`s${i - 1}`, `s${i}`);
  for (const [x, y] of spec.extraLinks) if (x % spec.nSw !== y % spec.nSw) link(`s${x % spec.nSw}`, `s${y % spec.nSw}`);
  spec.hostSw.forEach((s, i) => link(hosts[i], `s${s % spec.nSw}`));
  const flows = spec.flows.map((f) => {
    const src = f.src % hosts.length;
    let dst = f.dst % hosts.length;
    if (dst === src) dst = (src + 1) % hosts.length;
    const roce = f.roce && spec.mechanism !== 'credit';
    return {
      src: hosts[src], dst: hosts[dst], priority: f.priority, frames: f.frames, start: f.start === 0 ? 0 : `${f.start / 1e6}us`, ...(f.size > 0 ? { size: `${f.size}B` } : {}),
      ...(roce ? { transport: 'roce' as const } : {}), ...(f.rate ? { rate: f.rate } : {}),
    };
  });
  const m = spec.mechanism;
  const lossless = m === 'lossy' ? [] : [3];
  const dcb = {
    ...DCB,
    pfc: { enable: m === 'pfc' || m === 'qcn' || m === 'dcqcn' ? lossless : [], pause_time: 65535 },
    ...(m === 'credit' ? { credit: { priorities: [3], unit: 64 } } : {}),
    ...(m === 'qcn' ? { qcn: { cp: { priorities: [3] } } } : {}),
    ...(m === 'dcqcn' ? { qcn: { cp: { priorities: [3], kmin: 5000, kmax: 100000, pmax: 10 }, rp: { profile: 'dcqcn' } } } : {}),
  };
  // The buffer holds every port's headroom (auto: up to about 67 KB for 100 m of cable; none when all
  // is lossy, so that drops and go-back-N resends occur) and spec.buffer more.
  const ports = Math.max(...switches.map((sw) => links.filter((l) => l.a === sw || l.b === sw).length));
  return {
    name: 'threads', seed: spec.seed, duration: '60us', sample: '5us',
    ...(spec.timing === 'ideal' ? { timing: 'ideal' } : spec.timing === 'jitter' ? { timing: { switch_latency_jitter: '200ns' } } : {}),
    ...(m === 'pause' ? { flow_control: ['lossy', 'lossy', 'lossy', 'pause', 'lossy', 'lossy', 'lossy', 'lossy'] } : {}),
    ...(m === 'credit' ? { flow_control: ['lossy', 'lossy', 'lossy', 'credit', 'lossy', 'lossy', 'lossy', 'lossy'] } : {}),
    ...(m === 'qcn' || m === 'dcqcn' ? { qcn: { enable: true } } : {}),
    ...(spec.watchdog && m === 'pfc' ? { watchdog: { detection_time: '10us', restoration_time: '10us', poll_interval: '5us', action: 'drop' } } : {}),
    defaults: { link: { speed: '100G', cable: '10m' }, buffer: { size: `${(m === 'lossy' ? 0 : ports * 150_000) + spec.buffer}B`, headroom: 'auto' }, dcb },
    hosts: hosts.map((name) => ({ name })), switches: switches.map((name) => ({ name })), links,
    series: { ports: [links[0].a + '>' + links[0].b], flows: [] },
    traffic: {
      flows,
      ...(spec.storm && m === 'pfc' ? { pfc_storm: [{ host: hosts[0], priority: 3, start: '10us', stop: '40us' }] } : {}),
    },
  } as ScenarioInput;
}

describe('property: 200 random fabrics of 2-6 switches', () => {
  it('on 2, 3, 4 and 8 threads give the serial run\'s summary and series, whatever the mechanism', () => {
    const seen = { partitioned: 0, pfc: 0, drops: 0, watchdog: 0, cnms: 0, credit: 0, retransmits: 0 };
    fc.assert(fc.property(fabricSpec, (spec) => {
      const scn = checkScenario(randomFabric(spec));
      const used = expectSameOnEveryThreadCount(scn);
      if (used[0] > 1) seen.partitioned++;
      // The partitioner never cuts a host's link nor one shorter than a smallest frame.
      const plan = partitionFabric(scn, 8);
      for (const p of scn.ports) {
        const peer = scn.ports[p.peer];
        const cut = plan.owner[p.id] !== plan.owner[peer.id];
        if (cut) expect(scn.nodes[p.node].isHost || scn.nodes[peer.node].isHost).toBe(false);
        if (cut) expect(p.delay_ps).toBeGreaterThanOrEqual(84 * p.psPerByte);
      }
      const s = runScenario(scn, { threads: 1 }).summary;
      if (s.pfc.xoff_frames > 0) seen.pfc++;
      if (s.drops.lossy + s.drops.lossless > 0) seen.drops++;
      if (s.watchdog.length > 0) seen.watchdog++;
      if (s.qcn.cnms > 0) seen.cnms++;
      if ((s as { credit?: { grants: number } }).credit?.grants) seen.credit++;
      if (s.flows.some((f) => (f.retransmitted_bytes ?? 0) > 0)) seen.retransmits++;
    }), { numRuns: 200, seed: 0x7a11, endOnFailure: true });
    // No shrinking: each case is five runs, and a shrink once took 13 min. A fixed seed, as in the other
    // property tests, because the categories below must occur: a random seed once drew 200 cases without
    // a go-back-N resend (this seed: 177 partitioned, 53 PFC, 26 drops, 9 watchdog, 30 CNM, 21 credit, 8 resend).
    // The cases reach what partitioning could break: frames, PFC, drops, CNMs, grants, watchdog.
    for (const [what, n] of Object.entries(seen)) expect(n, what).toBeGreaterThan(0);
  }, 600_000);
});

describe('--threads', () => {
  it('a bad count is refused with exit 2 naming the flag (run and sweep); fewer threads than asked draw a note saying why', () => {
    for (const bad of ['0', '1.5', '256', 'two']) {
      const r = runCli(['run', 'examples/sim-tiny/scenario.yaml', '--threads', bad]);
      expect(r.status, bad).toBe(2);
      expect(r.stderr).toMatch(bad === 'two' ? /^--threads: must be a number, got "two"/ : /^--threads: a whole number of threads from 1 to 255/);
    }
    const s = runCli(['sweep', 'examples/sim-tiny/scenario.yaml', '--param', 'seed=1,2', '--threads', '0']);
    expect(s.status).toBe(2);
    expect(s.stderr).toMatch(/^--threads: a whole number of threads from 1 to 255/);
    const one = runCli(['run', 'examples/sim-tiny/scenario.yaml', '--threads', '4']);
    expect(one.status).toBe(0);
    expect(one.stderr).toBe('note: running on 1 thread: one switch: nothing to split\n');
    expect(one.stdout).toMatch(/ on 1 thread \(/);
  });

  it('by default: the idle cores for a run of at least 5e11 port-ps, else 1', () => {
    const small = loadScenario(join(root, 'examples', 'sim-tiny', 'scenario.yaml'));
    expect(autoThreads(small, 8, 0)).toBe(1);
    const big = checkScenario(closScenario({ k: 16, flows: 16, duration: '1ms' }));
    expect(big.ports.length * big.duration_ps).toBeGreaterThanOrEqual(AUTO_THREADS_WORK);
    expect(autoThreads(big, 8, 0)).toBe(8);
    expect(autoThreads(big, 8, 2.4)).toBe(6);
    expect(autoThreads(big, 2, 3.7)).toBe(1);
  });
});

describe('the speed-up model and the window profile (bench/partition-model.ts, docs/sim.md)', () => {
  it('charges each window its busiest partition and one barrier, and the profile counts every event of the run', () => {
    const costs = { event_ns: 100, frame_ns: 10, barrier_us: 1, arrival_ns: 0, serial_s: 0 };
    // Two windows: (3, 1) events then (2, 2); one frame taken in by partition 1 in window 0.
    const m = model([
      { part: 0, parts: 2, windows: 2, events: [3, 2], frames_in: [0, 0] },
      { part: 1, parts: 2, windows: 2, events: [1, 2], frames_in: [1, 0] },
    ], costs);
    // serial 8 x 100 ns; parallel max(300, 110) + max(200, 200) + 2 x 1000 ns.
    expect(m.engine_speedup).toBe(Number((800 / (300 + 200 + 2000)).toFixed(2)));
    expect(m).toMatchObject({ parts: 2, windows: 2, events: 8, frames_crossing: 1, imbalance: 1.25 });
    const dir = mkdtempSync(join(tmpdir(), 'dcbkit-profile-'));
    try {
      const r = runCli(['run', join(root, 'examples', 'congestion-tree', 'scenario.yaml'), '--json', '--threads', '2'], { env: { DCBKIT_PROFILE_WINDOWS: dir } });
      expect(r.status, r.stderr).toBe(0);
      const events = JSON.parse(r.stdout).sim.events as number;
      const profiles = readdirSync(dir).map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as { events: number[]; windows: number });
      expect(profiles).toHaveLength(2);
      expect(profiles[0].windows).toBe(profiles[1].windows);
      expect(profiles.reduce((a, p) => a + p.events.reduce((x, y) => x + y, 0), 0)).toBe(events);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
