// The per-kernel micro-benchmarks: batched driver exports of the core (assembly/bench.ts and the
// kernels' own *BenchRun exports). Each driver runs its kernel's per-packet function n times in
// one call; a kernel whose driver is not in this build is reported as missing, not faked.
import type { Core } from '../host/loader.js';

export interface KernelBench {
  /** Name in the report. */
  name: string;
  /** What one operation is. */
  op: string;
  /** Export names: optional setup (no arguments), batched run (n) -> checksum. */
  setup?: string;
  run: string;
}

export const kernelBenches: KernelBench[] = [
  { name: 'ets_dwrr_select', op: 'one DWRR/strict selection incl. deficit update (8 ETS TCs)', setup: 'etsBenchSetup', run: 'etsBenchRun' },
  { name: 'pfc_accounting', op: 'one PFC ingress accounting update (enqueue or dequeue)', setup: 'pfcBenchSetup', run: 'pfcBenchRun' },
  { name: 'qcn_cp_packet', op: 'one QCN CP per-packet path (enqueue sample check + dequeue)', setup: 'qcnCpBenchSetup', run: 'qcnCpBenchRun' },
];

/** A driver bound to a core instance, or the reason it cannot run. */
export function bindKernel(core: Core, k: KernelBench): { run: (n: number) => number } | { missing: string } {
  const ex = core.exports as Record<string, unknown>;
  if (typeof ex[k.run] !== 'function') return { missing: `the core has no ${k.run} export` };
  if (k.setup && typeof ex[k.setup] === 'function') (ex[k.setup] as () => void)();
  return { run: ex[k.run] as (n: number) => number };
}
