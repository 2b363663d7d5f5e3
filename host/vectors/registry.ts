// Golden-vector generators, one per kernel (docs/design.md §5 `dcbkit vectors <kernel>`). A generator
// validates the whole stimulus first (so invalid input prints nothing), then yields one JSON object
// per output line. Each kernel's module registers itself in host/vectors/index.ts.
import type { z } from 'zod';
import type { Core } from '../core/loader.js';
import type { MemhLayout } from './memh.js';
import type { RegisterView } from './from-config.js';
import type { Rand } from './random.js';

export interface VectorKernel<S extends z.ZodType = z.ZodType> {
  /** Kernel name on the command line: qcn-rp, qcn-cp, ets, pfc, credit. */
  name: string;
  /** One line for `--help`. */
  describe: string;
  /** Schema of the stimulus document; its messages become `path: rule` lines. */
  stimulus: S;
  /** The stimulus keys (all but `events`) a config gives (`--config`): read from its register image,
   *  or from codegen's IR where the image has no block; `instance` is the one `select` chose.
   *  Absent: the kernel takes no config. */
  fromRegisters?(view: RegisterView, instance?: number): Record<string, unknown>;
  /** The one instance the kernel models when configured from a config (`--tc` or `--priority`). */
  select?: InstanceSelector;
  /** The stimulus's events bound to the selected instance (credit: every event of that priority). */
  bindEvents?(stimulus: Record<string, unknown>, instance: number): Record<string, unknown>;
  /** A valid random stimulus of n events (`--random`); `fixed` holds the keys fromRegisters gave. */
  random?(r: Rand, n: number, fixed?: Record<string, unknown>): Record<string, unknown>;
  /** What the output lines exercise, as named counts (the `--random` coverage line). */
  coverage?(stimulus: z.output<S>, lines: object[]): Record<string, number>;
  /** Runs the kernel over the validated stimulus, returning every output line. `core` defaults to a
   *  fresh release core; the differential test passes one that records every kernel call. */
  run(stimulus: z.output<S>, core?: Core): object[];
  /** The memh word layouts (host/vectors/memh.ts) of this stimulus, its output lines and the core
   *  they ran on (which holds the configuration the kernel derived). */
  memh(stimulus: z.output<S>, lines: object[], core: Core): MemhLayout;
}

/** How `--tc N` / `--priority P` picks the instance a kernel models from a config. */
export interface InstanceSelector {
  flag: 'tc' | 'priority';
  /** The instances the config enables for the kernel's function, ascending; the first is the default. */
  enabled(view: RegisterView): number[];
  /** What an instance not enabled lacks, completing "TC 3 ..." (e.g. "has no congestion point ..."). */
  lacks: string;
}
