// Random reaction-point stimuli (`dcbkit vectors qcn-rp --random N --seed S [--config CONFIG]`) and
// the coverage of qcn-rp vectors.
//
// Without a config the generator draws a profile and a few of its parameters (line rate, byte
// counter, timer, TH), the rest at the profile's defaults; with one, `fixed` holds qcn.rp. Events
// come in phases (8..64 events of `congest`, 32..256 of the others), times always ascending:
// `congest` (frames sent back to back at line rate with congestion feedback every few frames: CNMs
// of random Fb for qau-pc, CNPs and CE-marked frames for dcqcn), `recover` (frames only, so the
// byte counter counts stages) and `idle` (ticks a fraction of the timer period or more apart, so
// timer stages, and for dcqcn alpha decay, fall due).

import type { Rand } from './random.js';

type Params = Record<string, unknown> & { profile: 'qau-pc' | 'dcqcn' };

function randomParams(r: Rand): Params {
  const profile = r.pick(['qau-pc', 'dcqcn'] as const);
  const line_bps = r.pick([10e9, 25e9, 40e9, 100e9]);
  if (profile === 'qau-pc') return { profile, line_bps, bc_bytes: r.pick([15_000, 150_000]), timer_ps: r.pick([1_500_000_000, 15_000_000_000]), th: r.int(2, 5) };
  return { profile, line_bps, bc_bytes: r.pick([10_000, 100_000]), timer_ps: r.pick([55_000_000, 300_000_000]), th: r.int(2, 5) };
}

/** A valid qcn-rp stimulus of `n` events; `fixed` holds `params` from a config. */
export function randomQcnRp(r: Rand, n: number, fixed?: Record<string, unknown>): Record<string, unknown> {
  const params = (fixed?.params as Params | undefined) ?? randomParams(r);
  const seed = r.next();
  const dcqcn = params.profile === 'dcqcn';
  const lineBps = (params.line_bps as number | undefined) ?? (dcqcn ? 40e9 : 10e9);
  const timerPs = (params.timer_ps as number | undefined) ?? (dcqcn ? 55_000_000 : 15_000_000_000);
  const maxFrame = r.pick([1518, 4096, 9216]);
  const events: Record<string, unknown>[] = [];
  let t = 0;
  while (events.length < n) {
    const phase = r.pick(['congest', 'congest', 'recover', 'recover', 'idle'] as const);
    for (let k = phase === 'congest' ? r.int(8, 64) : r.int(32, 256); k > 0 && events.length < n; k--) {
      if (phase === 'idle') {
        t += r.int(1, 4) * Math.ceil(timerPs / r.pick([4, 2, 1]));
        events.push({ t_ps: t, type: 'tick' });
        continue;
      }
      const bytes = r.frame(maxFrame);
      t += Math.ceil((bytes * 8 * 1e12) / lineBps); // the frame's time at line rate, ps
      if (phase === 'congest' && r.chance(0.25)) {
        events.push(dcqcn ? { t_ps: t, type: r.pick(['cnp', 'ce']) } : { t_ps: t, type: 'cnm', qf: r.int(1, 63) });
      } else {
        events.push({ t_ps: t, type: 'tx', bytes, backlog: r.pick([0, bytes, 4 * bytes]) });
      }
    }
  }
  events.length = n;
  return { seed, params, events };
}

interface RpLine { type: string; active: number; si: number; ti: number; cnp?: number }

/**
 * What a set of qcn-rp vectors exercises: rate cuts (a CNM or CNP acted on), timer expiries
 * (and dcqcn alpha decays), lines in fast recovery, active increase (one of the byte-counter and
 * timer stages past TH) and hyper-active increase (both past TH), and releases of the limiter.
 */
export function qcnRpCoverage(s: { params: { profile: string; th: number } }, lines: object[]): Record<string, number> {
  const th = s.params.th;
  const c: Record<string, number> = { cuts: 0, timers: 0, ...(s.params.profile === 'dcqcn' ? { 'alpha-timers': 0 } : {}), 'fast-recovery': 0, 'active-increase': 0, 'hyper-increase': 0, releases: 0 };
  let active = 0;
  for (const l of lines as RpLine[]) {
    if (l.type === 'cnm' || l.type === 'cnp' || (l.type === 'ce' && l.cnp)) c.cuts++;
    if (l.type === 'timer') c.timers++;
    if (l.type === 'alpha_timer') c['alpha-timers']++;
    if (l.active) {
      const stages = [l.si >= th, l.ti >= th].filter(Boolean).length;
      c[stages === 0 ? 'fast-recovery' : stages === 1 ? 'active-increase' : 'hyper-increase']++;
    }
    if (active && !l.active) c.releases++;
    active = l.active;
  }
  return c;
}
