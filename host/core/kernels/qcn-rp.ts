// Configure protocol of the QCN / DCQCN reaction point (assembly/qcn_rp.ts), the ETS way: the host
// writes the record's parameter fields, then the core's qcnRpConfigure resets the state from them
// (the simulator calls it in simInit, the vectors command directly). The one place that knows
// which field holds which parameter; `vectors qcn-rp` and the simulator (host/sim/run.ts) both use it.
import type { Core } from '../loader.js';
import type { QcnRpCommon } from '../../config/types.js';
import { RecordFields } from './fields.js';

/** Parameters of one rate limiter (docs/design.md §4.5 names; rates bit/s, times ps, sizes bytes). */
export interface RpParams extends QcnRpCommon {
  profile: 'qau-pc' | 'dcqcn';
  /**
   * qau-pc: Gd = 2^-gd_shift and the minimum decrease factor min_dec_num / 2^gd_shift.
   * dcqcn: a CNP cuts CR by (CR * alpha) >> gd_shift (alpha_bits + 1: alpha / 2); min_dec_num unused.
   */
  gd_shift: number;
  min_dec_num: number;
  /** QCN_RP_F_* mask. */
  flags: number;
  /**
   * dcqcn only (0 for qau-pc): alpha decay period; the fraction bits of alpha (10..24); EWMA gain g
   * and initial alpha in that fixed point (2^alpha_bits = 1); the smallest share of CR a cut leaves,
   * in % (0: none); the rate set by the CNP that engages the limiter (0: an ordinary cut).
   */
  alpha_timer_ps: number;
  alpha_bits: number;
  g: number;
  alpha_init: number;
  min_dec_pct: number;
  first_cnp_bps: number;
}

/** Fraction bits of alpha: 20 by default (decay neither stalls nor collapses); 10 is the NIC's Q10. */
export const ALPHA_BITS_DEFAULT = 20;
export const ALPHA_BITS_MIN = 10;
export const ALPHA_BITS_MAX = 24;

/** The dcqcn model parameters the record's dcqcn fields come from (a resolved qcn.rp, or vectors params). */
export interface DcqcnModel {
  alpha_bits: number;
  /** g and the initial alpha as fractions of one (multiples of 2^-24) */
  g: number;
  alpha_init: number;
  alpha_timer_ps: number;
  alpha_cut_shift: number;
  min_dec_pct: number;
  first_cnp_bps: number;
  clamp_tgt_rate: boolean;
  clamp_tgt_rate_after_time_inc: boolean;
}

/**
 * The record fields of a dcqcn limiter: g and alpha_init in the alpha_bits fixed point (rounded
 * down, as every product in the core), the cut shift, and the QCN_RP_F_* bits of the ConnectX
 * target-rate rules (clamp_tgt_rate: TR = CR on every CNP, the paper's rule; without it TR = CR
 * only after a byte-counter increase since the last cut, or any increase with
 * clamp_tgt_rate_after_time_inc). `constant` reads the core's layout constants.
 */
export function dcqcnKernelFields(m: DcqcnModel, constant: (name: string) => number) {
  const one = 2 ** m.alpha_bits;
  const flags = m.clamp_tgt_rate ? 0
    : constant('QCN_RP_F_TR_HOLD') | (m.clamp_tgt_rate_after_time_inc ? constant('QCN_RP_F_TR_AFTER_TIMER') : 0);
  return {
    gd_shift: m.alpha_bits + m.alpha_cut_shift, min_dec_num: 0, flags,
    alpha_timer_ps: m.alpha_timer_ps, alpha_bits: m.alpha_bits, g: Math.floor(m.g * one), alpha_init: Math.floor(m.alpha_init * one),
    min_dec_pct: m.min_dec_pct, first_cnp_bps: m.first_cnp_bps,
  };
}

/** The qau-pc rows of RpParams' dcqcn-only fields. */
export const NO_DCQCN_FIELDS = { alpha_timer_ps: 0, alpha_bits: 0, g: 0, alpha_init: 0, min_dec_pct: 0, first_cnp_bps: 0 } as const;

/** Writes the parameter fields of the RP record at `rec`; call qcnRpConfigure (core) afterwards. */
export function writeRpParams(core: Core, rec: number, p: RpParams): void {
  const f = RP_FIELDS.of(core);
  const i32 = core.i32;
  const i64 = core.i64;
  const w64 = (at: number, v: number) => { i64[(rec + at) >>> 3] = BigInt(v); };
  const w32 = (at: number, v: number) => { i32[(rec + at) >>> 2] = v | 0; };
  const dcqcn = p.profile === 'dcqcn';
  w64(f.QCN_RP_LINE_BPS, p.line_bps);
  w32(f.QCN_RP_BC_BYTES, p.bc_bytes);
  w64(f.QCN_RP_TIMER_PS, p.timer_ps);
  w32(f.QCN_RP_TH, p.th);
  w64(f.QCN_RP_AI_BPS, p.ai_bps);
  w64(f.QCN_RP_HAI_BPS, p.hai_bps);
  w64(f.QCN_RP_MIN_BPS, p.min_bps);
  w32(f.QCN_RP_GD_SHIFT, p.gd_shift);
  w32(f.QCN_RP_MIN_DEC_NUM, p.min_dec_num);
  w32(f.QCN_RP_FLAGS, p.flags);
  w32(f.QCN_RP_PROFILE, dcqcn ? f.RP_DCQCN : f.RP_QAU_PC);
  w64(f.QCN_RP_ALPHA_PS, dcqcn ? p.alpha_timer_ps : 0);
  w32(f.QCN_RP_ALPHA_BITS, dcqcn ? p.alpha_bits : 0);
  w32(f.QCN_RP_G, dcqcn ? p.g : 0);
  w32(f.QCN_RP_ALPHA_INIT, dcqcn ? p.alpha_init : 0);
  w32(f.QCN_RP_MIN_DEC_PCT, dcqcn ? p.min_dec_pct : 0);
  w64(f.QCN_RP_FIRST_CNP_BPS, dcqcn ? p.first_cnp_bps : 0);
}

const RP_FIELDS = new RecordFields([
  'QCN_RP_LINE_BPS', 'QCN_RP_BC_BYTES', 'QCN_RP_TIMER_PS', 'QCN_RP_TH', 'QCN_RP_AI_BPS', 'QCN_RP_HAI_BPS', 'QCN_RP_MIN_BPS',
  'QCN_RP_GD_SHIFT', 'QCN_RP_MIN_DEC_NUM', 'QCN_RP_FLAGS', 'QCN_RP_PROFILE', 'RP_DCQCN', 'RP_QAU_PC', 'QCN_RP_ALPHA_PS',
  'QCN_RP_ALPHA_BITS', 'QCN_RP_G', 'QCN_RP_ALPHA_INIT', 'QCN_RP_MIN_DEC_PCT', 'QCN_RP_FIRST_CNP_BPS',
] as const);

/** Writes the CNP spacing of the DCQCN notification point at `rec`; call dcqcnNpConfigure afterwards. */
export function writeNpParams(core: Core, rec: number, spacingPs: number): void {
  core.setI64(rec + core.constant('DCQCN_NP_SPACING_PS'), BigInt(spacingPs));
}
