// Generator of k-ary fat-tree (3-tier Clos) scenarios: k pods of k/2 edge and k/2 aggregation
// switches, (k/2)^2 core switches, k/2 hosts per edge switch; 5k^2/4 switches, k^3/4 hosts.
// k = 28 gives 980 switches and 5,488 hosts (the memory check of docs/sim.md). Traffic on
// priority 3 (PFC) at line rate, host choices from xorshift32 seeded by `seed` (docs/design.md §2):
//   random       `flows` independent random (source, destination) pairs, source != destination
//   permutation  the hosts in a random order, host order[i] sending to order[i+1] (a cycle: every
//                host sends at most once and receives at most once); flows <= hosts
//   incast       one random destination, `flows` distinct random senders; flows <= hosts - 1
import type { ScenarioInput } from './scenario.js';

export const CLOS_PATTERNS = ['random', 'permutation', 'incast'] as const;
export type ClosPattern = (typeof CLOS_PATTERNS)[number];

export interface ClosOptions {
  k: number; flows: number; seed?: number; duration?: string; speed?: string; pattern?: ClosPattern;
  /** Sampling interval; omitted: the scenario default (duration / 200). */
  sample?: string;
}

/** Hosts of a k-ary fat tree (for flag checks before building). */
export function closHostCount(k: number): number {
  return (k * k * k) / 4;
}

/** Random traffic: at most this many flows per host on average, and this many in all (a run keeps
 *  a 368-byte record per flow in its 4 GB memory, and the YAML grows about 80 bytes a flow). */
export const CLOS_RANDOM_FLOWS_PER_HOST = 64;
export const CLOS_MAX_FLOWS = 1_000_000;

/** Largest flow count `pattern` allows on `hosts` hosts. */
export function closMaxFlows(pattern: ClosPattern, hosts: number): number {
  if (pattern === 'random') return Math.min(CLOS_RANDOM_FLOWS_PER_HOST * hosts, CLOS_MAX_FLOWS);
  return pattern === 'permutation' ? hosts : hosts - 1;
}

function xorshift32(seed: number): () => number {
  let x = (seed ^ 0x9e3779b9) >>> 0 || 0x6d2b79f5;
  return () => { x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0; return x; };
}

/** Host indices in a random order (Fisher-Yates driven by `next`). */
function shuffled(n: number, next: () => number): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = next() % (i + 1);
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

/** (source, destination) host index pairs of the traffic pattern. */
function flowPairs(pattern: ClosPattern, flows: number, hosts: number, next: () => number): [number, number][] {
  if (flows > closMaxFlows(pattern, hosts)) throw new Error(`${pattern}: at most ${closMaxFlows(pattern, hosts)} flows on ${hosts} hosts`);
  const pairs: [number, number][] = [];
  if (pattern === 'random') {
    for (let i = 0; i < flows; i++) {
      const s = next() % hosts;
      let d = next() % hosts;
      if (d === s) d = (d + 1) % hosts;
      pairs.push([s, d]);
    }
  } else if (pattern === 'permutation') {
    const order = shuffled(hosts, next);
    for (let i = 0; i < flows; i++) pairs.push([order[i], order[(i + 1) % hosts]]);
  } else {
    const order = shuffled(hosts, next);
    const dst = order[0];
    for (let i = 1; i <= flows; i++) pairs.push([order[i], dst]);
  }
  return pairs;
}

export function closScenario(o: ClosOptions): ScenarioInput {
  const k = o.k;
  if (k < 2 || k % 2 !== 0) throw new Error('k must be even and >= 2');
  const half = k / 2;
  const hosts: { name: string }[] = [];
  const switches: { name: string }[] = [];
  const links: { a: string; b: string }[] = [];
  for (let c = 0; c < half * half; c++) switches.push({ name: `core${c}` });
  for (let p = 0; p < k; p++) {
    for (let a = 0; a < half; a++) {
      switches.push({ name: `agg${p}_${a}` });
      for (let c = 0; c < half; c++) links.push({ a: `agg${p}_${a}`, b: `core${a * half + c}` });
    }
    for (let e = 0; e < half; e++) {
      switches.push({ name: `edge${p}_${e}` });
      for (let a = 0; a < half; a++) links.push({ a: `edge${p}_${e}`, b: `agg${p}_${a}` });
      for (let h = 0; h < half; h++) {
        const name = `h${p}_${e}_${h}`;
        hosts.push({ name });
        links.push({ a: name, b: `edge${p}_${e}` });
      }
    }
  }
  const pairs = flowPairs(o.pattern ?? 'random', o.flows, hosts.length, xorshift32(o.seed ?? 1));
  const flows = pairs.map(([s, d]) => ({ src: hosts[s].name, dst: hosts[d].name, priority: 3, frames: 1500 }));
  return {
    name: `clos-k${k}`, seed: o.seed ?? 1, duration: o.duration ?? '20us', ...(o.sample === undefined ? {} : { sample: o.sample }),
    defaults: {
      link: { speed: o.speed ?? '100G', cable: '10m' },
      buffer: { size: '16MB', headroom: 'auto' },
      dcb: {
        port: { mtu: 9216 },
        ets: { prio_tc: [0, 0, 0, 1, 2, 2, 3, 3], tsa: ['ets', 'ets', 'ets', 'strict', 'strict', 'strict', 'strict', 'strict'], bw: [40, 40, 20, 0, 0, 0, 0, 0] },
        pfc: { enable: [3] },
      },
    },
    hosts, switches, links, traffic: { flows },
    series: { ports: [], flows: [] },
  };
}
