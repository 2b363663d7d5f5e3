// Configure protocol of the congestion points (assembly/qcn_cp.ts), the ETS way: the host writes
// the record's parameters, then the core's qcnCpConfigure (802.1Qau, qau-pc) or dcqcnCpConfigure
// (DCQCN ECN marking) derives the rest and seeds the record's random stream. Used by
// `vectors qcn-cp` (host/vectors/qcn-cp.ts) and the simulator (host/sim/fabric-params.ts, then simInit).
import type { Core } from '../loader.js';
import { QUANT_CODE, type QcnQuantiser } from '../codes.js';

/** qau-pc: set point Qeq (bytes), weight w and Fb quantiser. */
export interface QcnCpParams { q_eq: number; w: number; quantiser: QcnQuantiser }
/** dcqcn: marking thresholds (bytes) and the probability at Kmax in Q16 (65536 = 1). */
export interface DcqcnCpParams { kmin: number; kmax: number; pmax_q16: number }

/** Writes a qau-pc CP's parameters at `rec`; call qcnCpConfigure (core) afterwards. */
export function writeQcnCpParams(core: Core, rec: number, p: QcnCpParams): void {
  core.setI32(rec + core.constant('QCN_CP_Q_EQ'), p.q_eq);
  core.setI32(rec + core.constant('QCN_CP_W'), p.w);
  core.setI32(rec + core.constant('QCN_CP_QUANT'), QUANT_CODE[p.quantiser]);
}

/** Writes a dcqcn CP's parameters at `rec`; call dcqcnCpConfigure (core) afterwards. */
export function writeDcqcnCpParams(core: Core, rec: number, p: DcqcnCpParams): void {
  core.setI32(rec + core.constant('DCQCN_CP_KMIN'), p.kmin);
  core.setI32(rec + core.constant('DCQCN_CP_KMAX'), p.kmax);
  core.setI32(rec + core.constant('DCQCN_CP_PMAX'), p.pmax_q16);
}
