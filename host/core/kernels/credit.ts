// Configure protocol of the credit-based flow control record (assembly/credit.ts), the ETS way: the
// host writes the config fields (counter width, unit, receiver buffer, aging), then the core's
// creditConfigure resets both halves. Used by `vectors credit` (host/core/credit.ts), the tests and the
// simulator (host/sim/fabric-params.ts, then simInit).
import type { Core } from '../loader.js';
import { RecordFields } from './fields.js';

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
  const f = CREDIT_FIELDS.of(core);
  const i32 = core.i32;
  i32[(rec + f.CREDIT_K) >>> 2] = p.k;
  i32[(rec + f.CREDIT_UNIT) >>> 2] = p.unitBytes;
  i32[(rec + f.CREDIT_CAPACITY) >>> 2] = p.capacityUnits;
  core.i64[(rec + f.CREDIT_AGING_PS) >>> 3] = p.agingPs;
}

const CREDIT_FIELDS = new RecordFields(['CREDIT_K', 'CREDIT_UNIT', 'CREDIT_CAPACITY', 'CREDIT_AGING_PS'] as const);
