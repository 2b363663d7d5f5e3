// NVIDIA ConnectX DCQCN parameters (ConnectX-4 and later; names of the mlx5 sysfs files
// /sys/class/net/<if>/ecn/roce_rp/* and roce_np/*, which mlxconfig spells in capitals with a port
// suffix) mapped onto the dcqcn reaction point of this model. Names, units, ranges and defaults
// are those of NVIDIA's "DCQCN CC Parameters" page (DOCA SDK documentation,
// https://networking-docs.nvidia.com/doca/archive/3-4-0/dcqcn-cc-parameters); docs/qcn.md gives the
// mapping and where the NIC and the model part.
//
// A name given in `qcn.rp.nvidia` overrides the model's default; a name left out takes the NIC's
// default (the block describes a ConnectX), except min_time_between_cnps, whose absence keeps the
// model's cnp_interval_ps. A model key and the NVIDIA name for the same parameter are never both
// accepted.
import { z } from 'zod';
import { intIn, mustBe, strictObject } from './fields.js';

const PS_PER_US = 1_000_000;
const BPS_PER_MBPS = 1_000_000;
/** rpg_byte_reset counts 64-byte units (32767 = 2 MiB, the NIC default). */
export const BYTE_RESET_UNIT = 64;

const flag01 = () => z.union([z.literal(0), z.literal(1), z.boolean()], { error: mustBe('0 or 1') }).transform((v) => v === 1 || v === true);

/** The accepted names with the vendor's units; `min_dec_fac` is the same parameter as rpg_min_dec_fac. */
export const nvidiaDcqcnSchema = strictObject({
  dce_tcp_g: intIn(0, 1023, 'a Q10 fraction (1024 - g x 1024)').optional(),
  dce_tcp_rtt: intIn(1, 131071, 'a time in us').optional(),
  initial_alpha_value: intIn(1, 1023, 'a Q10 fraction').optional(),
  rate_to_set_on_first_cnp: intIn(0, 1_600_000, 'a rate in Mb/s').optional(),
  rpg_min_dec_fac: intIn(0, 100, 'a percentage').optional(),
  min_dec_fac: intIn(0, 100, 'a percentage').optional(),
  rpg_min_rate: intIn(1, 1_600_000, 'a rate in Mb/s').optional(),
  rpg_gd: intIn(10, 16, 'a shift (11: the cut is alpha/2)').optional(),
  rpg_time_reset: intIn(1, 2 ** 32 - 1, 'a time in us').optional(),
  rpg_byte_reset: intIn(1, 2 ** 25 - 1, 'a count of 64-byte units').optional(),
  rpg_threshold: intIn(1, 255, 'a count').optional(),
  rpg_max_rate: intIn(0, 1_600_000, 'a rate in Mb/s (0: line rate)').optional(),
  rpg_ai_rate: intIn(1, 1_600_000, 'a rate in Mb/s').optional(),
  rpg_hai_rate: intIn(1, 1_600_000, 'a rate in Mb/s').optional(),
  clamp_tgt_rate: flag01().optional(),
  clamp_tgt_rate_after_time_inc: flag01().optional(),
  min_time_between_cnps: intIn(0, 4095, 'a time in us').optional(),
  rate_reduce_monitor_period: z.unknown().optional(),
});
export type NvidiaDcqcn = z.output<typeof nvidiaDcqcnSchema>;

/** The ConnectX defaults of the vendor page (the values a NIC runs when nothing is set). */
export const NVIDIA_DEFAULTS = {
  dce_tcp_g: 1019, dce_tcp_rtt: 1, initial_alpha_value: 1023, rate_to_set_on_first_cnp: 0, rpg_min_dec_fac: 50,
  rpg_min_rate: 1, rpg_gd: 11, rpg_time_reset: 300, rpg_byte_reset: 32767, rpg_threshold: 1, rpg_max_rate: 0,
  rpg_ai_rate: 5, rpg_hai_rate: 50, clamp_tgt_rate: false, clamp_tgt_rate_after_time_inc: true,
} as const;

