// Lossless deadlock analysis: cyclic buffer dependencies (CBD) of the routes a scenario's flows use.
//
// Model (docs/deadlock.md). PFC makes a priority lossless hop by hop: switch b holds the frames it
// received from a on egress port a>b in its ingress buffer and, when that buffer passes XOFF, pauses
// a>b. A frame held at b waits for b's egress toward its next node c, b>c, which c may pause in turn.
// So for every flow of priority p whose frames go a -> b -> c (b a switch), egress port a>b depends
// on b>c. When both hops are lossless for p (b and c run PFC, PAUSE or credit for p), the edge
// a>b -> b>c is in the dependency graph of p. A cycle in that graph is a set of ports that can pause
// each other forever: a deadlock that needs only enough load to fill the buffers. An acyclic graph
// cannot deadlock (every chain of pauses ends at a port that drains).
//
// Paths are those the engine forwards on (host/sim/routes.ts): the pinned path of a flow that has
// one, else every ECMP alternative, so the graph covers every route a frame might hash onto.
//
// Output: per priority, every elementary cycle (Johnson's algorithm, within each strongly connected
// component), each with the flows that create its edges; when a priority's cycles exceed
// MAX_CYCLES, its strongly connected components instead (each contains at least one cycle).
// Cycles start at their lowest port id and are sorted, so the report is deterministic.
import type { Scenario } from '../scenario/scenario.js';
import { computeRoutes, hopScratch, nodeOrdinals, walkFlowHops, type Routes } from '../sim/routes.js';

export const MAX_CYCLES = 1000;

export interface DeadlockEdge { from: string; to: string; flows: number[] }
export interface DeadlockCycle { priority: number; ports: string[]; flows: number[]; edges: DeadlockEdge[] }
export interface DeadlockComponent { priority: number; ports: string[]; flows: number[] }
export interface DeadlockReport {
  deadlock_free: boolean;
  cycles: DeadlockCycle[];
  /** Strongly connected components of the priorities whose cycles were too many to list (else empty). */
  components: DeadlockComponent[];
  /** Lossless priorities analysed (those some flow uses with a lossless hop). */
  priorities: number[];
}

/** Dependency graph of one priority: edges[e1] maps e2 to the flows creating e1 -> e2. */
export type DependencyGraph = Map<number, Map<number, Set<number>>>;

/**
 * Whether a frame of priority p going out of port e1 and then e2 makes e1 depend on e2: e2 leads to
 * a switch (a host always drains) and both switches along the way hold p lossless. Typed arrays
 * inside: the walks visit some 600 pairs per flow of a k = 28 fat tree.
 */
function losslessHopTest(scn: Scenario): (e1: number, e2: number, p: number) => boolean {
  const losslessMask = new Int32Array(scn.nodes.length);
  const hostNode = new Uint8Array(scn.nodes.length);
  scn.nodes.forEach((n, i) => {
    losslessMask[i] = n.modes.reduce((m, mode, p) => (mode !== 'lossy' ? m | (1 << p) : m), 0);
    hostNode[i] = n.isHost ? 1 : 0;
  });
  const peerNode = peerNodes(scn);
  return (e1, e2, p) => {
    const c = peerNode[e2];
    return hostNode[c] === 0 && ((losslessMask[peerNode[e1]] & losslessMask[c]) >> p & 1) === 1;
  };
}

/**
 * The node each port leads to, by port id. Filled by a plain loop: Int32Array.from with a mapping
 * function takes the iterator protocol's generic path.
 */
function peerNodes(scn: Scenario): Int32Array {
  const peerNode = new Int32Array(scn.ports.length);
  scn.ports.forEach((p, i) => { peerNode[i] = p.peerNode; });
  return peerNode;
}

/** The buffer dependency graph of every lossless priority, keyed by priority. */
export function dependencyGraphs(scn: Scenario, given?: { routes: Routes; swOrd: Map<number, number> }): Map<number, DependencyGraph> {
  let { routes, swOrd } = given ?? { routes: undefined, swOrd: undefined };
  if (!routes || !swOrd) {
    const ords = nodeOrdinals(scn);
    swOrd = ords.swOrd;
    routes = computeRoutes(scn, ords.hostOrd, swOrd);
  }
  const losslessHop = losslessHopTest(scn);
  // Edges first in one flat map per priority (key e1 * ports + e2: no nested maps on the hot loop),
  // then as adjacency maps for the cycle search.
  const nPorts = scn.ports.length;
  const flat = new Map<number, Map<number, number[]>>();
  const scratch = hopScratch(scn, swOrd);
  // One visitor for every flow's walk, reading the flow from these: a new closure per flow made
  // each walk a call V8 had not seen (it dropped walkFlowHops's optimised code every time).
  let id = 0, p = 0;
  let edges: Map<number, number[]> | undefined;
  const onPair = (e1: number, e2: number) => {
    if (!losslessHop(e1, e2, p)) return;
    if (!edges && !(edges = flat.get(p))) flat.set(p, (edges = new Map()));
    const key = e1 * nPorts + e2;
    const flows = edges.get(key);
    if (flows) { if (flows[flows.length - 1] !== id) flows.push(id); } else edges.set(key, [id]);
  };
  for (const f of scn.flows) {
    id = f.id;
    p = f.priority;
    edges = undefined;
    walkFlowHops(scn, routes, swOrd!, f.id, scratch, onPair);
  }
  const graphs = new Map<number, DependencyGraph>();
  for (const [p, edges] of flat) {
    const g: DependencyGraph = new Map();
    for (const [key, flows] of edges) {
      const e1 = Math.floor(key / nPorts);
      let out = g.get(e1);
      if (!out) g.set(e1, (out = new Map()));
      out.set(key - e1 * nPorts, new Set(flows));
    }
    graphs.set(p, g);
  }
  return graphs;
}

