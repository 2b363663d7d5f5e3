// Generator of k-ary fat-tree (3-tier Clos) scenarios: k pods of k/2 edge and k/2 aggregation
// switches, (k/2)^2 core switches, k/2 hosts per edge switch; 5k^2/4 switches, k^3/4 hosts.
// k = 28 gives 980 switches and 5,488 hosts (the memory check of docs/sim.md). Traffic: `flows`
// random host pairs (xorshift32 from the seed, DESIGN.md §2) on priority 3 (PFC) at line rate.
import type { ScenarioInput } from './scenario.js';

export interface ClosOptions { k: number; flows: number; seed?: number; duration?: string; speed?: string }

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
  let x = ((o.seed ?? 1) ^ 0x9e3779b9) >>> 0 || 0x6d2b79f5;
  const next = () => { x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0; return x; };
  const flows = [];
  for (let i = 0; i < o.flows; i++) {
    const s = next() % hosts.length;
    let d = next() % hosts.length;
    if (d === s) d = (d + 1) % hosts.length;
    flows.push({ src: hosts[s].name, dst: hosts[d].name, priority: 3, frames: 1500 });
  }
  return {
    name: `clos-k${k}`, seed: o.seed ?? 1, duration: o.duration ?? '20us', sample: '5us',
    defaults: {
      link: { speed: o.speed ?? '100G', cable: '10m' },
      buffer: { size: '16MB', headroom: 'auto' },
      dcb: {
        port: { mtu: 9216 },
        ets: { prio_tc: [0, 0, 1, 1, 2, 2, 3, 3], tsa: ['ets', 'ets', 'ets', 'strict', 'strict', 'strict', 'strict', 'strict'], bw: [40, 40, 20, 0, 0, 0, 0, 0] },
        pfc: { enable: [3] },
      },
    },
    hosts, switches, links, traffic: { flows },
    series: { ports: [], flows: [] },
  };
}