/** Model parameters an NVIDIA block can set, in the model's units (the resolved dcqcn qcn.rp). */
export interface DcqcnModelParams {
  line_bps?: number; bc_bytes: number; timer_ps: number; th: number; ai_bps: number; hai_bps: number; min_bps: number;
  g_q24: number; alpha_timer_ps: number; alpha_init_q24: number; alpha_cut_shift: number; min_dec_pct: number;
  first_cnp_bps: number; clamp_tgt_rate: boolean; clamp_tgt_rate_after_time_inc: boolean; cnp_interval_ps?: number;
}

/** Which model key each NVIDIA name sets (for the "give one of the two" rule and for docs/qcn.md). */
export const NVIDIA_TO_MODEL: Record<Exclude<keyof NvidiaDcqcn, 'rate_reduce_monitor_period'>, string> = {
  dce_tcp_g: 'g_shift', dce_tcp_rtt: 'alpha_timer_ps', initial_alpha_value: 'alpha_init', rate_to_set_on_first_cnp: 'first_cnp_bps',
  rpg_min_dec_fac: 'min_dec_pct', min_dec_fac: 'min_dec_pct', rpg_min_rate: 'min_bps', rpg_gd: 'alpha_cut_shift',
  rpg_time_reset: 'timer_ps', rpg_byte_reset: 'bc_bytes', rpg_threshold: 'th', rpg_max_rate: 'line_bps', rpg_ai_rate: 'ai_bps',
  rpg_hai_rate: 'hai_bps', clamp_tgt_rate: 'clamp_tgt_rate', clamp_tgt_rate_after_time_inc: 'clamp_tgt_rate_after_time_inc',
  min_time_between_cnps: 'cnp_interval_ps',
};

/** Problems of a block on its own: the two spellings of one parameter, and what is not modelled. */
export function nvidiaBlockProblems(n: NvidiaDcqcn): { key: string; rule: string }[] {
  const out: { key: string; rule: string }[] = [];
  if (n.min_dec_fac !== undefined && n.rpg_min_dec_fac !== undefined) {
    out.push({ key: 'min_dec_fac', rule: 'is the same parameter as rpg_min_dec_fac; give one' });
  }
  if (n.rate_reduce_monitor_period !== undefined) {
    out.push({ key: 'rate_reduce_monitor_period', rule: 'is not modelled: every CNP cuts the rate when it arrives (docs/qcn.md); remove it' });
  }
  return out;
}

/** The model's parameters from an NVIDIA block, every name the block leaves out at its NIC default. */
export function fromNvidia(n: NvidiaDcqcn): DcqcnModelParams {
  const v = { ...NVIDIA_DEFAULTS, ...definedOnly(n) };
  const minDec = n.rpg_min_dec_fac ?? n.min_dec_fac ?? NVIDIA_DEFAULTS.rpg_min_dec_fac;
  const out: DcqcnModelParams = {
    bc_bytes: v.rpg_byte_reset * BYTE_RESET_UNIT,
    timer_ps: v.rpg_time_reset * PS_PER_US,
    th: v.rpg_threshold,
    ai_bps: v.rpg_ai_rate * BPS_PER_MBPS,
    hai_bps: v.rpg_hai_rate * BPS_PER_MBPS,
    min_bps: v.rpg_min_rate * BPS_PER_MBPS,
    // dce_tcp_g is 1 - g in Q10 (alpha = dce_tcp_g alpha / 1024 + 1024 - dce_tcp_g on a CNP).
    g_q24: (1024 - v.dce_tcp_g) * 2 ** 14,
    alpha_timer_ps: v.dce_tcp_rtt * PS_PER_US,
    alpha_init_q24: v.initial_alpha_value * 2 ** 14,
    alpha_cut_shift: v.rpg_gd - 10,
    min_dec_pct: minDec,
    first_cnp_bps: v.rate_to_set_on_first_cnp * BPS_PER_MBPS,
    clamp_tgt_rate: v.clamp_tgt_rate,
    clamp_tgt_rate_after_time_inc: v.clamp_tgt_rate_after_time_inc,
  };
  if (v.rpg_max_rate > 0) out.line_bps = v.rpg_max_rate * BPS_PER_MBPS;
  if (n.min_time_between_cnps !== undefined) out.cnp_interval_ps = n.min_time_between_cnps * PS_PER_US;
  return out;
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, x]) => x !== undefined)) as Partial<T>;
}
