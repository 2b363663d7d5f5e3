// The engine's forwarding tables (host/sim/routes.ts computeRoutes) against a plain reference: for
// every (switch, destination host) the set of the switch's ports whose far end is one hop closer to
// the host (hop counts by a breadth-first search that never crosses another host), in the switch's
// port order; for a pinned flow's column, the link(s) to the path's next node on the path's
// switches and the destination's set elsewhere. The reference searches every host afresh, so a
// column the table copies from another host of the same switch, a switch's reused set, or a copy
// written in the wrong order shows as a different set. Each set is stored once.
import { describe, expect, it } from 'vitest';
import { checkScenario, loadScenario, type Scenario, type ScenarioInput } from '../host/scenario/scenario.js';
import { closScenario } from '../host/scenario/clos.js';
import { computeRoutes, nodeOrdinals } from '../host/sim/routes.js';
import { buildFabric } from '../host/sim/fabric.js';

function hopsFrom(scn: Scenario, host: number): number[] {
  const dist = scn.nodes.map(() => -1);
  dist[host] = 0;
  const queue = [host];
  for (let i = 0; i < queue.length; i++) {
    const n = queue[i];
    if (n !== host && scn.nodes[n].isHost) continue;
    for (const p of scn.nodes[n].ports) {
      const m = scn.ports[p].peerNode;
      if (dist[m] < 0) { dist[m] = dist[n] + 1; queue.push(m); }
    }
  }
  return dist;
}

function expectReferenceTables(scn: Scenario): void {
  const { hostOrd, swOrd } = nodeOrdinals(scn);
  const routes = computeRoutes(scn, hostOrd, swOrd);
  const setAt = (off: number) => Array.from(routes.nhWords.subarray(off + 1, off + 1 + routes.nhWords[off]));
  const entry = (so: number, col: number) => setAt(routes.route[so * routes.columns + col]);
  const hostSets = new Map<string, number[]>();
  for (const [host, ho] of hostOrd) {
    const dist = hopsFrom(scn, host);
    for (const [sw, so] of swOrd) {
      const d = dist[sw];
      const want = d > 0 ? scn.nodes[sw].ports.filter((p) => dist[scn.ports[p].peerNode] === d - 1) : [];
      hostSets.set(`${so}:${ho}`, want);
      expect(entry(so, ho), `switch ${scn.nodes[sw].name} toward ${scn.nodes[host].name}`).toEqual(want);
    }
  }
  const pinned = scn.flows.filter((f) => f.path !== undefined);
  pinned.forEach((f, j) => {
    const col = hostOrd.size + j;
    expect(routes.flowColumn[f.id]).toBe(col);
    for (const [sw, so] of swOrd) {
      const at = f.path!.indexOf(sw);
      const want = at > 0 && at + 1 < f.path!.length
        ? scn.nodes[sw].ports.filter((p) => scn.ports[p].peerNode === f.path![at + 1])
        : hostSets.get(`${so}:${hostOrd.get(f.dst)}`);
      expect(entry(so, col), `switch ${scn.nodes[sw].name}, pinned flow ${f.id}`).toEqual(want);
    }
  });
  for (const f of scn.flows) if (f.path === undefined) expect(routes.flowColumn[f.id]).toBe(hostOrd.get(f.dst));
  // Every set once: no two offsets in use hold the same ports.
  const offsets = [...new Set(routes.route)];
  expect(new Set(offsets.map((o) => setAt(o).join(','))).size).toBe(offsets.length);
}

describe('forwarding tables (computeRoutes)', () => {
  it('equal a fresh shortest-path search per host on fat trees, k = 4 and 8', () => {
    expectReferenceTables(checkScenario(closScenario({ k: 4, flows: 16, duration: '10us' })));
    expectReferenceTables(checkScenario(closScenario({ k: 8, flows: 128, duration: '10us', pattern: 'random' })));
  });

  it('equal it on rings with pinned paths and hosts sharing a switch', () => {
    expectReferenceTables(loadScenario('examples/pfc-deadlock/scenario.yaml'));
    const sw = ['s0', 's1', 's2'];
    // h1 and h2 share s1 (h2's column is h1's copied, but for s1's own entry).
    const doc: ScenarioInput = {
      duration: '10us',
      defaults: { link: { speed: '100G', cable: '10m' }, buffer: { size: '4MB' } },
      hosts: [{ name: 'h0' }, { name: 'h1' }, { name: 'h2' }],
      switches: sw.map((name) => ({ name })),
      links: [{ a: 'h0', b: 's0' }, { a: 'h1', b: 's1' }, { a: 'h2', b: 's1' }, ...sw.map((s, i) => ({ a: s, b: sw[(i + 1) % 3] }))],
      traffic: { flows: [{ src: 'h0', dst: 'h2', priority: 3 }, { src: 'h2', dst: 'h0', priority: 3, path: ['h2', 's1', 's2', 's0', 'h0'] }] },
    };
    expectReferenceTables(checkScenario(doc));
  });

  it('are laid out in the arena (where the engine reads them, 1 and 2 threads) equal to the fresh array', () => {
    const ring = loadScenario('examples/pfc-deadlock/scenario.yaml');
    const tree = checkScenario(closScenario({ k: 8, flows: 64, duration: '10us' }));
    for (const [scn, threads] of [[ring, 1], [tree, 1], [tree, 2]] as const) {
      const { hostOrd, swOrd } = nodeOrdinals(scn);
      const want = computeRoutes(scn, hostOrd, swOrd);
      const fab = buildFabric(scn, 'release', threads);
      try {
        const at = fab.r32(fab.base + fab.L.SH_ROUTE);
        const inArena = fab.core.i32.subarray(at >>> 2, (at >>> 2) + want.route.length);
        expect(Array.from(inArena), `${scn.name} on ${threads}`).toEqual(Array.from(want.route));
        expect(Array.from(fab.routes.route)).toEqual(Array.from(want.route));
        expect(fab.routes.columns).toBe(want.columns);
      } finally {
        fab.close();
      }
    }
  });
});
