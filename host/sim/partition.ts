// Splits a fabric into partitions for the partitioned engine (assembly/sim/partition.ts, docs/sim.md
// "One run on every core"): groups of switches, each with the hosts attached to it, run by one
// worker thread each in conservative time windows.
//
// Rules. A host goes with the switch it is attached to (its frames are delivered from that switch's
// port without an event), and a link is never cut when its delay is below the serialisation of the
// smallest frame at its rate (the window would hold too little work to pay for its barrier). What is
// left are units; they are grouped by greedy graph growing (Karypis and Kumar, "A Fast and High
// Quality Multilevel Scheme for Partitioning Irregular Graphs", SIAM J. Sci. Comput. 1998, GGGP):
// each partition grows from the unassigned unit with the lowest id by the unit with the highest gain
// (links into the partition minus links elsewhere; the lowest id breaks ties) until it holds its
// share of the ports. On a fat tree this takes whole pods: an edge switch is reached through its
// pod's aggregation switches before any core switch, whose links lead to every pod.
//
// The window (lookahead) is the smallest time from the start of a frame on a cut link to its
// arrival: the smallest frame's serialisation plus the link's delay. Nothing here depends on
// anything but the scenario and the number of partitions asked for.
import { availableParallelism, loadavg } from 'node:os';
import { WIRE_OVERHEAD } from '../core/codes.js';
import { InputError } from '../errors/errors.js';
import type { Scenario } from '../scenario/scenario.js';

export interface Partitioning {
  /** Partitions (worker threads) of the run; 1 = the serial engine. */
  parts: number;
  /** The partition of each port. */
  owner: Uint8Array;
  /** The window, ps: the smallest frame's start-to-arrival time over the cut links (0 when parts = 1). */
  lookaheadPs: number;
  /** Why the run uses fewer partitions than asked for (absent when it uses them all). */
  note?: string;
}

/**
 * Work (ports x simulated time, port-ps) from which a run uses every core by default: about half a
 * second of one core on a loaded fat tree (k = 8, 768 ports: 200 us took 0.16 s), while starting a
 * worker thread costs 20-30 ms and each window's barrier some microseconds.
 */
export const AUTO_THREADS_WORK = 5e11;

/**
 * Threads a run uses when none are asked for: for a big enough run, the cores other processes are
 * not already using (the 1-minute load average; threads that share a core with another process
 * wait for it at every window's barrier), else 1.
 */
export function autoThreads(scn: Scenario, cores = availableParallelism(), load = loadavg()[0]): number {
  if (scn.ports.length * scn.duration_ps < AUTO_THREADS_WORK) return 1;
  return Math.max(1, Math.min(cores, Math.round(cores - load)));
}

/** A --threads value as given (run, sweep): a whole number from 1 to 255 (InputError naming the flag), or undefined. */
export function checkThreadsArg(n: number | undefined): number | undefined {
  if (n !== undefined && !(Number.isInteger(n) && n >= 1 && n <= 255)) throw new InputError({ path: '--threads', rule: `a whole number of threads from 1 to 255 (got ${n})` });
  return n;
}

/** Frames never shorter than this: the control frames (PFC, grants, CNMs, ACKs) and data alike. */
const SMALLEST_FRAME = 64;

/** Wire time of the smallest frame on port p, ps. */
export function smallestFrameTime(scn: Scenario, p: number): number {
  const nominal = (Math.min(SMALLEST_FRAME, scn.minFrame) + WIRE_OVERHEAD) * scn.ports[p].psPerByte;
  // A port clock up to clockPpb parts per 10^9 fast sends it sooner (assembly/sim/timing.ts), by
  // less than that fraction plus the 1 ps its carried remainder may round.
  const ppb = scn.timing.clockPpb;
  return ppb === 0 ? nominal : nominal - Math.ceil((nominal * ppb) / 1e9) - 1;
}

