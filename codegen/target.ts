// The contract every code-generation target implements: check what it cannot express (problems as
// `target: path: rule`), then emit files from the IR and list every lossy conversion it made.
import type { Ir, Quantisation } from './ir.js';
import type { Problem } from '../host/errors/errors.js';

export interface Emitted {
  /** Path relative to the target's own folder -> contents. */
  files: Record<string, string | Uint8Array>;
  quantisation: Quantisation[];
  /** Legal but probably unintended consequences on the target, as `target: path: rule` (printed as warnings). */
  warnings?: Problem[];
}

/** Per-run settings that are not part of the config (each read by one target). */
export interface EmitOptions {
  /** P4Runtime device_id of the p4 write_request (BMv2 --device-id; default 0). */
  deviceId?: number;
  /** dpdk: the largest rte_sched WRR share error accepted, in percentage points (default 1). */
  maxShareErrorPp?: number;
  /** dpdk: the APIs to emit for, rte_sched and/or rte_tm (default both). */
  dpdkApi?: ('sched' | 'tm')[];
}

export interface CodegenTarget {
  name: string;
  /** Problems with path prefixed `<target>: `; empty when the target can express the IR. */
  check(ir: Ir, opts?: EmitOptions): Problem[];
  emit(ir: Ir, opts?: EmitOptions): Emitted;
}

export function problem(target: string, path: string, rule: string): Problem {
  return { path: `${target}: ${path}`, rule };
}
