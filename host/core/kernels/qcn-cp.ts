// Configure protocol of the congestion points (assembly/qcn_cp.ts), the ETS way: the host writes
// the record's parameters, then the core's qcnCpConfigure (802.1Qau, qau-pc) or dcqcnCpConfigure
// (DCQCN ECN marking) derives the rest and seeds the record's random stream. Used by
// `vectors qcn-cp` (host/vectors/qcn-cp.ts) and the simulator (host/sim/fabric-params.ts, then simInit).
import type { Core } from '../loader.js';
import { QUANT_CODE, type QcnQuantiser } from '../codes.js';
import { RecordFields } from './fields.js';

/** qau-pc: set point Qeq (bytes), weight w and Fb quantiser. */
export interface QcnCpParams { q_eq: number; w: number; quantiser: QcnQuantiser }
/** dcqcn: marking thresholds (bytes) and the probability at Kmax in Q16 (65536 = 1). */
export interface DcqcnCpParams { kmin: number; kmax: number; pmax_q16: number }

/** Writes a qau-pc CP's parameters at `rec`; call qcnCpConfigure (core) afterwards. */
export function writeQcnCpParams(core: Core, rec: number, p: QcnCpParams): void {
  const f = QCN_CP_FIELDS.of(core);
  const i32 = core.i32;
  i32[(rec + f.QCN_CP_Q_EQ) >>> 2] = p.q_eq;
  i32[(rec + f.QCN_CP_W) >>> 2] = p.w;
  i32[(rec + f.QCN_CP_QUANT) >>> 2] = QUANT_CODE[p.quantiser];
}

/** Writes a dcqcn CP's parameters at `rec`; call dcqcnCpConfigure (core) afterwards. */
export function writeDcqcnCpParams(core: Core, rec: number, p: DcqcnCpParams): void {
  const f = DCQCN_CP_FIELDS.of(core);
  const i32 = core.i32;
  i32[(rec + f.DCQCN_CP_KMIN) >>> 2] = p.kmin;
  i32[(rec + f.DCQCN_CP_KMAX) >>> 2] = p.kmax;
  i32[(rec + f.DCQCN_CP_PMAX) >>> 2] = p.pmax_q16;
}

const QCN_CP_FIELDS = new RecordFields(['QCN_CP_Q_EQ', 'QCN_CP_W', 'QCN_CP_QUANT'] as const);
const DCQCN_CP_FIELDS = new RecordFields(['DCQCN_CP_KMIN', 'DCQCN_CP_KMAX', 'DCQCN_CP_PMAX'] as const);
