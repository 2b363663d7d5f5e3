// Forwarding tables of the fabric engine: shortest-path ECMP next-hop sets per (switch, destination
// host), plus one column per flow whose route is pinned (`traffic.flows[i].path`).
//
// Layout read by assembly/sim/engine.ts (nextHop): route[swOrd * columns + column] is the word offset
// of [count, port, port, ...] in nhWords. Columns 0..nHosts-1 are the destination hosts (shortest
// paths, every port one hop closer is an equal-cost choice); column nHosts + j is the j-th pinned flow:
// on the switches of its path the set is the link(s) to the next node of the path, elsewhere the
// shortest-path set toward its destination (never used by its frames; it keeps every entry
// non-empty). A flow's record holds its column in SF_DST_ORD; control frames toward a source (CNMs)
// use the source host's column, i.e. the shortest path back.
//
// Invariants: every entry reached by a frame has count >= 1; equal sets are stored once (hashed on
// their ports), which keeps a fat tree's table small. The engine's row stride (SH_NHOSTS) is
// `columns`, which equals nHosts when no flow is pinned, so such scenarios keep their exact layout.
import type { Scenario } from '../scenario/scenario.js';

export interface Routes {
  route: Int32Array;
  nhWords: Int32Array;
  /** Row stride of `route`: destination hosts, then pinned flows. */
  columns: number;
  /** Route column of each flow (its destination host's, or its own when pinned). */
  flowColumn: Int32Array;
}

/** Ordinals: hosts 0..nHosts-1 and switches 0..nSw-1, in node order. */
export function nodeOrdinals(scn: Scenario): { hostOrd: Map<number, number>; swOrd: Map<number, number> } {
  const hostOrd = new Map<number, number>();
  const swOrd = new Map<number, number>();
  for (const n of scn.nodes) (n.isHost ? hostOrd : swOrd).set(n.id, n.isHost ? hostOrd.size : swOrd.size);
  return { hostOrd, swOrd };
}

/**
 * Everything the engine's forwarding needs from a scenario, computed once: the node ordinals, the
 * tables, and the row length of the per-flow path table (longestFlowPath).
 */
export interface RoutePlan {
  hostOrd: Map<number, number>;
  swOrd: Map<number, number>;
  routes: Routes;
  pathLen: number;
}

export function planRoutes(scn: Scenario): RoutePlan {
  const { hostOrd, swOrd } = nodeOrdinals(scn);
  const routes = computeRoutes(scn, hostOrd, swOrd);
  return { hostOrd, swOrd, routes, pathLen: Math.max(1, longestFlowPath(scn, routes, hopScratch(scn, swOrd))) };
}

export function computeRoutes(scn: Scenario, hostOrd: Map<number, number>, swOrd: Map<number, number>): Routes {
  const nHosts = hostOrd.size;
  const pinned = scn.flows.filter((f) => f.path !== undefined);
  const columns = nHosts + pinned.length;
  const route = new Int32Array(swOrd.size * columns);
  const table = new NextHopTable();
  const dist = new Int32Array(scn.nodes.length);
  const queue = new Int32Array(scn.nodes.length);
  const cand: number[] = [];
  const peer = Int32Array.from(scn.ports, (p) => p.peerNode);
  const isHost = Uint8Array.from(scn.nodes, (n) => (n.isHost ? 1 : 0));
  const nodePorts = scn.nodes.map((n) => Int32Array.from(n.ports));
  const switches = [...swOrd.entries()];
  // Flat copies of the switch list (node, ordinal) for the loops below, which run once per
  // (host, switch): a k = 16 tree's 327,680 entries.
  const swNode = Int32Array.from(switches, ([sw]) => sw);
  const swRow = Int32Array.from(switches, ([, so]) => so * columns);
  const nSw = switches.length;
  // A host with one link to a switch s is reached through s alone: toward it, every other switch
  // uses the ports that lead toward s, so its column is that of any other such host of s but for
  // s's own entry (the link to it). Such columns are copied instead of searched again (k = 28 fat
  // tree: 392 searches instead of 5,488). The sets are the same ones, asked for in the same order.
  const columnOfSwitch = new Map<number, Int32Array>();
  const attachedTo = (host: number) => (nodePorts[host].length === 1 && !isHost[peer[nodePorts[host][0]]] ? peer[nodePorts[host][0]] : -1);
  for (const [host, ho] of hostOrd) {
    const s = attachedTo(host);
    const known = s >= 0 ? columnOfSwitch.get(s) : undefined;
    if (known) {
      for (let i = 0; i < nSw; i++) route[swRow[i] + ho] = known[i];
      route[swOrd.get(s)! * columns + ho] = table.offsetOf([...nodePorts[s]].filter((p) => peer[p] === host));
      continue;
    }
    dist.fill(-1);
    dist[host] = 0;
    let qh = 0, qt = 0;
    queue[qt++] = host;
    while (qh < qt) {
      const n = queue[qh++];
      if (n !== host && isHost[n]) continue;
      const ps = nodePorts[n];
      for (let i = 0; i < ps.length; i++) {
        const m = peer[ps[i]];
        if (dist[m] < 0) { dist[m] = dist[n] + 1; queue[qt++] = m; }
      }
    }
    for (let i = 0; i < nSw; i++) {
      const sw = swNode[i];
      const d = dist[sw];
      const ps = nodePorts[sw];
      cand.length = 0;
      if (d > 0) for (let j = 0; j < ps.length; j++) if (dist[peer[ps[j]]] === d - 1) cand.push(ps[j]);
      route[swRow[i] + ho] = table.offsetOf(cand);
    }
    if (s >= 0) {
      // A plain loop: Int32Array.from with a mapping function takes the iterator protocol's generic
      // path, a tenth of a cold planRoutes at k = 16.
      const column = new Int32Array(nSw);
      for (let i = 0; i < nSw; i++) column[i] = route[swRow[i] + ho];
      columnOfSwitch.set(s, column);
    }
  }
  const flowColumn = Int32Array.from(scn.flows.map((f) => hostOrd.get(f.dst)!));
  pinned.forEach((f, j) => {
    const col = nHosts + j;
    flowColumn[f.id] = col;
    const hops = new Map<number, number>(); // switch on the path -> next node
    for (let i = 1; i + 1 < f.path!.length; i++) hops.set(f.path![i], f.path![i + 1]);
    for (const [sw, so] of switches) {
      const next = hops.get(sw);
      route[so * columns + col] = next === undefined
        ? route[so * columns + hostOrd.get(f.dst)!]
        : table.offsetOf([...nodePorts[sw]].filter((p) => peer[p] === next));
    }
  });
  return { route, nhWords: table.words(), columns, flowColumn };
}