/**
 * The dependency graphs of the lossless priorities whose graph has a cycle (the others cannot
 * deadlock, and the run's deadlock monitor watches nothing on them). A pass over typed arrays
 * decides which those are (Kahn's topological sort: a graph is acyclic when every port can be
 * removed with no edge left into it); only those are built in full. On a fat tree with shortest-path
 * routes there are none, and the full build (0.8 s at k = 28, mostly allocation) is skipped.
 */
export function cyclicDependencyGraphs(scn: Scenario, given: { routes: Routes; swOrd: Map<number, number> }): Map<number, DependencyGraph> {
  const nPorts = scn.ports.length;
  const peerNode = peerNodes(scn);
  const losslessHop = losslessHopTest(scn);
  // Edge slot of (e1, e2): e2 is a port of e1's peer node, so slot = base[e1] + e2's index there.
  const portIndex = new Int32Array(nPorts);
  for (const n of scn.nodes) n.ports.forEach((p, i) => { portIndex[p] = i; });
  const base = new Int32Array(nPorts + 1);
  for (let e = 0; e < nPorts; e++) base[e + 1] = base[e] + scn.nodes[peerNode[e]].ports.length;
  const marked = new Map<number, Uint8Array>();
  const scratch = hopScratch(scn, given.swOrd);
  // One visitor for every walk, as in dependencyGraphs.
  let p = 0;
  let slots: Uint8Array | undefined;
  const onPair = (e1: number, e2: number) => {
    if (!losslessHop(e1, e2, p)) return;
    if (!slots) marked.set(p, (slots = new Uint8Array(base[nPorts])));
    slots[base[e1] + portIndex[e2]] = 1;
  };
  for (const f of scn.flows) {
    p = f.priority;
    slots = marked.get(p);
    walkFlowHops(scn, given.routes, given.swOrd, f.id, scratch, onPair);
  }
  const cyclic: number[] = [];
  const indeg = new Int32Array(nPorts);
  const queue = new Int32Array(nPorts);
  for (const [priority, slots] of marked) {
    indeg.fill(0);
    const ports = (e1: number) => scn.nodes[peerNode[e1]].ports;
    for (let e1 = 0; e1 < nPorts; e1++) {
      const ps = ports(e1);
      for (let i = 0; i < ps.length; i++) if (slots[base[e1] + i]) indeg[ps[i]]++;
    }
    let qt = 0;
    for (let e = 0; e < nPorts; e++) if (indeg[e] === 0) queue[qt++] = e;
    for (let qh = 0; qh < qt; qh++) {
      const e1 = queue[qh];
      const ps = ports(e1);
      for (let i = 0; i < ps.length; i++) if (slots[base[e1] + i] && --indeg[ps[i]] === 0) queue[qt++] = ps[i];
    }
    if (qt < nPorts) cyclic.push(priority);
  }
  if (cyclic.length === 0) return new Map();
  const graphs = dependencyGraphs(scn, given);
  for (const p of [...graphs.keys()]) if (!cyclic.includes(p)) graphs.delete(p);
  return graphs;
}

