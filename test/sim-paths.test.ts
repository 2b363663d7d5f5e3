// The engine's per-flow path table (assembly/sim/mmu.ts tracePaths, docs/sim.md "What limits the
// speed"): simInit writes, for every flow, the egress port its frames take at each switch, and a
// switch forwards a data frame with one load from that row. Each row must be a walk the routes
// allow: it starts at the switch beside the source host, every port is one of the ECMP choices of
// its switch toward the flow's destination (or the pinned path's next link), each port's far end
// is the switch of the next entry, and the last one reaches the destination host.
import { describe, expect, it } from 'vitest';
import { checkScenario, type ScenarioInput } from '../host/scenario/scenario.js';
import { closScenario } from '../host/scenario/clos.js';
import { buildFabric } from '../host/sim/run.js';

function pathRows(doc: ScenarioInput) {
  const scn = checkScenario(doc);
  const fab = buildFabric(scn);
  const { core, L, base, routes, swOrd } = fab;
  const table = core.i32[(base + L.SH_PATHS) >>> 2];
  const len = core.i32[(base + L.SH_PATH_LEN) >>> 2];
  const rows = scn.flows.map((f) => Array.from(core.i32.subarray((table >>> 2) + f.id * len, (table >>> 2) + (f.id + 1) * len)));
  return { scn, routes, swOrd, len, rows };
}

function expectRoutedWalks(doc: ScenarioInput): ReturnType<typeof pathRows> {
  const t = pathRows(doc);
  const { scn, routes, swOrd, len, rows } = t;
  for (const f of scn.flows) {
    const row = rows[f.id];
    let node = scn.ports[scn.nodes[f.src].ports[0]].peerNode;
    let hop = 0;
    while (!scn.nodes[node].isHost) {
      expect(hop).toBeLessThan(len);
      const port = row[hop];
      expect(scn.ports[port].node).toBe(node);
      const off = routes.route[swOrd.get(node)! * routes.columns + routes.flowColumn[f.id]];
      const choices = Array.from(routes.nhWords.subarray(off + 1, off + 1 + routes.nhWords[off]));
      expect(choices).toContain(port);
      node = scn.ports[port].peerNode;
      hop++;
    }
    expect(node).toBe(f.dst);
  }
  return t;
}

describe('per-flow path table', () => {
  it('holds a routed walk from source to destination for every flow of a k = 4 fat tree, spread over the ECMP choices', () => {
    const { scn, rows, len } = expectRoutedWalks(closScenario({ k: 4, flows: 64, duration: '10us', seed: 3 }));
    // Host to host across pods is edge, agg, core, agg, edge: five switches, the longest path.
    expect(len).toBe(5);
    // The hash spreads flows over the uplinks: the 64 flows leave their 8 edge switches by more
    // than 8 distinct uplinks (one per edge would mean every flow of an edge took the same agg).
    const uplinks = new Set(rows.map((r) => scn.ports[r[0]].name).filter((n) => /^edge\d+_\d+>agg/.test(n)));
    expect(uplinks.size).toBeGreaterThan(8);
  });

  it('follows a pinned path the long way round a ring', () => {
    const sw = ['s0', 's1', 's2', 's3'];
    const doc: ScenarioInput = {
      duration: '10us',
      defaults: { link: { speed: '100G', cable: '10m' }, buffer: { size: '4MB' } },
      hosts: sw.map((_, i) => ({ name: `h${i}` })),
      switches: sw.map((name) => ({ name })),
      links: [...sw.map((s, i) => ({ a: `h${i}`, b: s })), ...sw.map((s, i) => ({ a: s, b: sw[(i + 1) % 4] }))],
      traffic: { flows: [{ src: 'h0', dst: 'h3', priority: 3, path: ['h0', 's0', 's1', 's2', 's3', 'h3'] }, { src: 'h0', dst: 'h3', priority: 3 }] },
    };
    const { scn, rows, len } = expectRoutedWalks(doc);
    const names = (f: number, n: number) => rows[f].slice(0, n).map((p) => scn.ports[p].name);
    expect(len).toBe(4);
    expect(names(0, 4)).toEqual(['s0>s1', 's1>s2', 's2>s3', 's3>h3']);
    expect(names(1, 2)).toEqual(['s0>s3', 's3>h3']);
  });
});
