// Field offsets of a kernel record, read once per core instance: the parameter writers write a few
// dozen fields per record, and a fat tree's set-up writes some 100,000 records (k = 16: 6,144 ports
// of a PFC unit, 8 credit receivers and 8 congestion points each), so looking every offset up by
// name at every write cost more than the writes themselves.
import type { Core } from '../loader.js';

/** The layout constants `names` of one record kind, resolved for the last core asked about. */
export class RecordFields<N extends string> {
  private core: Core | null = null;
  private offsets = {} as Record<N, number>;

  constructor(private readonly names: readonly N[]) {}

  /** The offsets in `core`'s layout (one comparison when it is the core of the last call). */
  of(core: Core): Record<N, number> {
    if (core !== this.core) {
      this.offsets = Object.fromEntries(this.names.map((name) => [name, core.constant(name)])) as Record<N, number>;
      this.core = core;
    }
    return this.offsets;
  }
}
