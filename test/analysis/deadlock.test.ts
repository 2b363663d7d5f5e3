// Lossless deadlock: pinned paths, the cyclic-buffer-dependency analyser and the simulator's
// detection (docs/deadlock.md).
//
// The analyser is checked against fabrics whose answer is known by construction:
//  - paths that only ever go up in one total order of the switches (DAG routing) cannot close a
//    cycle, whatever the graph: reported free;
//  - k-ary fat trees with up-down ECMP routing: free;
//  - a ring of n switches whose flows each take at least two ring hops in one direction: exactly one
//    cycle, the n ring ports of that direction;
//  - a fat tree plus a pair of down-up bounce paths inside one pod per lossless priority: exactly the
//    four ports the two bounces chain together, on that priority.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { checkScenario, loadScenario, type ScenarioInput } from '../../host/scenario/scenario.js';
import { analyzeDeadlock, cyclicDependencyGraphs, dependencyGraphs } from '../../host/analysis/deadlock.js';
import { computeRoutes, nodeOrdinals } from '../../host/sim/routes.js';
import { closScenario } from '../../host/scenario/clos.js';
import { buildFabric, runScenario } from '../../host/sim/run.js';
import { inputErrorOf, runCli } from '../helpers.js';

const DCB = {
  port: { mtu: 9216 },
  ets: { prio_tc: [0, 0, 0, 1, 2, 0, 0, 0], tsa: ['ets', 'ets', 'strict', 'strict', 'strict', 'strict', 'strict', 'strict'], bw: [50, 50, 0, 0, 0, 0, 0, 0] },
  pfc: { enable: [3, 4] },
};
const base = (): Omit<ScenarioInput, 'hosts' | 'links'> => ({
  duration: '100us',
  defaults: { link: { speed: '100G', cable: '10m' }, buffer: { size: '4MB' }, dcb: DCB },
});

/** A ring s0..s(n-1), host hi on si, ring links si - s(i+1) after the host links. */
function ring(n: number, flows: NonNullable<ScenarioInput['traffic']>['flows']): ScenarioInput {
  const sw = Array.from({ length: n }, (_, i) => `s${i}`);
  return {
    ...base(),
    hosts: sw.map((_, i) => ({ name: `h${i}` })),
    switches: sw.map((name) => ({ name })),
    links: [...sw.map((s, i) => ({ a: `h${i}`, b: s })), ...sw.map((s, i) => ({ a: s, b: sw[(i + 1) % n] }))],
    traffic: { flows },
  };
}

/** The same cyclic sequence, whatever element it starts at. */
function sameCycle(actual: string[], expected: string[]): boolean {
  if (actual.length !== expected.length) return false;
  const at = expected.indexOf(actual[0]);
  return at >= 0 && actual.every((p, i) => p === expected[(at + i) % expected.length]);
}

describe('pinned paths', () => {
  it('route a flow the way its path says (the long way round a ring), not the shortest', () => {
    const sentOn = (path: string[] | undefined) => {
      const scn = checkScenario(ring(4, [{ src: 'h0', dst: 'h3', priority: 3, ...(path ? { path } : {}) }]));
      const fab = buildFabric(scn);
      fab.runUntil(scn.duration_ps);
      const tx = (name: string) => {
        const pa = fab.addr.ports + scn.ports.find((p) => p.name === name)!.id * fab.L.SP_SIZE;
        return Number(fab.core.i64[(pa + fab.L.SP_TCQ + fab.L.SQ_SIZE * 1 + fab.L.SQ_TX_BYTES) >>> 3]); // priority 3 is in TC 1
      };
      return ['s0>s3', 's0>s1', 's1>s2', 's2>s3'].map(tx);
    };
    const [direct, ...around] = sentOn(['h0', 's0', 's1', 's2', 's3', 'h3']);
    expect(direct).toBe(0);
    for (const b of around) expect(b).toBeGreaterThan(100_000);
    const [shortest, ...none] = sentOn(undefined);
    expect(shortest).toBeGreaterThan(100_000);
    expect(none).toEqual([0, 0, 0]);
  });

  it.each([
    [['h0', 's0', 'sX', 's3', 'h3'], 'traffic.flows[0].path[2]', 'unknown node "sX"'],
    [['h0', 's0', 's2', 's3', 'h3'], 'traffic.flows[0].path[2]', 'no link joins "s0" and "s2"'],
    [['h1', 's1', 's2', 's3', 'h3'], 'traffic.flows[0].path[0]', 'starts at the flow\'s src "h0"'],
    [['h0', 's0', 's1', 's2', 'h2'], 'traffic.flows[0].path[4]', 'ends at the flow\'s dst "h3"'],
    [['h0', 's0', 's1', 's0', 's3', 'h3'], 'traffic.flows[0].path[3]', 'visits each node once'],
    [['h0', 's0', 'h1', 's1', 's2', 's3', 'h3'], 'traffic.flows[0].path[2]', 'is a host'],
  ])('refuses the bad path %j at %s', (path, where, rule) => {
    const err = inputErrorOf(() => checkScenario(ring(4, [{ src: 'h0', dst: 'h3', priority: 3, path }])));
    const hit = err.problems.find((p) => p.path === where);
    expect(hit?.rule).toContain(rule);
  });
});

