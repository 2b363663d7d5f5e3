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

/**
 * Partitions the fabric of `scn` into at most `asked` parts (see the file's header for the rules).
 * Held flat (typed arrays indexed by node, unit and port): it runs once per run on the main thread
 * while the workers wait, mostly cold, where iterating maps of maps ran interpreted (k = 16 fat tree).
 */
export function partitionFabric(scn: Scenario, asked: number): Partitioning {
  const nPorts = scn.ports.length;
  const serial = (note?: string): Partitioning => ({ parts: 1, owner: new Uint8Array(nPorts), lookaheadPs: 0, note });
  if (asked <= 1) return serial();
  const units = unitsOf(scn);
  let switches = 0;
  for (const n of scn.nodes) if (!n.isHost) switches++;
  if (switches < 2) return serial('one switch: nothing to split');
  if (units.count < 2) return serial('every link between switches is shorter than a frame: no window would hold work');
  const parts = Math.min(asked, units.count, 255);
  const partOf = growPartitions(unitGraph(scn, units), parts);

  const owner = new Uint8Array(nPorts);
  let lookaheadPs = Infinity;
  for (const p of scn.ports) {
    owner[p.id] = partOf[units.of[p.node]];
    if (partOf[units.of[p.peerNode]] !== owner[p.id]) lookaheadPs = Math.min(lookaheadPs, p.delay_ps + smallestFrameTime(scn, p.id));
  }
  return { parts, owner, lookaheadPs, note: parts < asked ? `${parts} partitions (the fabric has ${units.count} units that can be split)` : undefined };
}

/**
 * Units: nodes joined by host links and by links too short to cut (union-find; a set's root is its
 * lowest node id). `of[node]` is the unit's index, units numbered in the order of their roots.
 */
function unitsOf(scn: Scenario): { count: number; of: Int32Array } {
  const nNodes = scn.nodes.length;
  const parent = new Int32Array(nNodes);
  for (let n = 0; n < nNodes; n++) parent[n] = n;
  const find = (x: number): number => { while (parent[x] !== x) { parent[x] = parent[parent[x]]; x = parent[x]; } return x; };
  for (const p of scn.ports) {
    if (scn.nodes[p.node].isHost || scn.nodes[p.peerNode].isHost || p.delay_ps < smallestFrameTime(scn, p.id)) {
      const ra = find(p.node), rb = find(p.peerNode);
      if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
    }
  }
  // A root is below every other node of its set, so one pass in id order numbers the roots first.
  const of = new Int32Array(nNodes);
  let count = 0;
  for (let n = 0; n < nNodes; n++) of[n] = find(n) === n ? count++ : of[find(n)];
  return { count, of };
}

/**
 * The unit graph: each unit's weight (ports), and its links to other units as a row of far ends,
 * one per port (a pair of units joined by m links appears m times: the gains below count links).
 */
interface UnitGraph { count: number; weight: Int32Array; first: Int32Array; far: Int32Array }

function unitGraph(scn: Scenario, units: { count: number; of: Int32Array }): UnitGraph {
  const { count, of } = units;
  const weight = new Int32Array(count);
  const first = new Int32Array(count + 1);
  for (const p of scn.ports) {
    const a = of[p.node];
    weight[a]++;
    if (a !== of[p.peerNode]) first[a + 1]++;
  }
  for (let u = 0; u < count; u++) first[u + 1] += first[u];
  const far = new Int32Array(first[count]);
  const fill = first.slice(0, count);
  for (const p of scn.ports) {
    const a = of[p.node], b = of[p.peerNode];
    if (a !== b) far[fill[a]++] = b;
  }
  return { count, weight, first, far };
}

/**
 * Greedy graph growing (the file's header): partitions 0 .. parts-2 grow one at a time from the
 * lowest unassigned unit by the unit of highest gain (2 x links into the partition - all its links
 * to other units; the lowest index on a tie) until each holds its share of the ports; the last
 * partition takes what is left. The frontier is the unassigned units with a link into the growing
 * partition; `into` counts those links.
 */
function growPartitions(g: UnitGraph, parts: number): Int32Array {
  const { count, weight, first, far } = g;
  const degree = new Int32Array(count);
  let total = 0;
  for (let u = 0; u < count; u++) { degree[u] = first[u + 1] - first[u]; total += weight[u]; }
  const partOf = new Int32Array(count).fill(-1);
  const into = new Int32Array(count);
  const frontier = new Int32Array(count);
  let assignedWeight = 0;
  let unassigned = count;
  let lowest = 0; // no unit below it is unassigned
  for (let w = 0; w < parts - 1; w++) {
    const share = (total - assignedWeight) / (parts - w);
    let size = 0; // of the frontier
    let grown = 0;
    while (grown < share) {
      let at = -1, best = -1, bestGain = -Infinity;
      for (let i = 0; i < size; i++) {
        const u = frontier[i];
        const gain = 2 * into[u] - degree[u];
        if (gain > bestGain || (gain === bestGain && u < best)) { at = i; best = u; bestGain = gain; }
      }
      if (best >= 0) {
        frontier[at] = frontier[--size];
        into[best] = 0;
      } else {
        while (lowest < count && partOf[lowest] >= 0) lowest++;
        if (lowest === count) break;
        best = lowest; // a new seed
      }
      partOf[best] = w;
      unassigned--;
      grown += weight[best];
      for (let i = first[best]; i < first[best + 1]; i++) {
        const v = far[i];
        if (partOf[v] >= 0) continue;
        if (into[v] === 0) frontier[size++] = v;
        into[v]++;
      }
      // Leave at least one unit for each partition still to grow.
      if (unassigned <= parts - 1 - w) break;
    }
    for (let i = 0; i < size; i++) into[frontier[i]] = 0;
    assignedWeight += grown;
  }
  for (let u = 0; u < count; u++) if (partOf[u] < 0) partOf[u] = parts - 1;
  return partOf;
}
