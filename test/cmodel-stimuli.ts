// Random, valid stimulus documents for every vectors kernel, from a seed: the differential test of
// the C model (test/cmodel-differential.test.ts) runs 10^5 events per kernel through them. Each
// generator tracks what the schema checks (queue contents, buffer units, time order) so that every
// document it makes is accepted, and varies the configuration between documents.

import { Rand } from '../host/vectors/random.js';

export { Rand };

type Doc = Record<string, unknown>;

export function randomEts(r: Rand, events: number): Doc {
  const tsa = Array.from({ length: 8 }, () => r.pick(['ets', 'ets', 'ets', 'strict', 'cbs'] as const));
  if (!tsa.includes('ets')) tsa[r.int(0, 7)] = 'ets';
  const bw = Array(8).fill(0);
  const weighted = tsa.flatMap((t, i) => (t === 'ets' ? [i] : []));
  let left = 100;
  for (const [k, tc] of weighted.entries()) {
    const v = k === weighted.length - 1 ? left : r.chance(0.25) ? 0 : r.int(0, left);
    bw[tc] = v;
    left -= v;
  }
  const maxFrame = r.pick([1518, 2240, 9216]);
  const ev: Doc[] = [];
  for (let i = 0; i < events; i++) {
    const x = r.next() % 100;
    if (x < 50) ev.push({ type: 'enq', prio: r.int(0, 7), bytes: r.int(64, maxFrame) });
    else if (x < 95) ev.push({ type: 'tx' });
    else ev.push({ type: 'block', tcs: [0, 1, 2, 3, 4, 5, 6, 7].filter(() => r.chance(0.3)) });
  }
  return { max_frame: maxFrame, ets: { prio_tc: Array.from({ length: 8 }, () => r.int(0, 7)), tsa, bw }, events: ev };
}

export function randomPfc(r: Rand, events: number): Doc {
  const mode = r.pick(['pfc', 'pfc', 'pause', 'off'] as const);
  const speed = r.pick([10e9, 25e9, 100e9, 400e9]);
  const pauseTime = r.pick([1, 100, 1000, 65535]);
  const xoff = Array.from({ length: 9 }, () => r.int(2000, 40000));
  const xon = xoff.map((x) => r.int(0, x));
  const headroom = Array.from({ length: 9 }, () => r.int(0, 30000));
  const params: Doc = { speed, mode, enable: [0, 1, 2, 3, 4, 5, 6, 7].filter(() => r.chance(0.5)), pause_time: pauseTime, xoff, xon, headroom };
  if (r.chance(0.3)) params.refresh_quanta = r.int(1, 2000);
  const quantumPs = 512e12 / speed;
  const refreshPs = ((params.refresh_quanta as number | undefined) ?? Math.max(1, pauseTime >> 1)) * quantumPs;
  const occ = Array(8).fill(0);
  let t = 0;
  const ev: Doc[] = [];
  for (let i = 0; i < events; i++) {
    // steps of up to a few refresh intervals: refreshes fire, a handful at a time at most
    t += r.int(0, Math.min(r.chance(0.05) ? 4 * refreshPs : refreshPs / 2, 2 ** 31));
    const x = r.next() % 100;
    if (x < 45) {
      const prio = r.int(0, 7);
      const bytes = r.int(64, 9216);
      const unit = mode === 'pause' ? 8 : prio;
      const held = unit === 8 ? occ.reduce((a, b) => a + b, 0) : occ[prio];
      if (held + bytes <= xoff[unit] + headroom[unit]) occ[prio] += bytes;
      ev.push({ t_ps: t, type: 'arrive', prio, bytes });
    } else if (x < 85) {
      const held = [0, 1, 2, 3, 4, 5, 6, 7].filter((p) => occ[p] > 0);
      if (held.length === 0) { ev.push({ t_ps: t, type: 'tick' }); continue; }
      const prio = r.pick(held);
      const bytes = r.int(1, Math.min(occ[prio], 9216));
      occ[prio] -= bytes;
      ev.push({ t_ps: t, type: 'depart', prio, bytes });
    } else if (x < 93) {
      ev.push({ t_ps: t, type: 'rx_pfc', enable_vector: r.int(0, 255), time: Array.from({ length: 8 }, () => (r.chance(0.3) ? 0 : r.int(0, 0xffff))) });
    } else if (x < 97) {
      ev.push({ t_ps: t, type: 'rx_pause', time: r.chance(0.3) ? 0 : r.int(0, 0xffff) });
    } else ev.push({ t_ps: t, type: 'tick' });
  }
  return { params, events: ev };
}

