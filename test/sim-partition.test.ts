// The partitioner (host/sim/partition.ts partitionFabric) against a plain reference of the same
// rules: units by union-find over host links and links shorter than a smallest frame, then greedy
// graph growing over maps of each unit's links, the highest gain first, the lowest unit on a tie.
// The partitioner holds the same steps in flat typed arrays; every owner table, window and note
// must be the same, on fat trees, the examples and random fabrics with short links and several
// hosts per switch.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readdirSync } from 'node:fs';
import { checkScenario, loadScenario, type Scenario, type ScenarioInput } from '../host/scenario/scenario.js';
import { closScenario } from '../host/scenario/clos.js';
import { partitionFabric, smallestFrameTime, type Partitioning } from '../host/sim/partition.js';

function referencePartition(scn: Scenario, asked: number): Partitioning {
  const nPorts = scn.ports.length;
  const serial = (note?: string): Partitioning => ({ parts: 1, owner: new Uint8Array(nPorts), lookaheadPs: 0, note });
  if (asked <= 1) return serial();
  const parent = scn.nodes.map((n) => n.id);
  const find = (x: number): number => (parent[x] === x ? x : (parent[x] = find(parent[x])));
  for (const p of scn.ports) {
    if (scn.nodes[p.node].isHost || scn.nodes[p.peerNode].isHost || p.delay_ps < smallestFrameTime(scn, p.id)) {
      const ra = find(p.node), rb = find(p.peerNode);
      if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
    }
  }
  const roots = [...new Set(scn.nodes.map((n) => find(n.id)))].sort((a, b) => a - b);
  if (scn.nodes.filter((n) => !n.isHost).length < 2) return serial('one switch: nothing to split');
  if (roots.length < 2) return serial('every link between switches is shorter than a frame: no window would hold work');
  const parts = Math.min(asked, roots.length, 255);
  const unit = (node: number) => roots.indexOf(find(node));
  const weight = roots.map(() => 0);
  const links = roots.map(() => new Map<number, number>());
  for (const p of scn.ports) {
    const a = unit(p.node), b = unit(p.peerNode);
    weight[a]++;
    if (a !== b) links[a].set(b, (links[a].get(b) ?? 0) + 1);
  }
  const degree = links.map((m) => [...m.values()].reduce((x, y) => x + y, 0));
  const total = weight.reduce((x, y) => x + y, 0);
  const partOf = roots.map(() => -1);
  let assigned = 0;
  for (let w = 0; w < parts - 1; w++) {
    const share = (total - assigned) / (parts - w);
    const into = new Map<number, number>();
    let grown = 0;
    while (grown < share) {
      const ranked = [...into].sort(([u, n], [v, m]) => (2 * m - degree[v]) - (2 * n - degree[u]) || u - v);
      const best = ranked.length > 0 ? ranked[0][0] : partOf.indexOf(-1);
      if (best < 0) break;
      partOf[best] = w;
      into.delete(best);
      grown += weight[best];
      for (const [v, n] of links[best]) if (partOf[v] < 0) into.set(v, (into.get(v) ?? 0) + n);
      if (partOf.filter((x) => x < 0).length <= parts - 1 - w) break;
    }
    assigned += grown;
  }
  const owner = new Uint8Array(nPorts);
  let lookaheadPs = Infinity;
  for (const p of scn.ports) {
    const mine = partOf[unit(p.node)], theirs = partOf[unit(p.peerNode)];
    owner[p.id] = mine < 0 ? parts - 1 : mine;
    if ((theirs < 0 ? parts - 1 : theirs) !== owner[p.id]) lookaheadPs = Math.min(lookaheadPs, p.delay_ps + smallestFrameTime(scn, p.id));
  }
  return { parts, owner, lookaheadPs, note: parts < asked ? `${parts} partitions (the fabric has ${roots.length} units that can be split)` : undefined };
}

function expectReference(scn: Scenario, asked: number): Partitioning {
  const got = partitionFabric(scn, asked);
  const want = referencePartition(scn, asked);
  expect({ ...got, owner: Array.from(got.owner) }, `${scn.name} in ${asked}`).toEqual({ ...want, owner: Array.from(want.owner) });
  return got;
}

describe('partitionFabric', () => {
  it('equals the reference on fat trees (k = 4, 8, 16) in 2, 3, 4, 8 and 255 parts, halves within a unit in 2', () => {
    for (const [k, pattern] of [[4, 'permutation'], [8, 'random'], [16, 'permutation']] as const) {
      const scn = checkScenario(closScenario({ k, flows: k * k, duration: '10us', pattern }));
      for (const asked of [2, 3, 4, 8, 255]) expectReference(scn, asked);
      // Two parts of a fat tree: each holds its share of the ports, within one unit (an edge
      // switch and its hosts: k + k / 2 ports).
      const second = partitionFabric(scn, 2).owner.reduce((n, o) => n + o, 0);
      expect(Math.abs(second - scn.ports.length / 2)).toBeLessThanOrEqual(k + k / 2);
    }
  });

  it('equals the reference on every example scenario', () => {
    const dirs = readdirSync('examples', { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
    let seen = 0;
    for (const d of dirs) {
      for (const f of readdirSync(`examples/${d}`).filter((x) => x.endsWith('.yaml'))) {
        let scn: Scenario;
        try { scn = loadScenario(`examples/${d}/${f}`); } catch { continue; } // a device config, not a scenario
        for (const asked of [1, 2, 3, 8]) expectReference(scn, asked);
        seen++;
      }
    }
    expect(seen).toBeGreaterThanOrEqual(12);
  });

  it('equals the reference on 150 random fabrics with short links and shared switches', () => {
    const spec = fc.record({
      nSw: fc.integer({ min: 1, max: 12 }),
      extra: fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 14 }),
      hostSw: fc.array(fc.nat(), { minLength: 2, maxLength: 14 }),
      cables: fc.array(fc.constantFrom('1m', '10m', '30m', '100m'), { minLength: 32, maxLength: 32 }),
      asked: fc.integer({ min: 2, max: 9 }),
    });
    const split = { serial: 0, partitioned: 0 };
    fc.assert(fc.property(spec, (s) => {
      const sw = Array.from({ length: s.nSw }, (_, i) => `s${i}`);
      const links: { a: string; b: string; cable: string }[] = [];
      const link = (a: string, b: string) => links.push({ a, b, cable: s.cables[links.length % 32] });
      for (let i = 1; i < s.nSw; i++) link(sw[i - 1], sw[i]);
      for (const [x, y] of s.extra) if (x % s.nSw !== y % s.nSw) link(sw[x % s.nSw], sw[y % s.nSw]);
      s.hostSw.forEach((x, i) => link(`h${i}`, sw[x % s.nSw]));
      const doc: ScenarioInput = {
        name: 'random', duration: '10us', defaults: { link: { speed: '100G', cable: '10m' }, buffer: { size: '4MB' } },
        hosts: s.hostSw.map((_, i) => ({ name: `h${i}` })), switches: sw.map((name) => ({ name })), links,
        traffic: { flows: [{ src: 'h0', dst: 'h1', priority: 3 }] },
      };
      const got = expectReference(checkScenario(doc), s.asked);
      split[got.parts > 1 ? 'partitioned' : 'serial']++;
    }), { numRuns: 150, seed: 0x9a27 });
    // Both outcomes occur: a fabric that cannot be split, and one that is.
    expect(split.serial).toBeGreaterThan(0);
    expect(split.partitioned).toBeGreaterThan(0);
  });
});
