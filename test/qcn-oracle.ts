// Independent TypeScript statement of DESIGN.md §2's generator, for checking the core's draws:
// xorshift32 (13, 17, 5), per-entity seeding, and jitter(base) = (base * (55706 + r % 19661)) >> 16.
import { generateVectors } from '../host/commands/vectors.js';

export class Xorshift32 {
  constructor(public state: number) {}

  /** Entity `id` under `seed`: (seed ^ imul(id + 1, 0x9E3779B9)) >>> 0, with 0 mapped to 0x6D2B79F5. */
  static forEntity(seed: number, id: number): Xorshift32 {
    const s = (seed ^ Math.imul(id + 1, 0x9e3779b9)) >>> 0;
    return new Xorshift32(s === 0 ? 0x6d2b79f5 : s);
  }

  next(): number {
    let x = this.state;
    x = (x ^ (x << 13)) >>> 0;
    x = (x ^ (x >>> 17)) >>> 0;
    x = (x ^ (x << 5)) >>> 0;
    this.state = x;
    return x;
  }

  jitter(base: bigint): bigint {
    return (base * BigInt(55706 + (this.next() % 19661))) >> 16n;
  }
}

export type Line = Record<string, unknown> & { type: string };

/** Vectors through the library entry point (validation included), typed loosely for assertions. */
export function vectors(kernel: 'qcn-rp' | 'qcn-cp', stimulus: unknown): Line[] {
  return generateVectors(kernel, stimulus) as Line[];
}

const SAMPLE = [150_000, 75_000, 50_000, 37_500, 30_000, 25_000, 21_500, 18_500];

/**
 * DESIGN.md §4.4 restated in TypeScript, line for line, as the differential oracle of the core's
 * qau-pc CP: same output lines as `vectors qcn-cp` for enq/deq events with default src.
 */
export function cpModel(p: { q_eq: number; w: number; quantiser: 'linear' | 'msb' }, seed: number, events: { type: string; bytes: number }[]) {
  const rng = Xorshift32.forEntity(seed, 0);
  const fbMax = p.q_eq * (2 * p.w + 1);
  const shift = Math.max(0, fbMax.toString(2).length - 6);
  let q = 0;
  let qOld = 0;
  let ttm = 150_000;
  return events.map((e) => {
    if (e.type === 'deq') {
      q -= e.bytes;
      return { type: 'deq', q, q_old: qOld, fb: 0, qf: 0, ttm, cnm: null };
    }
    q += e.bytes;
    const fb = Math.min(0, Math.max(-fbMax, p.q_eq - q - p.w * (q - qOld)));
    const mag = fb === 0 ? 0 : -fb; // |fb| without a negative zero
    const qf = p.quantiser === 'linear' ? Math.floor((mag * 63) / fbMax) : Math.min(63, Math.floor(mag / 2 ** shift));
    ttm -= e.bytes;
    let cnm = null;
    if (ttm < 0) {
      if (qf > 0) cnm = { dst: 0, qf, q_off: q - p.q_eq, q_delta: q - qOld };
      qOld = q;
      ttm = Number(rng.jitter(BigInt(SAMPLE[qf >> 3])));
    }
    return { type: 'enq', q, q_old: qOld, fb: fb === 0 ? 0 : fb, qf, ttm, cnm };
  });
}

export interface RpParams {
  line_bps: number; bc_bytes: number; timer_ps: number; th: number; ai_bps: number; hai_bps: number;
  gd_shift: number; min_dec_num: number; min_bps: number; extra_fast_recovery: boolean;
}

/**
 * DESIGN.md §4.5 restated in TypeScript with BigInt, as the differential oracle of the core's qau-pc
 * RP: returns the same lines as `vectors qcn-rp` (timer lines before the event they precede).
 */
export function rpModel(p: RpParams, seed: number, events: { t_ps: number; type: string; qf?: number; bytes?: number; backlog?: number }[]) {
  const rng = Xorshift32.forEntity(seed, 0);
  const C = BigInt(p.line_bps), BC = BigInt(p.bc_bytes), T = BigInt(p.timer_ps), TH = p.th;
  let active = false, cr = C, tr = C, si = 0, ti = 0, bcLeft = 0n, deadline = 0n;
  const out: Line[] = [];
  const line = (t: bigint, type: string) =>
    out.push({ t_ps: Number(t), type, active: active ? 1 : 0, cr_bps: Number(cr), tr_bps: Number(tr), si, ti, bc_left: Number(bcLeft), deadline_ps: Number(deadline) });
  const reload = (base: bigint, stage: number) => rng.jitter(stage < TH ? base : base / 2n);
  const increase = () => {
    const ri = si > TH && ti > TH ? BigInt(p.hai_bps) * BigInt(Math.min(si, ti) - TH) : si > TH || ti > TH ? BigInt(p.ai_bps) : 0n;
    if (p.extra_fast_recovery && (si === 1 || ti === 1) && tr > 10n * cr) tr = tr / 8n;
    else tr += ri;
    cr = (cr + tr) / 2n;
    if (cr > C) cr = C;
  };
  for (const e of events) {
    const now = BigInt(e.t_ps);
    while (active && deadline <= now) {
      const at = deadline;
      ti += 1;
      increase();
      deadline = at + reload(T, ti);
      line(at, 'timer');
    }
    if (e.type === 'cnm' && e.qf! > 0) {
      if (!active) { active = true; cr = tr = C; si = ti = 0; bcLeft = BC; }
      if (si !== 0) { tr = cr; bcLeft = BC; }
      si = 0; ti = 0;
      const factor = Math.max(2 ** p.gd_shift - e.qf!, p.min_dec_num);
      cr = (cr * BigInt(factor)) >> BigInt(p.gd_shift);
      if (cr < BigInt(p.min_bps)) cr = BigInt(p.min_bps);
      deadline = now + T;
    } else if (e.type === 'tx' && active) {
      if (cr >= C && (e.backlog ?? 0) === 0) active = false;
      else {
        bcLeft -= BigInt(e.bytes!);
        if (bcLeft < 0n) { si += 1; bcLeft = reload(BC, si); increase(); }
      }
    }
    line(now, e.type);
  }
  return out;
}

