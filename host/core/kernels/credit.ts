// Configure protocol of the credit-based flow control record (assembly/credit.ts), the ETS way: the
// host writes the config fields (counter width, unit, receiver buffer, aging), then the core's
// creditConfigure resets both halves. Used by `vectors credit` (host/core/credit.ts), the tests and the
// simulator (host/sim/fabric-params.ts, then simInit).
import type { Core } from '../loader.js';

export interface CreditParams {
  /** Counter width k: counters are mod 2^k, 2..30. */
  k: number;
  /** Credit unit U, bytes. */
  unitBytes: number;
  /** Receiver buffer for this flow, units. */
  capacityUnits: number;
  /** Credits expire this long after their grant, ps (0 = never). */
  agingPs: bigint;
}

/** Writes the config fields of the credit record at `rec`; call creditConfigure (core) afterwards. */
export function writeCreditParams(core: Core, rec: number, p: CreditParams): void {
  const c = (name: string) => rec + core.constant(name);
  core.setI32(c('CREDIT_K'), p.k);
  core.setI32(c('CREDIT_UNIT'), p.unitBytes);
  core.setI32(c('CREDIT_CAPACITY'), p.capacityUnits);
  core.setI64(c('CREDIT_AGING_PS'), p.agingPs);
}