/** Partitions the fabric of `scn` into at most `asked` parts (see the file's header for the rules). */
export function partitionFabric(scn: Scenario, asked: number): Partitioning {
  const nPorts = scn.ports.length;
  const serial = (note?: string): Partitioning => ({ parts: 1, owner: new Uint8Array(nPorts), lookaheadPs: 0, note });
  if (asked <= 1) return serial();
  // Units: union-find over nodes joined by host links and by links too short to cut.
  const parent = scn.nodes.map((n) => n.id);
  const find = (x: number): number => { while (parent[x] !== x) { parent[x] = parent[parent[x]]; x = parent[x]; } return x; };
  const union = (a: number, b: number) => { const ra = find(a), rb = find(b); if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb); };
  for (const p of scn.ports) {
    const peerNode = scn.ports[p.peer].node;
    if (scn.nodes[p.node].isHost || scn.nodes[peerNode].isHost || p.delay_ps < smallestFrameTime(scn, p.id)) union(p.node, peerNode);
  }
  const unitOf = scn.nodes.map((n) => find(n.id));
  const units = [...new Set(unitOf)].sort((a, b) => a - b);
  if (scn.nodes.filter((n) => !n.isHost).length < 2) return serial('one switch: nothing to split');
  if (units.length < 2) return serial('every link between switches is shorter than a frame: no window would hold work');
  const parts = Math.min(asked, units.length, 255);

  // Unit graph: weight = ports, links between units with their multiplicity.
  const index = new Map(units.map((u, i) => [u, i]));
  const weight = new Array<number>(units.length).fill(0);
  const links = units.map(() => new Map<number, number>());
  for (const p of scn.ports) {
    const a = index.get(unitOf[p.node])!;
    const b = index.get(unitOf[scn.ports[p.peer].node])!;
    weight[a]++;
    if (a !== b) links[a].set(b, (links[a].get(b) ?? 0) + 1);
  }
  const degree = links.map((m) => [...m.values()].reduce((x, y) => x + y, 0));
  const total = weight.reduce((x, y) => x + y, 0);
  const partOf = new Int32Array(units.length).fill(-1);
  let assignedWeight = 0;
  let unassigned = units.length;
  for (let w = 0; w < parts - 1; w++) {
    const share = (total - assignedWeight) / (parts - w);
    // into[u]: links from unassigned unit u into partition w.
    const into = new Map<number, number>();
    let grown = 0;
    while (grown < share) {
      let best = -1, bestGain = -Infinity;
      for (const [u, n] of into) {
        const gain = 2 * n - degree[u];
        if (gain > bestGain || (gain === bestGain && u < best)) { best = u; bestGain = gain; }
      }
      if (best < 0) best = partOf.indexOf(-1); // a new seed: the lowest unassigned unit
      if (best < 0) break;
      partOf[best] = w;
      unassigned--;
      into.delete(best);
      grown += weight[best];
      for (const [v, n] of links[best]) if (partOf[v] < 0) into.set(v, (into.get(v) ?? 0) + n);
      // Leave at least one unit for each partition still to grow.
      if (unassigned <= parts - 1 - w) break;
    }
    assignedWeight += grown;
  }
  for (let u = 0; u < units.length; u++) if (partOf[u] < 0) partOf[u] = parts - 1;

  const owner = new Uint8Array(nPorts);
  let lookaheadPs = Infinity;
  for (const p of scn.ports) {
    owner[p.id] = partOf[index.get(unitOf[p.node])!];
    const peerPart = partOf[index.get(unitOf[scn.ports[p.peer].node])!];
    if (peerPart !== owner[p.id]) lookaheadPs = Math.min(lookaheadPs, p.delay_ps + smallestFrameTime(scn, p.id));
  }
  return { parts, owner, lookaheadPs, note: parts < asked ? `${parts} partitions (the fabric has ${units.length} units that can be split)` : undefined };
}