export interface DcqcnRpParams {
  line_bps: number; bc_bytes: number; timer_ps: number; th: number; ai_bps: number; hai_bps: number; min_bps: number;
  alpha_timer_ps: number; alpha_bits: number; g_q10: number; alpha_init_q10: number; alpha_cut_shift: number;
  min_dec_pct: number; first_cnp_bps: number; clamp_tgt_rate: boolean; clamp_tgt_rate_after_time_inc: boolean;
}

/**
 * docs/qcn.md "Reaction point, profile dcqcn" restated with BigInt (exact products, no splitting),
 * as the differential oracle of the core's dcqcn RP for every alpha_bits: the same lines as
 * `vectors qcn-rp` for cnp, tx and tick events (timer and alpha_timer lines before the event they
 * precede, rate timer first on a tie).
 */
export function dcqcnRpModel(p: DcqcnRpParams, events: { t_ps: number; type: string; bytes?: number; backlog?: number }[]) {
  const C = BigInt(p.line_bps), BC = BigInt(p.bc_bytes), T = BigInt(p.timer_ps), TA = BigInt(p.alpha_timer_ps), TH = p.th;
  const b = BigInt(p.alpha_bits), one = 1n << b;
  const g = BigInt(p.g_q10) << (b - 10n), init = BigInt(p.alpha_init_q10) << (b - 10n);
  const shift = b + BigInt(p.alpha_cut_shift);
  let active = false, cr = C, tr = C, si = 0, ti = 0, bcLeft = 0n, deadline = 0n, alpha = init, alphaDeadline = 0n;
  const field = `alpha_q${p.alpha_bits}`;
  const out: Line[] = [];
  const line = (t: bigint, type: string) => out.push({
    t_ps: Number(t), type, active: active ? 1 : 0, cr_bps: Number(cr), tr_bps: Number(tr), si, ti, bc_left: Number(bcLeft),
    deadline_ps: Number(deadline), [field]: Number(alpha), alpha_deadline_ps: Number(alphaDeadline),
  });
  const increase = () => {
    const ri = si > TH && ti > TH ? BigInt(p.hai_bps) * BigInt(Math.min(si, ti) - TH) : si > TH || ti > TH ? BigInt(p.ai_bps) : 0n;
    tr += ri;
    cr = (cr + tr) / 2n;
    if (cr > C) cr = C;
  };
  const decay = (a: bigint) => ((one - g) * a) >> b;
  for (const e of events) {
    const now = BigInt(e.t_ps);
    for (;;) {
      if (!active) break;
      if (alphaDeadline <= now && alphaDeadline < deadline) {
        alpha = decay(alpha);
        const at = alphaDeadline;
        alphaDeadline += TA;
        line(at, 'alpha_timer');
      } else if (deadline <= now) {
        ti += 1;
        increase();
        const at = deadline;
        deadline += T;
        line(at, 'timer');
      } else break;
    }
    if (e.type === 'cnp') {
      const engaging = !active;
      if (engaging) { active = true; cr = tr = C; si = ti = 0; bcLeft = BC; alpha = init; }
      if (engaging && p.first_cnp_bps > 0) {
        cr = tr = BigInt(p.first_cnp_bps) < C ? BigInt(p.first_cnp_bps) : C;
      } else {
        const increased = si !== 0 || (p.clamp_tgt_rate_after_time_inc && ti !== 0);
        if (p.clamp_tgt_rate || increased) tr = cr;
        let next = cr - ((cr * alpha) >> shift);
        const floor = (cr * BigInt(p.min_dec_pct)) / 100n;
        if (p.min_dec_pct > 0 && next < floor) next = floor;
        cr = next > BigInt(p.min_bps) ? next : BigInt(p.min_bps);
      }
      alpha = decay(alpha) + g;
      si = 0; ti = 0; bcLeft = BC;
      deadline = now + T;
      alphaDeadline = now + TA;
    } else if (e.type === 'tx' && active) {
      if (cr >= C && (e.backlog ?? 0) === 0) active = false;
      else {
        bcLeft -= BigInt(e.bytes!);
        if (bcLeft < 0n) { si += 1; bcLeft = BC; increase(); }
      }
    }
    line(now, e.type);
  }
  return out;
}