/** The next-hop sets, each stored once as [count, ports...] in one word array. */
class NextHopTable {
  private buf = new Int32Array(1024);
  private used = 1;
  private readonly buckets = new Map<number, number[]>();

  offsetOf(ports: readonly number[]): number {
    let h = 0x811c9dc5;
    for (const p of ports) h = Math.imul(h ^ p, 0x01000193);
    h = Math.imul(h ^ ports.length, 0x01000193);
    const list = this.buckets.get(h);
    if (list) for (const o of list) if (this.holds(o, ports)) return o;
    if (this.used + ports.length + 1 > this.buf.length) {
      const w = new Int32Array(this.buf.length * 2 + ports.length + 1);
      w.set(this.buf);
      this.buf = w;
    }
    const at = this.used;
    this.buf[this.used++] = ports.length;
    for (const p of ports) this.buf[this.used++] = p;
    if (list) list.push(at); else this.buckets.set(h, [at]);
    return at;
  }

  /** Whether the set stored at `o` is `ports`. */
  private holds(o: number, ports: readonly number[]): boolean {
    const buf = this.buf;
    if (buf[o] !== ports.length) return false;
    for (let i = 0; i < ports.length; i++) if (buf[o + 1 + i] !== ports[i]) return false;
    return true;
  }

  words(): Int32Array {
    return this.buf.subarray(0, this.used);
  }
}

/**
 * Walks the egress ports a flow's frames may use, as the engine forwards them: from the source host's
 * port through every ECMP alternative (or the pinned path) to the destination, calling `onPair(e, next)`
 * for each (egress port, next egress port) dependency the flow creates. `scratch` is reused across
 * calls (a visit stamp per port and a stack), so a walk allocates nothing.
 */
export function walkFlowHops(
  scn: Scenario, routes: Routes, swOrd: Map<number, number>, flowId: number, scratch: HopScratch,
  onPair: (e: number, next: number) => void,
): void {
  const f = scn.flows[flowId];
  const col = routes.flowColumn[flowId];
  const stamp = ++scratch.stamp;
  const { seen, stack, peerSwOrd } = scratch;
  const { route, nhWords, columns } = routes;
  let top = 0;
  const start = scn.nodes[f.src].ports[0];
  seen[start] = stamp;
  stack[top++] = start;
  while (top > 0) {
    const e = stack[--top];
    const so = peerSwOrd[e];
    if (so < 0) continue; // a host: the frame is delivered
    const off = route[so * columns + col];
    const n = nhWords[off];
    for (let i = 0; i < n; i++) {
      const next = nhWords[off + 1 + i];
      onPair(e, next);
      if (seen[next] !== stamp) { seen[next] = stamp; stack[top++] = next; }
    }
  }
}

/**
 * The most switches any flow's frames enter on their way to the destination: the row length of the
 * engine's path table (simInit fills the rows with the ports its ECMP hash picks). Every choice a
 * frame may get is equally long (each shortest-path set is one hop closer; a pinned flow's set is its
 * path's next link), so following the first choice of each set gives the length.
 */
export function longestFlowPath(scn: Scenario, routes: Routes, scratch: HopScratch): number {
  let longest = 0;
  for (const f of scn.flows) {
    const col = routes.flowColumn[f.id];
    let e = scn.nodes[f.src].ports[0];
    let switches = 0;
    for (let so = scratch.swOrdOf[scn.ports[e].peerNode]; so >= 0; so = scratch.swOrdOf[scn.ports[e].peerNode]) {
      // Shortest paths visit each switch once at most: a longer walk means broken tables.
      if (++switches > scratch.swOrdOf.length) throw new Error(`flow ${f.id}: its route does not reach its destination`);
      e = routes.nhWords[routes.route[so * routes.columns + col] + 1];
    }
    if (switches > longest) longest = switches;
  }
  return longest;
}

/** Reusable state of walkFlowHops for one scenario; peerSwOrd: the switch ordinal of each port's peer (-1: a host). */
export interface HopScratch { stamp: number; seen: Int32Array; stack: Int32Array; swOrdOf: Int32Array; peerSwOrd: Int32Array }
export function hopScratch(scn: Scenario, swOrd: Map<number, number>): HopScratch {
  const swOrdOf = new Int32Array(scn.nodes.length).fill(-1);
  for (const [node, so] of swOrd) swOrdOf[node] = so;
  const peerSwOrd = Int32Array.from(scn.ports, (p) => swOrdOf[p.peerNode]);
  return { stamp: 0, seen: new Int32Array(scn.ports.length), stack: new Int32Array(scn.ports.length), swOrdOf, peerSwOrd };
}