describe('analyze deadlock', () => {
  it('finds the ring of the example on its lossless priority (exit 1) and names the flows that close it', () => {
    const r = runCli(['analyze', 'deadlock', 'examples/pfc-deadlock/scenario.yaml', '--json']);
    expect(r.status).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out.deadlock_free).toBe(false);
    expect(out.cycles).toHaveLength(1);
    expect(out.cycles[0]).toMatchObject({ priority: 3, ports: ['s0>s1', 's1>s2', 's2>s3', 's3>s0'], flows: [0, 1, 2, 3] });
    const text = runCli(['analyze', 'deadlock', 'examples/pfc-deadlock/scenario.yaml']);
    expect(text.status).toBe(1);
    expect(text.stdout).toContain('s0>s1 -> s1>s2 -> s2>s3 -> s3>s0 -> s0>s1');
    expect(text.stdout).toMatch(/to break it: move flows? .*to another lossless priority or to a path/);
  });

  it('exits 0 on a fat tree from gen clos and 2 on a bad scenario', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dcbkit-deadlock-'));
    const gen = runCli(['gen', 'clos', '--k', '8', '--flows', '128', '--duration', '1ms', '--pattern', 'permutation']);
    expect(gen.status).toBe(0);
    writeFileSync(join(dir, 'k8.yaml'), gen.stdout);
    const tree = runCli(['analyze', 'deadlock', join(dir, 'k8.yaml')]);
    rmSync(dir, { recursive: true, force: true });
    expect(tree.status).toBe(0);
    expect(tree.stdout).toBe('clos-k8: deadlock-free on lossless priority 3 (no cyclic buffer dependency)\n');
    const ok = runCli(['analyze', 'deadlock', 'examples/sim-tiny/scenario.yaml', '--json']);
    expect(ok.status).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ deadlock_free: true, cycles: [] });
    const bad = runCli(['analyze', 'deadlock', 'examples/configs/roce.yaml']);
    expect(bad.status).toBe(2);
    expect(bad.stdout).toBe('');
  });

  it('reports k-ary fat trees with up-down ECMP routing deadlock-free', () => {
    for (const k of [4, 6]) {
      const scn = checkScenario(closScenario({ k, flows: k ** 3, seed: k, duration: '10us' }));
      const r = analyzeDeadlock(scn);
      expect(r.priorities).toEqual([3]);
      expect(r).toMatchObject({ deadlock_free: true, cycles: [], components: [] });
    }
  });

  it('reports fabrics whose lossless paths go up one total order of the switches deadlock-free (property)', () => {
    fc.assert(fc.property(fc.integer({ min: 3, max: 9 }), fc.integer(), (n, seed) => {
      let x = (seed >>> 0) || 1;
      const rnd = (m: number) => { x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0; return x % m; };
      // A random connected graph: a random spanning tree plus extra edges; a random total order.
      const order = Array.from({ length: n }, (_, i) => i);
      for (let i = n - 1; i > 0; i--) { const j = rnd(i + 1); [order[i], order[j]] = [order[j], order[i]]; }
      const rank = new Map(order.map((s, r) => [s, r]));
      const adj = Array.from({ length: n }, () => new Set<number>());
      for (let i = 1; i < n; i++) { const j = rnd(i); adj[i].add(j); adj[j].add(i); }
      for (let e = 0; e < n; e++) { const a = rnd(n), b = rnd(n); if (a !== b) { adj[a].add(b); adj[b].add(a); } }
      const links = [...Array.from({ length: n }, (_, i) => ({ a: `h${i}`, b: `s${i}` }))];
      for (let a = 0; a < n; a++) for (const b of adj[a]) if (a < b) links.push({ a: `s${a}`, b: `s${b}` });
      // Flows along increasing rank: a random walk that only climbs.
      const flows = [];
      for (let f = 0; f < 3 * n; f++) {
        let at = rnd(n);
        const path = [`h${at}`, `s${at}`];
        for (;;) {
          const up = [...adj[at]].filter((b) => rank.get(b)! > rank.get(at)!).sort((a, b) => a - b);
          if (up.length === 0 || (path.length > 3 && rnd(3) === 0)) break;
          at = up[rnd(up.length)];
          path.push(`s${at}`);
        }
        if (path.length < 3) continue;
        path.push(`h${at}`);
        flows.push({ src: path[0], dst: path[path.length - 1], priority: 3 + rnd(2), path });
      }
      const scn = checkScenario({
        ...base(), hosts: Array.from({ length: n }, (_, i) => ({ name: `h${i}` })),
        switches: Array.from({ length: n }, (_, i) => ({ name: `s${i}` })), links, traffic: { flows },
      });
      const r = analyzeDeadlock(scn);
      expect(r.deadlock_free).toBe(true);
      expect(r.cycles).toEqual([]);
    }), { numRuns: 60, seed: 7 });
  });

  it('finds exactly the ring of a random ring whose flows take two or more hops one way (property)', () => {
    fc.assert(fc.property(fc.integer({ min: 3, max: 8 }), fc.boolean(), fc.array(fc.integer({ min: 0, max: 100 }), { minLength: 8, maxLength: 8 }), fc.constantFrom(3, 4),
      (n, clockwise, lengths, priority) => {
        const step = (i: number, k: number) => ((i + (clockwise ? k : -k)) % n + n) % n;
        const flows: NonNullable<ScenarioInput['traffic']>['flows'] = Array.from({ length: n }, (_, i) => {
          const hops = 2 + (lengths[i] % (n - 2)); // 2 .. n-1 ring hops
          const sw = Array.from({ length: hops + 1 }, (_, k) => `s${step(i, k)}`);
          const dst = `h${step(i, hops)}`;
          return { src: `h${i}`, dst, priority, path: [`h${i}`, ...sw, dst] };
        });
        // Shortest-path traffic on a lossy priority adds edges to no lossless graph.
        flows!.push({ src: 'h0', dst: `h${n - 1}`, priority: 0 });
        const scn = checkScenario(ring(n, flows));
        const r = analyzeDeadlock(scn);
        const expected = Array.from({ length: n }, (_, i) => `s${step(0, i)}>s${step(0, i + 1)}`);
        expect(r.cycles).toHaveLength(1);
        expect(r.cycles[0].priority).toBe(priority);
        expect(sameCycle(r.cycles[0].ports, expected)).toBe(true);
      }), { numRuns: 60, seed: 11 });
  });

  it('finds the four ports a pair of down-up bounce paths chains together in a fat tree, per lossless priority', () => {
    const doc = closScenario({ k: 4, flows: 40, seed: 3, duration: '10us' });
    // Pod 1 (edge1_0, edge1_1, agg1_0, agg1_1): X comes down through agg1_0 to edge1_0 and climbs to
    // agg1_1 to come down at edge1_1; Y does the mirror image. On priority 3 in pod 1, on
    // priority 4 in pod 2.
    const bounce = (pod: number, priority: number) => [
      { src: 'h0_0_0', dst: `h${pod}_1_0`, priority, path: ['h0_0_0', 'edge0_0', 'agg0_0', 'core0', `agg${pod}_0`, `edge${pod}_0`, `agg${pod}_1`, `edge${pod}_1`, `h${pod}_1_0`] },
      { src: 'h3_0_0', dst: `h${pod}_0_0`, priority, path: ['h3_0_0', 'edge3_0', 'agg3_1', 'core2', `agg${pod}_1`, `edge${pod}_1`, `agg${pod}_0`, `edge${pod}_0`, `h${pod}_0_0`] },
    ];
    doc.traffic!.flows = [...(doc.traffic!.flows ?? []), ...bounce(1, 3), ...bounce(2, 4)];
    (doc.defaults as { dcb: unknown }).dcb = DCB;
    const r = analyzeDeadlock(checkScenario(doc));
    expect(r.cycles.map((c) => c.priority)).toEqual([3, 4]);
    for (const [c, pod] of [[r.cycles[0], 1], [r.cycles[1], 2]] as const) {
      expect(sameCycle(c.ports, [`agg${pod}_0>edge${pod}_0`, `edge${pod}_0>agg${pod}_1`, `agg${pod}_1>edge${pod}_1`, `edge${pod}_1>agg${pod}_0`])).toBe(true);
      // The bounces close the cycle; on priority 3 the pod's own up-down flows (edge1_1 -> agg1_0 ->
      // edge1_0 and back) share its up-then-down edges, on priority 4 nothing else does.
      const x = 40 + 2 * (pod - 1);
      expect(c.flows).toEqual(expect.arrayContaining([x, x + 1]));
      if (pod === 2) expect(c.flows).toEqual([x, x + 1]);
      expect(c.edges.find((e) => e.from === `agg${pod}_0>edge${pod}_0`)!.flows).toEqual([x]);
      expect(c.edges.find((e) => e.from === `agg${pod}_1>edge${pod}_1`)!.flows).toEqual([x + 1]);
    }
  });
});

