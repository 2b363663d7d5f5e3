// Configure protocol of the QCN / DCQCN reaction point (assembly/qcn_rp.ts), the ETS way: the host
// writes the record's parameter fields, then the core's qcnRpConfigure resets the state from them
// (the simulator calls it in simInit, the vectors command directly). The one place that knows
// which field holds which parameter; `vectors qcn-rp` and the simulator (host/sim/run.ts) both use it.
import type { Core } from '../loader.js';
import type { QcnRpCommon } from '../config/types.js';

/** Parameters of one rate limiter (docs/design.md §4.5 names; rates bit/s, times ps, sizes bytes). */
export interface RpParams extends QcnRpCommon {
  profile: 'qau-pc' | 'dcqcn';
  /** qau-pc: Gd = 2^-gd_shift and the minimum decrease factor min_dec_num / 2^gd_shift. */
  gd_shift: number;
  min_dec_num: number;
  /** QCN_RP_F_* mask. */
  flags: number;
  /** dcqcn only (0 for qau-pc): alpha decay period, EWMA gain g and initial alpha, both Q10. */
  alpha_timer_ps: number;
  g_q10: number;
  alpha_init_q10: number;
}

/** Writes the parameter fields of the RP record at `rec`; call qcnRpConfigure (core) afterwards. */
export function writeRpParams(core: Core, rec: number, p: RpParams): void {
  const c = (name: string) => rec + core.constant(name);
  const i64 = (name: string, v: number) => core.setI64(c(name), BigInt(v));
  const i32 = (name: string, v: number) => core.setI32(c(name), v | 0);
  const dcqcn = p.profile === 'dcqcn';
  i64('QCN_RP_LINE_BPS', p.line_bps);
  i32('QCN_RP_BC_BYTES', p.bc_bytes);
  i64('QCN_RP_TIMER_PS', p.timer_ps);
  i32('QCN_RP_TH', p.th);
  i64('QCN_RP_AI_BPS', p.ai_bps);
  i64('QCN_RP_HAI_BPS', p.hai_bps);
  i64('QCN_RP_MIN_BPS', p.min_bps);
  i32('QCN_RP_GD_SHIFT', p.gd_shift);
  i32('QCN_RP_MIN_DEC_NUM', p.min_dec_num);
  i32('QCN_RP_FLAGS', p.flags);
  i32('QCN_RP_PROFILE', core.constant(dcqcn ? 'RP_DCQCN' : 'RP_QAU_PC'));
  i64('QCN_RP_ALPHA_PS', dcqcn ? p.alpha_timer_ps : 0);
  i32('QCN_RP_G_Q10', dcqcn ? p.g_q10 : 0);
  i32('QCN_RP_ALPHA_INIT', dcqcn ? p.alpha_init_q10 : 0);
}

/** Writes the CNP spacing of the DCQCN notification point at `rec`; call dcqcnNpConfigure afterwards. */
export function writeNpParams(core: Core, rec: number, spacingPs: number): void {
  core.setI64(rec + core.constant('DCQCN_NP_SPACING_PS'), BigInt(spacingPs));
}
