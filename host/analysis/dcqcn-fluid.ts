// The DCQCN fluid model of Zhu, Ghobadi, Misra, Padhye, "ECN or Delay: Lessons Learnt from Analysis
// of DCQCN and TIMELY", CoNEXT 2016, §3 (N identical flows through one bottleneck of rate C): its
// exact fixed point by root finding, and its delay differential equations integrated in time. Written
// here as the oracle of test/analysis/dcqcn-fluid.test.ts, which holds the packet-level simulator to it
// (scripts/dcqcn-fluid-table.mjs prints the comparison table of docs/qcn.md).
//
// Per flow, rates in packets/s, B in packets, T, tau, tau' and the feedback delay tau* in seconds;
// p(q) the RED-like marking probability of the congestion point; delayed values at t - tau*:
//   a(t)     = 1 - (1 - p)^(tau R_C)            probability that a CNP interval sees a mark
//   dalpha   = g / tau' [(1 - (1 - p)^(tau' R_C)) - alpha]
//   dR_T     = -(R_T - R_C)/tau a + R_AI R_C p [(1-p)^(F B) / ((1-p)^-B - 1) + (1-p)^(F T R_C) / ((1-p)^(-T R_C) - 1)]
//   dR_C     = -R_C alpha / (2 tau) a + (R_T - R_C)/2 R_C p [1 / ((1-p)^-B - 1) + 1 / ((1-p)^(-T R_C) - 1)]
//   dq       = N R_C - C                        (q >= 0)
// Fixed point: R_C = C/N, alpha = 1 - (1-p)^(tau' R_C), and dR_C = dR_T = 0 eliminate R_T:
//   alpha a^2 = tau^2 R_AI R_C U S,  S = p Σ 1/((1-p)^-X - 1),  U = p Σ (1-p)^(F X)/((1-p)^-X - 1),
// X over {B, T R_C}; the left side rises with p and the right falls, so the root is unique and
// bisection finds it. For small p this is the paper's p ≈ cbrt(R_AI N^2 / (tau' C^2) (1/B + N/(T C))^2),
// 11-36 % above the exact root on the cases of docs/qcn.md. q* = Kmin + (p*/Pmax) (Kmax - Kmin).

export interface DcqcnFluidParams {
  /** bottleneck rate and the number of flows */
  c_bps: number;
  n: number;
  /** bytes one packet occupies on the wire (frame + 20) and in the queue (frame) */
  wire_bytes: number;
  frame_bytes: number;
  /** marking: Kmin, Kmax in bytes, Pmax as a probability */
  kmin: number;
  kmax: number;
  pmax: number;
  /** RP: g, R_AI (bit/s), byte counter B (bytes), timer T (s), F stages; NP: CNP interval tau (s); tau' (s) */
  g: number;
  ai_bps: number;
  bc_bytes: number;
  timer_s: number;
  f: number;
  tau_s: number;
  tau_alpha_s: number;
  /** feedback delay tau* (s): marking at the queue to the rate change at the sender */
  delay_s: number;
}

export interface FixedPoint {
  p: number;
  q_bytes: number;
  alpha: number;
  rc_bps: number;
  rt_bps: number;
  /** CNPs per second, all flows: N a / tau (the model's rate of cuts) */
  cnp_per_s: number;
  /** the paper's closed-form approximation of p*, for comparison */
  p_cube_root: number;
}

/** Marking probability at queue q (bytes): 0 to Kmin, Pmax (q - Kmin)/(Kmax - Kmin) to Kmax, 1 above. */
export function markProbability(m: DcqcnFluidParams, q: number): number {
  if (q <= m.kmin) return 0;
  if (q > m.kmax) return 1;
  return (m.pmax * (q - m.kmin)) / (m.kmax - m.kmin);
}

/** 1/((1-p)^-x - 1), computed without cancellation for small p. */
function invGrowth(p: number, x: number): number {
  return 1 / Math.expm1(-x * Math.log1p(-p));
}

/** (1-p)^x for 0 <= p < 1. */
function pow1m(p: number, x: number): number {
  return Math.exp(x * Math.log1p(-p));
}

/** The terms of the rate equations at marking probability p and per-flow rate rc (packets/s). */
function terms(m: DcqcnFluidParams, p: number, rc: number) {
  const B = m.bc_bytes / m.frame_bytes; // the byte counter counts frame bytes
  const TR = m.timer_s * rc;
  const a = -Math.expm1(m.tau_s * rc * Math.log1p(-p));
  const s = p > 0 ? p * (invGrowth(p, B) + invGrowth(p, TR)) : 1 / B + 1 / TR;
  const u = p > 0 ? p * (pow1m(p, m.f * B) * invGrowth(p, B) + pow1m(p, m.f * TR) * invGrowth(p, TR)) : s;
  return { a, s, u };
}

/** packets/s of a rate in bit/s */
function pps(m: DcqcnFluidParams, bps: number): number {
  return bps / (8 * m.wire_bytes);
}

