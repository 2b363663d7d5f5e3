// The per-kernel micro-benchmarks: batched driver exports of the core. Each driver runs its
// kernel's inlined per-packet function n times in one call; a kernel whose driver is not in this
// build is reported as missing, never faked.
//   ets_dwrr_select  etsBenchRun(n)               assembly/bench.ts, static state
//   pfc_accounting   pfcBenchRun(rec, items, n)   assembly/pfc.ts; items prepared here
//   qcn_cp_packet    qcnCpBenchRun(rec, lens, n)  assembly/qcn_exports.ts; lengths prepared here
import type { Core } from '../host/loader.js';

export type BoundKernel = { run: (n: number) => number } | { missing: string };

export interface KernelBench {
  name: string;
  /** What one operation is. */
  op: string;
  bind(core: Core, maxBatch: number): BoundKernel;
}

type Fn = (...args: never[]) => unknown;
function exportsOf(core: Core, names: string[]): Record<string, Fn> | string {
  const ex = core.exports as Record<string, unknown>;
  const missing = names.filter((n) => typeof ex[n] !== 'function');
  return missing.length ? `the core has no ${missing.join(', ')} export` : (ex as Record<string, Fn>);
}

/** Deterministic frame sizes 64..1500 B for the drivers' inputs (xorshift32, seed 1). */
function frameSizes(n: number): number[] {
  let x = 0x6d2b79f5;
  return Array.from({ length: n }, () => {
    x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0;
    return 64 + (x % 1437);
  });
}

export const kernelBenches: KernelBench[] = [
  {
    name: 'ets_dwrr_select',
    op: 'one DWRR/strict selection incl. deficit update (8 ETS TCs)',
    bind(core) {
      const ex = exportsOf(core, ['etsBenchSetup', 'etsBenchRun']);
      if (typeof ex === 'string') return { missing: ex };
      (ex.etsBenchSetup as () => void)();
      return { run: ex.etsBenchRun as (n: number) => number };
    },
  },
  {
    name: 'pfc_accounting',
    op: 'one PFC ingress accounting update (arrival or departure) + pending/blocked check',
    bind(core, maxBatch) {
      const ex = exportsOf(core, ['pfcInit', 'pfcSetThresholds', 'pfcBenchRun']);
      if (typeof ex === 'string') return { missing: ex };
      const rec = core.constant('SCRATCH');
      const items = rec + 1024;
      (ex.pfcInit as (r: number, m: number, e: number, p: number, s: bigint) => void)(rec, 1, 0x18, 0xffff, 100_000_000_000n);
      for (let p = 0; p < 8; p++) (ex.pfcSetThresholds as (r: number, u: number, a: number, b: number, c: number) => void)(rec, p, 30000, 15000, 20000);
      // Blocks of 32 arrivals then the same 32 departures: the occupancy returns to 0 every 64 items,
      // crossing XOFF/XON on the lossless priorities 3 and 4, so a batch can be replayed forever.
      const sizes = frameSizes(maxBatch);
      for (let i = 0; i < maxBatch; i++) {
        const block = i & ~63;
        const j = block + (i & 31);
        const prio = (j * 5) & 7;
        const depart = (i & 32) !== 0 ? 8 : 0;
        core.setI32(items + 8 * i, prio | depart | (sizes[j] << 16));
        core.setI32(items + 8 * i + 4, 6720);
      }
      const run = ex.pfcBenchRun as (r: number, it: number, n: number) => number;
      return { run: (n: number) => run(rec, items, n) };
    },
  },
  {
    name: 'qcn_cp_packet',
    op: 'one QCN CP per-packet path (enqueue with sample countdown + dequeue)',
    bind(core, maxBatch) {
      const ex = exportsOf(core, ['qcnCpInit', 'qcnCpBenchRun']);
      if (typeof ex === 'string') return { missing: ex };
      const rec = core.constant('SCRATCH') + 40000;
      const lens = rec + 1024;
      (ex.qcnCpInit as (r: number, q: number, w: number, qu: number, s: number, id: number) => void)(rec, 26000, 2, 0, 1, 0);
      core.setI32(rec + core.constant('QCN_CP_Q'), 30000); // above Qeq: samples produce CNMs
      frameSizes(maxBatch).forEach((s, i) => core.setI32(lens + 4 * i, s));
      const run = ex.qcnCpBenchRun as (r: number, l: number, n: number) => number;
      return { run: (n: number) => run(rec, lens, n) };
    },
  },
];
