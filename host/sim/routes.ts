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
// The search keeps each distinct column once (RouteColumns); layRoutes writes the full table where
// the engine reads it, in the run's arena.
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
 * The forwarding table before it is laid out: each distinct column once (a searched host's, a
 * pinned flow's) as a slot, which slot each column is, and the one entry of a copied host column
 * that differs from its slot (the entry of the host's own switch, the link to it). A k = 16 fat
 * tree has 1,024 host columns and 128 slots: the full table (1.3 MB, 21 MB at k = 28) is written
 * once, where the engine reads it (layRoutes), instead of being built in fresh memory and copied.
 */
export interface RouteColumns {
  nhWords: Int32Array;
  /** Row stride of the laid-out table: destination hosts, then pinned flows. */
  columns: number;
  /** Route column of each flow (its destination host's, or its own when pinned). */
  flowColumn: Int32Array;
  /** Rows (switches), and the slots of each row: slots[row * nSlots + slot]. */
  rows: number;
  nSlots: number;
  slots: Int32Array;
  slotOf: Int32Array;
  /** Per column: the row whose entry is ownEntry instead of its slot's (-1: none). */
  ownRow: Int32Array;
  ownEntry: Int32Array;
}

/** Entry (row so, column col) of the laid-out table: a word offset into nhWords. */
export function routeEntry(c: RouteColumns, so: number, col: number): number {
  return c.ownRow[col] === so ? c.ownEntry[col] : c.slots[so * c.nSlots + c.slotOf[col]];
}

/** Writes the whole table at out[at ..] row by row (the engine's layout) and returns the tables over it. */
export function layRoutes(c: RouteColumns, out: Int32Array, at: number): Routes {
  const { rows, columns, nSlots, slots, slotOf, ownRow, ownEntry } = c;
  // Runs of neighbouring columns of one slot (a switch's hosts are numbered together), each filled
  // natively: the table's first write runs once per run, cold, where a loop per entry ran interpreted.
  const runEnd: number[] = [];
  for (let col = 1; col <= columns; col++) if (col === columns || slotOf[col] !== slotOf[col - 1]) runEnd.push(col);
  for (let so = 0; so < rows; so++) {
    const row = at + so * columns, from = so * nSlots;
    let start = 0;
    for (const end of runEnd) {
      out.fill(slots[from + slotOf[start]], row + start, row + end);
      start = end;
    }
  }
  for (let col = 0; col < columns; col++) if (ownRow[col] >= 0) out[at + ownRow[col] * columns + col] = ownEntry[col];
  return { route: out.subarray(at, at + rows * columns), nhWords: c.nhWords, columns, flowColumn: c.flowColumn };
}

/**
 * Everything the engine's forwarding needs from a scenario, computed once: the node ordinals, the
 * table's columns (laid out by layRoutes once its place is known), and the row length of the
 * per-flow path table (longestFlowPath).
 */
export interface RoutePlan {
  hostOrd: Map<number, number>;
  swOrd: Map<number, number>;
  routes: RouteColumns;
  pathLen: number;
}

export function planRoutes(scn: Scenario): RoutePlan {
  const { hostOrd, swOrd } = nodeOrdinals(scn);
  const routes = searchRoutes(scn, hostOrd, swOrd);
  return { hostOrd, swOrd, routes, pathLen: Math.max(1, longestFlowPath(scn, routes, hopScratch(scn, swOrd))) };
}

/** The forwarding tables laid out in a fresh array (the deadlock analysis, tests). */
export function computeRoutes(scn: Scenario, hostOrd: Map<number, number>, swOrd: Map<number, number>): Routes {
  const c = searchRoutes(scn, hostOrd, swOrd);
  return layRoutes(c, new Int32Array(c.rows * c.columns), 0);
}

export function searchRoutes(scn: Scenario, hostOrd: Map<number, number>, swOrd: Map<number, number>): RouteColumns {
  const nHosts = hostOrd.size;
  const pinned = scn.flows.filter((f) => f.path !== undefined);
  const columns = nHosts + pinned.length;
  const rows = swOrd.size;
  const table = new NextHopTable();
  // A host with one link to a switch s is reached through s alone: toward it, every other switch
  // uses the ports that lead toward s, so its column is that of any other such host of s but for
  // s's own entry (the link to it). Such columns share the slot searched for the first host of s
  // (k = 28 fat tree: 392 searches instead of 5,488). The sets are the same ones, asked for in the
  // same order (nhWords depends on it).
  const searchedFor = new Map<number, number>(); // switch -> the slot searched for a host of it
  const slotOf = new Int32Array(columns);
  const ownRow = new Int32Array(columns).fill(-1);
  const ownEntry = new Int32Array(columns);
  let nSlots = 0;
  for (const [host, ho] of hostOrd) {
    const s = attachedSwitch(scn, host);
    const known = s >= 0 ? searchedFor.get(s) : undefined;
    if (known !== undefined) slotOf[ho] = known;
    else {
      slotOf[ho] = nSlots++;
      if (s >= 0) searchedFor.set(s, slotOf[ho]);
    }
  }
  for (let j = 0; j < pinned.length; j++) slotOf[nHosts + j] = nSlots++;
  const slots = new Int32Array(rows * nSlots);
  const c: RouteColumns = { nhWords: new Int32Array(0), columns, flowColumn: new Int32Array(0), rows, nSlots, slots, slotOf, ownRow, ownEntry };
  const search = new ColumnSearch(scn, swOrd, nSlots);
  const searched = new Uint8Array(nSlots);
  for (const [host, ho] of hostOrd) {
    const slot = slotOf[ho];
    if (searched[slot]) {
      const s = attachedSwitch(scn, host);
      ownRow[ho] = swOrd.get(s)!;
      ownEntry[ho] = table.offsetOf(search.cand, search.linksToward(s, host));
      continue;
    }
    searched[slot] = 1;
    search.distancesFrom(host);
    search.fillColumn(slots, slot, table);
  }
  c.flowColumn = Int32Array.from(scn.flows.map((f) => hostOrd.get(f.dst)!));
  pinned.forEach((f, j) => {
    const col = nHosts + j;
    c.flowColumn[f.id] = col;
    const hops = new Map<number, number>(); // switch on the path -> next node
    for (let i = 1; i + 1 < f.path!.length; i++) hops.set(f.path![i], f.path![i + 1]);
    for (const [sw, so] of swOrd) {
      const next = hops.get(sw);
      slots[so * nSlots + slotOf[col]] = next === undefined
        ? routeEntry(c, so, hostOrd.get(f.dst)!)
        : table.offsetOf(search.cand, search.linksToward(sw, next));
    }
  });
  c.nhWords = table.words();
  return c;
}

/** The switch a host hangs from by its only link, or -1. */
function attachedSwitch(scn: Scenario, host: number): number {
  const ports = scn.nodes[host].ports;
  if (ports.length !== 1) return -1;
  const s = scn.ports[ports[0]].peerNode;
  return scn.nodes[s].isHost ? -1 : s;
}

/**
 * The shortest-path search of one destination column at a time, over the topology held flat: the
 * ports of node n are ports[first[n] .. first[n + 1]), in the scenario's order. Each step is a
 * method of its own: V8 optimises a small function soon after it turns hot, where the loops of one
 * large function ran in the interpreter for the 50-90 ms TurboFan took to compile it on-stack (a
 * k = 16 tree's 128 searches, `node --trace-opt`), and then fell back to it on new type feedback.
 */
class ColumnSearch {
  private readonly first: Int32Array;
  private readonly ports: Int32Array;
  private readonly peer: Int32Array;
  private readonly isHost: Uint8Array;
  /** Hops from the searched host to each node (-1: not reached), and the search's queue. */
  private readonly dist: Int32Array;
  private readonly queue: Int32Array;
  /** Switch node and slot-row start of each switch ordinal's position in swOrd. */
  private readonly swNode: Int32Array;
  private readonly swRow: Int32Array;
  /** Word offset of the next-hop set each switch got in the last column searched (0: none yet). */
  private readonly lastSet: Int32Array;
  /** The next-hop set being built: its first n entries (a typed row, reused; an array emptied and refilled by push regrew its store for each entry). */
  readonly cand: Int32Array;

  constructor(scn: Scenario, swOrd: Map<number, number>, nSlots: number) {
    const nNodes = scn.nodes.length;
    this.first = new Int32Array(nNodes + 1);
    this.isHost = new Uint8Array(nNodes);
    let degree = 0;
    scn.nodes.forEach((n, i) => {
      this.first[i + 1] = this.first[i] + n.ports.length;
      this.isHost[i] = n.isHost ? 1 : 0;
      degree = Math.max(degree, n.ports.length);
    });
    this.ports = new Int32Array(this.first[nNodes]);
    scn.nodes.forEach((n, i) => this.ports.set(n.ports, this.first[i]));
    this.peer = new Int32Array(scn.ports.length);
    scn.ports.forEach((p, i) => { this.peer[i] = p.peerNode; });
    this.dist = new Int32Array(nNodes);
    this.queue = new Int32Array(nNodes);
    this.swNode = new Int32Array(swOrd.size);
    this.swRow = new Int32Array(swOrd.size);
    let i = 0;
    for (const [sw, so] of swOrd) { this.swNode[i] = sw; this.swRow[i++] = so * nSlots; }
    this.lastSet = new Int32Array(swOrd.size);
    this.cand = new Int32Array(degree);
  }

  /** Breadth-first hop counts from `host`; frames never cross another host. */
  distancesFrom(host: number): void {
    const { first, ports, peer, isHost, dist, queue } = this;
    dist.fill(-1);
    dist[host] = 0;
    let qh = 0, qt = 0;
    queue[qt++] = host;
    while (qh < qt) {
      const n = queue[qh++];
      if (n !== host && isHost[n]) continue;
      for (let i = first[n]; i < first[n + 1]; i++) {
        const m = peer[ports[i]];
        if (dist[m] < 0) { dist[m] = dist[n] + 1; queue[qt++] = m; }
      }
    }
  }

  /**
   * Every switch's entry of slot `slot`: the set of its ports one hop closer to the searched host.
   * A switch's set is mostly the one it had in the column before (a tree's up-links), found by
   * comparing with that set instead of hashing it into the table again.
   */
  fillColumn(slots: Int32Array, slot: number, table: NextHopTable): void {
    const { swNode, swRow, lastSet, cand } = this;
    for (let i = 0; i < swNode.length; i++) {
      const n = this.closerPorts(swNode[i]);
      const last = lastSet[i];
      const at = last > 0 && table.holds(last, cand, n) ? last : table.offsetOf(cand, n);
      lastSet[i] = at;
      slots[swRow[i] + slot] = at;
    }
  }

  /** The ports of `node` whose peer is one hop closer to the searched host, into cand; how many. */
  private closerPorts(node: number): number {
    const { first, ports, peer, dist, cand } = this;
    const d = dist[node];
    let n = 0;
    if (d > 0) for (let i = first[node]; i < first[node + 1]; i++) if (dist[peer[ports[i]]] === d - 1) cand[n++] = ports[i];
    return n;
  }

  /** The ports of `node` whose peer is `next`, into cand; how many. */
  linksToward(node: number, next: number): number {
    let n = 0;
    for (let i = this.first[node]; i < this.first[node + 1]; i++) if (this.peer[this.ports[i]] === next) this.cand[n++] = this.ports[i];
    return n;
  }
}

/** The next-hop sets, each stored once as [count, ports...] in one word array. */
class NextHopTable {
  private buf = new Int32Array(1024);
  private used = 1;
  private readonly buckets = new Map<number, number[]>();

  /** Word offset of the set held in ports[0..n-1], stored on its first appearance. */
  offsetOf(ports: Int32Array, n: number): number {
    let h = 0x811c9dc5;
    for (let i = 0; i < n; i++) h = Math.imul(h ^ ports[i], 0x01000193);
    h = Math.imul(h ^ n, 0x01000193);
    const list = this.buckets.get(h);
    if (list) for (const o of list) if (this.holds(o, ports, n)) return o;
    if (this.used + n + 1 > this.buf.length) {
      const w = new Int32Array(this.buf.length * 2 + n + 1);
      w.set(this.buf);
      this.buf = w;
    }
    const at = this.used;
    this.buf[this.used++] = n;
    for (let i = 0; i < n; i++) this.buf[this.used++] = ports[i];
    if (list) list.push(at); else this.buckets.set(h, [at]);
    return at;
  }

  /** Whether the set stored at `o` is ports[0..n-1]. */
  holds(o: number, ports: Int32Array, n: number): boolean {
    const buf = this.buf;
    if (buf[o] !== n) return false;
    for (let i = 0; i < n; i++) if (buf[o + 1 + i] !== ports[i]) return false;
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
export function longestFlowPath(scn: Scenario, routes: RouteColumns, scratch: HopScratch): number {
  let longest = 0;
  for (const f of scn.flows) {
    const col = routes.flowColumn[f.id];
    let e = scn.nodes[f.src].ports[0];
    let switches = 0;
    for (let so = scratch.peerSwOrd[e]; so >= 0; so = scratch.peerSwOrd[e]) {
      // Shortest paths visit each switch once at most: a longer walk means broken tables.
      if (++switches > scratch.swOrdOf.length) throw new Error(`flow ${f.id}: its route does not reach its destination`);
      e = routes.nhWords[routeEntry(routes, so, col) + 1];
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
  const peerSwOrd = new Int32Array(scn.ports.length);
  scn.ports.forEach((p, i) => { peerSwOrd[i] = swOrdOf[p.peerNode]; });
  return { stamp: 0, seen: new Int32Array(scn.ports.length), stack: new Int32Array(scn.ports.length), swOrdOf, peerSwOrd };
}