/** The exact fixed point (bisection on log p to 1e-12 relative). */
export function fixedPoint(m: DcqcnFluidParams): FixedPoint {
  const rc = pps(m, m.c_bps) / m.n;
  const rai = pps(m, m.ai_bps);
  const gap = (p: number) => {
    const { a, s, u } = terms(m, p, rc);
    const alpha = -Math.expm1(m.tau_alpha_s * rc * Math.log1p(-p));
    return alpha * a * a - m.tau_s * m.tau_s * rai * rc * u * s;
  };
  let lo = 1e-15;
  let hi = 1 - 1e-12;
  if (gap(lo) > 0 || gap(hi) < 0) throw new Error('DCQCN fixed point not bracketed');
  for (let i = 0; i < 200 && hi / lo > 1 + 1e-12; i++) {
    const mid = Math.sqrt(lo * hi);
    if (gap(mid) > 0) hi = mid; else lo = mid;
  }
  const p = Math.sqrt(lo * hi);
  const { a, s } = terms(m, p, rc);
  const alpha = -Math.expm1(m.tau_alpha_s * rc * Math.log1p(-p));
  const rt = rc + (alpha * a) / (m.tau_s * s);
  const B = m.bc_bytes / m.frame_bytes;
  const cube = Math.cbrt((rai * m.n * m.n) / (m.tau_alpha_s * pps(m, m.c_bps) ** 2) * (1 / B + m.n / (m.timer_s * pps(m, m.c_bps))) ** 2);
  return {
    p,
    q_bytes: p <= m.pmax ? m.kmin + (p / m.pmax) * (m.kmax - m.kmin) : m.kmax,
    alpha,
    rc_bps: rc * 8 * m.wire_bytes,
    rt_bps: rt * 8 * m.wire_bytes,
    cnp_per_s: (m.n * a) / m.tau_s,
    p_cube_root: cube,
  };
}

export interface Trajectory {
  /** sample times (s) and the state then: queue (bytes), alpha, R_C and R_T (bit/s) of one flow */
  t: number[];
  q: number[];
  alpha: number[];
  rc_bps: number[];
  rt_bps: number[];
}

/**
 * Integrates the delay differential equations from t = 0 (every flow at line rate C, R_T = C,
 * alpha = 1, empty queue; history before 0 the same) to `duration_s` with classical RK4 at step h,
 * the delayed values taken from the stored history (tau* is rounded to a whole number of steps,
 * and held for the step's stages). Returns one sample every `sample_s`.
 */
export function integrate(m: DcqcnFluidParams, duration_s: number, sample_s: number, h = 20e-9): Trajectory {
  const C = pps(m, m.c_bps);
  const lag = Math.max(0, Math.round(m.delay_s / h));
  const steps = Math.ceil(duration_s / h);
  // Ring buffers of the delayed inputs: p(q) and R_C.
  const ringP = new Float64Array(lag + 1);
  const ringR = new Float64Array(lag + 1).fill(C);
  let q = 0, alpha = 1, rt = C, rc = C;
  const out: Trajectory = { t: [], q: [], alpha: [], rc_bps: [], rt_bps: [] };
  const every = Math.max(1, Math.round(sample_s / h));
  const toBps = 8 * m.wire_bytes;
  const deriv = (st: number[], pd: number, rd: number): number[] => {
    const [qq, al, rT, rC] = st;
    const { a, s, u } = terms(m, pd, rd);
    const aAlpha = -Math.expm1(m.tau_alpha_s * rd * Math.log1p(-pd));
    const dAlpha = (m.g / m.tau_alpha_s) * (aAlpha - al);
    const dRt = (-(rT - rC) / m.tau_s) * a + m.ai_bps / toBps * rd * u;
    const dRc = ((-rC * al) / (2 * m.tau_s)) * a + ((rT - rC) / 2) * rd * s;
    const inflow = m.n * rC - C;
    const dq = qq <= 0 && inflow < 0 ? 0 : inflow * m.frame_bytes;
    return [dq, dAlpha, dRt, dRc];
  };
  for (let i = 0; i <= steps; i++) {
    if (i % every === 0) {
      out.t.push(i * h); out.q.push(q); out.alpha.push(alpha); out.rc_bps.push(rc * toBps); out.rt_bps.push(rt * toBps);
    }
    const slot = i % (lag + 1);
    // The oldest entry is the value tau* ago; then overwrite it with now.
    const pd = lag === 0 ? markProbability(m, q) : ringP[slot];
    const rd = lag === 0 ? rc : ringR[slot];
    ringP[slot] = markProbability(m, q);
    ringR[slot] = rc;
    const y = [q, alpha, rt, rc];
    const k1 = deriv(y, pd, rd);
    const k2 = deriv(y.map((v, j) => v + (h / 2) * k1[j]), pd, rd);
    const k3 = deriv(y.map((v, j) => v + (h / 2) * k2[j]), pd, rd);
    const k4 = deriv(y.map((v, j) => v + h * k3[j]), pd, rd);
    [q, alpha, rt, rc] = y.map((v, j) => v + (h / 6) * (k1[j] + 2 * k2[j] + 2 * k3[j] + k4[j]));
    if (q < 0) q = 0;
    if (rc > C) rc = C;
  }
  return out;
}
