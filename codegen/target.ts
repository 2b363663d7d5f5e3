// The contract every code-generation target implements: check what it cannot express (problems as
// `target: path: rule`), then emit files from the IR and list every lossy conversion it made.
import type { Ir, Quantisation } from './ir.js';
import type { Problem } from '../host/errors.js';

export interface Emitted {
  /** Path relative to the target's own folder -> contents. */
  files: Record<string, string | Uint8Array>;
  quantisation: Quantisation[];
  /** Legal but probably unintended consequences on the target, as `target: path: rule` (printed as warnings). */
  warnings?: Problem[];
}

export interface CodegenTarget {
  name: string;
  /** Problems with path prefixed `<target>: `; empty when the target can express the IR. */
  check(ir: Ir): Problem[];
  emit(ir: Ir): Emitted;
}

export function problem(target: string, path: string, rule: string): Problem {
  return { path: `${target}: ${path}`, rule };
}
