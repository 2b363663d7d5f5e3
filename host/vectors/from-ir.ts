// `dcbkit vectors qcn-rp|credit --config CONFIG [--priority P]`: the reaction point's and the credit
// loop's parameters from the config, through the IR codegen builds (codegen/ir.ts). The register
// image has no block for either (a reaction point is the NIC's rate limiter, and credit-based flow
// control has no register in the map), so these kernels are configured exactly as the simulator
// configures them from the same config sections, and the manifest still names the config, the port
// and the image of that config.
//
// qcn-rp: qcn.rp as resolved by the config schema (profile defaults, NVIDIA names); line_bps
// absent means the port's speed. The kernel holds dcqcn's g and initial alpha in 1/1024, so a value
// finer than that is refused rather than rounded.
// credit: k = credit.counter_bits, unit = credit.unit, aging = credit.aging_us, and the receiver
// buffer is the port's headroom (about one round trip; Reinemo et al. 2010), sized as codegen sizes a
// lossless priority group's: pfc.headroom when given in bytes, else the headroom model, in whole cells.
import { headroomFromModel } from '../../codegen/index.js';
import { roundUpTo } from '../../codegen/ir.js';
import { InputError } from '../errors/errors.js';
import type { RegisterView } from './from-config.js';

const sorted = (xs: readonly number[]) => [...xs].sort((a, b) => a - b);

/** Priorities with a reaction point: those with a congestion point (qcn.cp.priorities), whose CNMs or CNPs it reacts to. */
export const prioritiesWithRp = (v: RegisterView) => sorted(v.config.qcn.cp.priorities);

/** Priorities under credit-based flow control (credit.priorities). */
export const prioritiesWithCredit = (v: RegisterView) => sorted(v.config.credit.priorities);

/** `value` in 1/1024, or an InputError naming the config key when it is finer than that. */
function q10(value: number, key: string): number {
  const q = value * 1024;
  if (!Number.isInteger(q)) throw new InputError({ path: '--config', rule: `qcn.rp.${key} = ${value} is finer than 1/1024, the unit of the qcn-rp kernel's ${key}_q10` });
  return q;
}

/** The qcn-rp `params` of the config's qcn.rp at the view's port. */
export function qcnRpFromConfig(v: RegisterView): Record<string, unknown> {
  const rp = v.config.qcn.rp;
  const common = {
    line_bps: rp.line_bps ?? v.ir.ports[v.portIndex].speedBps,
    bc_bytes: rp.bc_bytes, timer_ps: rp.timer_ps, th: rp.th, ai_bps: rp.ai_bps, hai_bps: rp.hai_bps, min_bps: rp.min_bps,
  };
  if (rp.profile === 'qau-pc') {
    return { params: { profile: 'qau-pc', ...common, gd_shift: rp.gd_shift, min_dec_num: rp.min_dec_num, extra_fast_recovery: rp.extra_fast_recovery } };
  }
  return {
    params: {
      profile: 'dcqcn', ...common,
      alpha_timer_ps: rp.alpha_timer_ps, alpha_bits: rp.alpha_bits, g_q10: q10(rp.g, 'g'), alpha_init_q10: q10(rp.alpha_init, 'alpha_init'),
      alpha_cut_shift: rp.alpha_cut_shift, min_dec_pct: rp.min_dec_pct, first_cnp_bps: rp.first_cnp_bps,
      clamp_tgt_rate: rp.clamp_tgt_rate, clamp_tgt_rate_after_time_inc: rp.clamp_tgt_rate_after_time_inc,
      cnp_spacing_ps: rp.cnp_interval_ps,
    },
  };
}

/** Widest modulo-2^k counter the credit kernel takes. */
export const CREDIT_K_MAX = 30;

/** The credit `params` of the config's credit section at the view's port. */
export function creditFromConfig(v: RegisterView): Record<string, unknown> {
  const c = v.config.credit;
  if (c.counter_bits > CREDIT_K_MAX) throw new InputError({ path: '--config', rule: `credit.counter_bits = ${c.counter_bits}: the credit kernel's counters are at most ${CREDIT_K_MAX} bits` });
  const port = v.ir.ports[v.portIndex];
  const fixed = typeof v.config.pfc.headroom === 'number' ? v.config.pfc.headroom : undefined;
  const headroom = fixed ?? headroomFromModel({ speedBps: port.speedBps, cableM: port.cableM, mtu: v.ir.mtu, profile: v.device.headroom_profile });
  return { params: { k: c.counter_bits, unit: c.unit, buffer_bytes: roundUpTo(headroom, v.ir.cellBytes), aging_ps: c.aging_us * 1e6 } };
}

/**
 * The credit events bound to priority `prio`: an event without `prio` is of that priority, one of
 * another priority is refused (the kernel then models that one credit loop).
 */
export function bindCreditEvents(stimulus: Record<string, unknown>, prio: number): Record<string, unknown> {
  if (!Array.isArray(stimulus.events)) return stimulus;
  const events = stimulus.events.map((e: unknown, i) => {
    if (e === null || typeof e !== 'object' || Array.isArray(e)) return e;
    const given = (e as { prio?: unknown }).prio;
    if (given !== undefined && given !== prio) throw new InputError({ path: `events[${i}].prio`, rule: `must be ${prio}, the priority of --config's credit loop (--priority), got ${JSON.stringify(given)}` });
    return { ...e, prio };
  });
  return { ...stimulus, events };
}