export function randomCredit(r: Rand, events: number): Doc {
  const k = r.pick([4, 8, 16]);
  const unit = r.pick([64, 128, 256]);
  const bufferBytes = unit * r.int(1, 40);
  const params = { k, unit, buffer_bytes: bufferBytes, aging_ps: r.pick([0, 1_000_000, 50_000_000]) };
  const cap = Math.floor(bufferBytes / unit);
  const flows = [[0, 0], [0, 1], [5, 0], [7, 9]].slice(0, r.int(1, 4));
  const used = new Map<string, number>();
  const sentGrant = new Set<string>();
  const sentSync = new Set<string>();
  let t = 0;
  const ev: Doc[] = [];
  for (let i = 0; i < events; i++) {
    t += r.int(0, 300_000);
    const [prio, channel] = r.pick(flows);
    const key = `${prio}:${channel}`;
    const u = used.get(key) ?? 0;
    const at = { t_ps: t, prio, channel };
    const x = r.next() % 100;
    if (x < 25) ev.push({ ...at, type: 'send', bytes: r.int(1, unit * 12) });
    else if (x < 45) {
      const bytes = r.int(1, unit * 12);
      const b = Math.ceil(bytes / unit);
      if (u + b <= cap) used.set(key, u + b);
      ev.push({ ...at, type: 'data_rx', bytes });
    } else if (x < 60 && u > 0) {
      const b = r.int(1, u);
      used.set(key, u - b);
      ev.push({ ...at, type: 'drain', bytes: b * unit - r.int(0, unit - 1) });
    } else if (x < 70) {
      sentGrant.add(key);
      ev.push({ ...at, type: 'grant_tx' });
    } else if (x < 80) {
      ev.push(sentGrant.has(key) && r.chance(0.8) ? { ...at, type: 'grant_rx' } : { ...at, type: 'grant_rx', cl: r.int(0, 2 ** k - 1) });
    } else if (x < 86) {
      sentSync.add(key);
      ev.push({ ...at, type: 'sync_tx' });
    } else if (x < 92) {
      ev.push(sentSync.has(key) && r.chance(0.8) ? { ...at, type: 'sync_rx' } : { ...at, type: 'sync_rx', tbs: r.int(0, 2 ** k - 1) });
    } else ev.push({ ...at, type: 'tick' });
  }
  return { params, events: ev };
}

export function randomQcnCp(r: Rand, events: number, profile: 'linear' | 'msb' | 'dcqcn'): Doc {
  const params: Doc = profile === 'dcqcn'
    ? (() => { const kmin = r.int(0, 50_000); return { profile, kmin_bytes: kmin, kmax_bytes: kmin + r.int(1, 300_000), pmax: r.pick([0.01, 0.2, 1]) }; })()
    : { profile: 'qau-pc', q_eq: r.int(1000, 100_000), w: r.int(1, 8), quantiser: profile };
  const target = r.int(10_000, 400_000); // the queue wanders around this
  let q = 0;
  let t = 0;
  const ev: Doc[] = [];
  for (let i = 0; i < events; i++) {
    t += r.int(0, 100_000);
    const stamp = r.chance(0.5) ? { t_ps: t } : {};
    if (q > 0 && r.chance(q > target ? 0.7 : 0.3)) {
      const bytes = r.int(1, Math.min(q, 9000));
      q -= bytes;
      ev.push({ ...stamp, type: 'deq', bytes });
    } else {
      const bytes = r.int(64, 9000);
      q += bytes;
      ev.push({ ...stamp, type: 'enq', bytes, src: r.int(0, 15) });
    }
  }
  return { seed: r.next(), params, events: ev };
}

export function randomQcnRp(r: Rand, events: number, profile: 'qau-pc' | 'dcqcn'): Doc {
  const line = r.pick([10e9, 25e9, 40e9, 100e9]);
  const params: Doc = { profile, line_bps: line, bc_bytes: r.pick([15_000, 150_000, 1_000_000]), timer_ps: r.pick([1_000_000, 15_000_000, 55_000_000]), th: r.int(1, 6) };
  if (profile === 'dcqcn') {
    Object.assign(params, {
      alpha_timer_ps: r.pick([1_000_000, 55_000_000]), g_q10: r.int(0, 64), cnp_spacing_ps: r.pick([0, 50_000_000]),
      alpha_bits: r.pick([10, 16, 20, 24]), alpha_cut_shift: r.int(0, 6), min_dec_pct: r.pick([0, 0, 50, 90]),
      first_cnp_bps: r.pick([0, 0, line / 4]), clamp_tgt_rate: r.chance(0.5), clamp_tgt_rate_after_time_inc: r.chance(0.5),
    });
  }
  else Object.assign(params, { gd_shift: r.int(5, 9), extra_fast_recovery: r.chance(0.7) });
  if (profile === 'qau-pc') params.min_dec_num = r.int(1, 2 ** (params.gd_shift as number));
  let t = 0;
  const ev: Doc[] = [];
  for (let i = 0; i < events; i++) {
    t += r.chance(0.02) ? r.int(0, 100_000_000) : r.int(0, 2_000_000);
    const x = r.next() % 100;
    if (x < 10) ev.push(profile === 'qau-pc' ? { t_ps: t, type: 'cnm', qf: r.int(0, 63) } : { t_ps: t, type: 'cnp' });
    else if (x < 20 && profile === 'dcqcn') ev.push({ t_ps: t, type: 'ce' });
    else if (x < 95) ev.push({ t_ps: t, type: 'tx', bytes: r.int(64, 9000), backlog: r.chance(0.2) ? 0 : r.int(0, 100_000) });
    else ev.push({ t_ps: t, type: 'tick' });
  }
  return { seed: r.next(), params, events: ev };
}
