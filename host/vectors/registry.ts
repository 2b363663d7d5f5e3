// Golden-vector generators, one per kernel (docs/design.md §5 `dcbkit vectors <kernel>`). A generator
// validates the whole stimulus first (so invalid input prints nothing), then yields one JSON object
// per output line. Each kernel's module registers itself in host/vectors/index.ts.
import type { z } from 'zod';

export interface VectorKernel<S extends z.ZodType = z.ZodType> {
  /** Kernel name on the command line: qcn-rp, qcn-cp, ets, pfc, credit. */
  name: string;
  /** One line for `--help`. */
  describe: string;
  /** Schema of the stimulus document; its messages become `path: rule` lines. */
  stimulus: S;
  /** Runs the kernel in the core over the validated stimulus, returning every output line. */
  run(stimulus: z.output<S>): object[];
}
