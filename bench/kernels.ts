// The per-kernel micro-benchmarks: batched driver exports of the core. Each driver runs its
// kernel's inlined per-packet function n times in one call; a kernel whose driver is not in this
// build is reported as missing, never faked.
//   ets_dwrr_select  etsBenchRun(n)               assembly/bench/ets.ts, static state
//   pfc_accounting   pfcBenchSetup() + pfcBenchRun(n)   assembly/bench/pfc.ts
//   pfc_accounting_only  pfcBenchSetup() + pfcBenchRunAccounting(n) (no blocked-mask query)
//   credit_send      creditBenchSetup() + creditBenchRun(n)   assembly/credit.ts
//   qcn_cp_packet    qcnCpBenchSetup() + qcnCpBenchRun(n), or qcnCpBenchRun(rec, lens, n) over
//                    a CP record and frame lengths prepared here (assembly/bench/qcn.ts)
import type { Core } from '../host/core/loader.js';

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
    bind(core) {
      const ex = exportsOf(core, ['pfcBenchSetup', 'pfcBenchRun']);
      if (typeof ex === 'string') return { missing: ex };
      (ex.pfcBenchSetup as () => void)();
      return { run: ex.pfcBenchRun as (n: number) => number };
    },
  },
  {
    name: 'pfc_accounting_only',
    op: 'one PFC ingress accounting update (arrival or departure) + pending check, without the egress blocked-mask query',
    bind(core) {
      const ex = exportsOf(core, ['pfcBenchSetup', 'pfcBenchRunAccounting']);
      if (typeof ex === 'string') return { missing: ex };
      (ex.pfcBenchSetup as () => void)();
      return { run: ex.pfcBenchRunAccounting as (n: number) => number };
    },
  },
  {
    name: 'credit_send',
    op: 'one credit-checked frame (send test incl. aging, receive, drain; a sync + grant every 64)',
    bind(core) {
      const ex = exportsOf(core, ['creditBenchSetup', 'creditBenchRun']);
      if (typeof ex === 'string') return { missing: ex };
      (ex.creditBenchSetup as () => void)();
      return { run: ex.creditBenchRun as (n: number) => number };
    },
  },
  {
    name: 'qcn_cp_packet',
    op: 'one QCN CP per-packet path (enqueue with sample countdown + dequeue)',
    bind(core, maxBatch) {
      const ex = exportsOf(core, ['qcnCpBenchRun']);
      if (typeof ex === 'string') return { missing: ex };
      // Harness shape: qcnCpBenchSetup() + qcnCpBenchRun(n).
      if (typeof ex.qcnCpBenchSetup === 'function' && ex.qcnCpBenchRun.length === 1) {
        (ex.qcnCpBenchSetup as () => void)();
        return { run: ex.qcnCpBenchRun as (n: number) => number };
      }
      // Kernel shape: qcnCpBenchRun(rec, lens, n) over a record and lengths prepared here.
      if (typeof ex.qcnCpInit !== 'function') return { missing: 'the core has no qcnCpInit export' };
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