export function analyzeDeadlock(scn: Scenario, maxCycles = MAX_CYCLES): DeadlockReport {
  const graphs = dependencyGraphs(scn);
  const name = (e: number) => scn.ports[e].name;
  const cycles: DeadlockCycle[] = [];
  const components: DeadlockComponent[] = [];
  const priorities = [...graphs.keys()].sort((a, b) => a - b);
  for (const p of priorities) {
    const g = graphs.get(p)!;
    const sccs = stronglyConnected(g).filter((c) => c.length > 1);
    const found: number[][] = [];
    let truncated = false;
    for (const scc of sccs) {
      if (!elementaryCycles(g, scc, maxCycles - found.length, (c) => found.push(c))) { truncated = true; break; }
    }
    if (truncated) {
      for (const scc of sccs) {
        const flows = new Set<number>();
        for (const e1 of scc) for (const [e2, fs] of g.get(e1) ?? []) if (scc.includes(e2)) fs.forEach((f) => flows.add(f));
        components.push({ priority: p, ports: [...scc].sort((a, b) => a - b).map(name), flows: [...flows].sort((a, b) => a - b) });
      }
      continue;
    }
    const own: DeadlockCycle[] = found.map((c) => {
      const edges = c.map((e1, i) => {
        const e2 = c[(i + 1) % c.length];
        return { from: name(e1), to: name(e2), flows: [...g.get(e1)!.get(e2)!].sort((a, b) => a - b) };
      });
      const flows = [...new Set(edges.flatMap((e) => e.flows))].sort((a, b) => a - b);
      return { priority: p, ports: c.map(name), flows, edges, key: c };
    }).sort((x, y) => compareIds(x.key, y.key)).map(({ key: _key, ...rest }) => rest);
    cycles.push(...own);
  }
  return { deadlock_free: cycles.length === 0 && components.length === 0, cycles, components, priorities };
}

function compareIds(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

/** Tarjan's strongly connected components over the graph's vertices (iterative; vertices sorted). */
export function stronglyConnected(g: DependencyGraph): number[][] {
  const vertices = new Set<number>();
  for (const [a, out] of g) { vertices.add(a); for (const b of out.keys()) vertices.add(b); }
  const order = [...vertices].sort((a, b) => a - b);
  const index = new Map<number, number>();
  const low = new Map<number, number>();
  const onStack = new Set<number>();
  const stack: number[] = [];
  const result: number[][] = [];
  let counter = 0;
  const succ = (v: number) => [...(g.get(v)?.keys() ?? [])].sort((a, b) => a - b);
  for (const root of order) {
    if (index.has(root)) continue;
    const work: { v: number; next: number[]; i: number }[] = [];
    const visit = (v: number) => {
      index.set(v, counter); low.set(v, counter); counter++;
      stack.push(v); onStack.add(v);
      work.push({ v, next: succ(v), i: 0 });
    };
    visit(root);
    while (work.length) {
      const top = work[work.length - 1];
      if (top.i < top.next.length) {
        const w = top.next[top.i++];
        if (!index.has(w)) visit(w);
        else if (onStack.has(w)) low.set(top.v, Math.min(low.get(top.v)!, index.get(w)!));
        continue;
      }
      work.pop();
      if (work.length) { const up = work[work.length - 1].v; low.set(up, Math.min(low.get(up)!, low.get(top.v)!)); }
      if (low.get(top.v) === index.get(top.v)) {
        const comp: number[] = [];
        let w: number;
        do { w = stack.pop()!; onStack.delete(w); comp.push(w); } while (w !== top.v);
        result.push(comp.sort((a, b) => a - b));
      }
    }
  }
  return result;
}

/**
 * Johnson's algorithm restricted to one strongly connected component: every elementary cycle, each
 * reported once, starting at its lowest vertex. Stops and returns false after `limit` cycles.
 */
export function elementaryCycles(g: DependencyGraph, scc: number[], limit: number, emit: (cycle: number[]) => void): boolean {
  if (limit <= 0) return false;
  const members = [...scc].sort((a, b) => a - b);
  let count = 0;
  for (let s = 0; s < members.length; s++) {
    const start = members[s];
    const allowed = new Set(members.slice(s)); // cycles through lower vertices were found already
    const succ = (v: number) => [...(g.get(v)?.keys() ?? [])].filter((w) => allowed.has(w)).sort((a, b) => a - b);
    const blocked = new Set<number>();
    const blockMap = new Map<number, Set<number>>();
    const path: number[] = [];
    const unblock = (u: number) => {
      const todo = [u];
      while (todo.length) {
        const x = todo.pop()!;
        if (!blocked.delete(x)) continue;
        const waiting = blockMap.get(x);
        if (waiting) { blockMap.delete(x); for (const y of waiting) todo.push(y); }
      }
    };
    // Iterative circuit search (recursion depth would follow the cycle length).
    const frames: { v: number; next: number[]; i: number; found: boolean }[] = [];
    const enter = (v: number) => { path.push(v); blocked.add(v); frames.push({ v, next: succ(v), i: 0, found: false }); };
    enter(start);
    while (frames.length) {
      const fr = frames[frames.length - 1];
      if (fr.i < fr.next.length) {
        const w = fr.next[fr.i++];
        if (w === start) {
          emit([...path]);
          fr.found = true;
          if (++count >= limit) return false;
        } else if (!blocked.has(w)) enter(w);
        continue;
      }
      frames.pop();
      path.pop();
      if (fr.found) unblock(fr.v);
      else for (const w of fr.next) { let m = blockMap.get(w); if (!m) blockMap.set(w, (m = new Set())); m.add(fr.v); }
      if (frames.length && fr.found) frames[frames.length - 1].found = true;
    }
  }
  return true;
}