describe('the simulator shows the deadlock', () => {
  it('detects the cycle the analyser reports; the watchdog variant recovers and delivers many times more', () => {
    const scn = loadScenario('examples/pfc-deadlock/scenario.yaml');
    const stuck = runScenario(scn).summary;
    const cycle = analyzeDeadlock(scn).cycles[0];
    expect(stuck.deadlock).not.toBeNull();
    expect(stuck.deadlock!.priority).toBe(cycle.priority);
    expect(sameCycle(stuck.deadlock!.ports, cycle.ports)).toBe(true);
    expect(stuck.deadlock!.detected_at_ps).toBeGreaterThanOrEqual(scn.deadlock_threshold_ps);
    expect(stuck.deadlock!.detected_at_ps).toBeLessThan(scn.duration_ps);
    // Pauses never end: every ring port is paused for nearly all of the run after the lock.
    for (const port of cycle.ports) {
      const p = stuck.pfc.paused_ps_by_port!.find((x) => x.port === port)!;
      expect(p.paused_ps_by_priority[3]).toBeGreaterThan(scn.duration_ps - stuck.deadlock!.detected_at_ps);
    }
    const recovered = runScenario(loadScenario('examples/pfc-deadlock/watchdog.yaml')).summary;
    expect(recovered.deadlock).toBeNull();
    expect(recovered.watchdog.some((e) => e.event === 'storm_detected')).toBe(true);
    const bytes = (s: typeof stuck) => s.flows.reduce((a, f) => a + f.bytes_delivered, 0);
    expect(bytes(recovered)).toBeGreaterThan(5 * bytes(stuck));
    // The analyser's suggestion (flows 0 and 3 to lossless priority 4) removes the cycle: no deadlock,
    // no drop, and each ring link's 100 Gb/s shared by its three flows: one third each of the payload
    // it carries (1500 B frames, 1520 on the wire), +-3 %.
    const fixedScn = loadScenario('examples/pfc-deadlock/fixed.yaml');
    expect(analyzeDeadlock(fixedScn).deadlock_free).toBe(true);
    const fixed = runScenario(fixedScn).summary;
    expect(fixed.deadlock).toBeNull();
    expect(fixed.drops.lossless).toBe(0);
    for (const f of fixed.flows) expect(Math.abs(f.throughput_bps / ((100e9 * 1500) / 1520 / 3) - 1)).toBeLessThan(0.03);
  });

  it('marks the detected deadlock on the time plots and in the report overview', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dcbkit-deadlock-report-'));
    try {
      const r = runCli(['run', 'examples/pfc-deadlock/scenario.yaml', '--out', join(dir, 'out')]);
      expect(r.status).toBe(0);
      for (const plot of ['throughput.svg', 'pause.svg', 'queue.svg']) {
        expect(readFileSync(join(dir, 'out', plot), 'utf8'), plot).toContain('deadlock detected, priority 3');
      }
      expect(readFileSync(join(dir, 'out', 'report.html'), 'utf8')).toContain('priority 3 from 1.06 ms: s0&gt;s1 -&gt; s1&gt;s2 -&gt; s2&gt;s3 -&gt; s3&gt;s0');
      const tiny = runCli(['run', 'examples/sim-tiny/scenario.yaml', '--out', join(dir, 'tiny')]);
      expect(tiny.status).toBe(0);
      expect(readFileSync(join(dir, 'tiny', 'throughput.svg'), 'utf8')).not.toContain('deadlock detected');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reports no deadlock where nothing is cyclic (deadlock: null)', () => {
    const r = runCli(['run', 'examples/sim-tiny/scenario.yaml', '--json']);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).deadlock).toBeNull();
  });
});

describe('the run\'s deadlock monitor gets the cyclic priorities\' graphs only', () => {
  const graphsOf = (scn: ReturnType<typeof checkScenario>) => {
    const { hostOrd, swOrd } = nodeOrdinals(scn);
    const given = { routes: computeRoutes(scn, hostOrd, swOrd), swOrd };
    return { all: dependencyGraphs(scn, given), cyclic: cyclicDependencyGraphs(scn, given) };
  };

  it('on the looped ring of examples/pfc-deadlock: the same graph as the full build', () => {
    const { all, cyclic } = graphsOf(loadScenario('examples/pfc-deadlock/scenario.yaml'));
    expect([...cyclic.keys()]).toEqual([3]);
    expect(cyclic.get(3)).toEqual(all.get(3));
  });

  it('on a fat tree (up-down routes, no cycle): nothing, though the full graph has edges', () => {
    const { all, cyclic } = graphsOf(checkScenario(closScenario({ k: 4, flows: 16, duration: '10us' })));
    expect([...all.values()].some((g) => g.size > 0)).toBe(true);
    expect(cyclic.size).toBe(0);
  });
});
