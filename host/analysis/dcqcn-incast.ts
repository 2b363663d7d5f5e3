// N:1 DCQCN incasts through the packet-level simulator, measured the way the fluid model of
// host/analysis/dcqcn-fluid.ts states its fixed point: bottleneck queue (mean, median), CNPs per second and
// per-flow rates over a stationary window, plus what the investigation of docs/qcn.md needs
// (empty and above-Kmax shares, synchronised cuts, the slowest rate limiter). Used by
// test/analysis/dcqcn-fluid.test.ts; the table of docs/qcn.md is printed by scripts/dcqcn-fluid-table.mjs.
import { checkScenario, type ScenarioInput } from '../scenario/scenario.js';
import { buildFabric } from '../sim/run.js';
import type { DcqcnFluidParams } from './dcqcn-fluid.js';

export interface IncastCase {
  c_bps: number;
  n: number;
  /** RP and CP parameters, set explicitly on both sides (the defaults of neither are trusted) */
  ai_bps: number;
  kmin: number;
  kmax: number;
  /** Pmax in whole percent (the config's unit) */
  pmax_pct: number;
  alpha_bits: number;
  /** warm-up before the window, and the window (ps) */
  warmup_ps: number;
  window_ps: number;
  /** queue sampling interval (ps) */
  sample_ps: number;
  seed?: number;
  /** frame size (bytes, default 1518) */
  frame?: number;
  /** investigation hook: adjusts the built fabric (e.g. a rate limiter's flags) before the run */
  tweak?: (fab: ReturnType<typeof buildFabric>) => void;
}

export const FRAME = 1518;
export const CABLE_M = 10;
const PS_PER_S = 1e12;
/** Paper parameters (Zhu et al. 2015, the CoNEXT 2016 fluid model's defaults) both sides use. */
export const PAPER = { g_shift: 8, timer_ps: 55e6, alpha_timer_ps: 55e6, bc_bytes: 10_000_000, th: 5, cnp_interval_ps: 50e6 } as const;

/**
 * The validation table of docs/qcn.md: 40 and 100 Gb/s, 2..16 flows, R_AI 10 Mb/s and marking
 * Kmin 5 KB, Kmax 1000 KB, Pmax 10 % (the ramp holds every case's fixed point, the step to p = 1
 * stays out of the queue's reach), alpha_bits 20; 80 ms to settle (alpha's time constant tau'/g is
 * 14 ms), 60 ms measured, the queue sampled every microsecond.
 */
export const VALIDATION: Omit<IncastCase, 'c_bps' | 'n'> = {
  ai_bps: 10e6, kmin: 5000, kmax: 1_000_000, pmax_pct: 10, alpha_bits: 20, warmup_ps: 80e9, window_ps: 60e9, sample_ps: 1e6,
};
export const VALIDATION_CASES: IncastCase[] = [40e9, 100e9].flatMap((c) => Array.from({ length: 15 }, (_, i) => ({ ...VALIDATION, c_bps: c, n: i + 2 })));
/** The case of docs/qcn.md's investigation: 40G, 8 flows, R_AI 40 Mb/s, the paper's Kmax 200 KB and Pmax 1 %. */
export const SWING_CASE: IncastCase = { ...VALIDATION, ai_bps: 40e6, kmax: 200_000, pmax_pct: 1, c_bps: 40e9, n: 8 };

/** The fluid model's parameters for a case; `delay_s` is the base feedback delay of the topology. */
export function fluidParams(k: IncastCase): DcqcnFluidParams {
  const frame = k.frame ?? FRAME;
  const wire = frame + 20;
  // Data: sender -> switch -> receiver (two serialisations, two cables); CNP: receiver -> switch ->
  // sender (two 64-byte serialisations, two cables). Queueing delay comes on top (docs/qcn.md).
  const cable = CABLE_M * 5e-9;
  const delay = 4 * cable + (2 * wire * 8) / k.c_bps + (2 * 84 * 8) / k.c_bps;
  return {
    c_bps: k.c_bps, n: k.n, wire_bytes: wire, frame_bytes: frame, kmin: k.kmin, kmax: k.kmax, pmax: k.pmax_pct / 100,
    g: 2 ** -PAPER.g_shift, ai_bps: k.ai_bps, bc_bytes: PAPER.bc_bytes, timer_s: PAPER.timer_ps / PS_PER_S, f: PAPER.th,
    tau_s: PAPER.cnp_interval_ps / PS_PER_S, tau_alpha_s: PAPER.alpha_timer_ps / PS_PER_S, delay_s: delay,
  };
}

/** h1..hN -> sw -> h0 on a lossy priority with a buffer far above Kmax: only DCQCN shapes the queue. */
export function incastScenario(k: IncastCase): ScenarioInput {
  const speed = `${k.c_bps / 1e9}G`;
  const dcb = {
    port: { mtu: Math.max(FRAME, k.frame ?? FRAME), speed },
    pfc: { enable: [] },
    qcn: {
      cp: { priorities: [3], kmin: k.kmin, kmax: k.kmax, pmax: k.pmax_pct },
      rp: {
        profile: 'dcqcn', bc_bytes: PAPER.bc_bytes, timer_ps: PAPER.timer_ps, th: PAPER.th, ai_bps: k.ai_bps,
        // The fluid model has no hyperactive increase; with B = 10 MB it is never reached here anyway.
        hai_bps: k.ai_bps, min_bps: 5e6, g_shift: PAPER.g_shift, alpha_timer_ps: PAPER.alpha_timer_ps,
        cnp_interval_ps: PAPER.cnp_interval_ps, alpha_bits: k.alpha_bits,
      },
    },
  };
  const hosts = Array.from({ length: k.n + 1 }, (_, i) => ({ name: `h${i}` }));
  return {
    name: `incast-${k.n}x${speed}`,
    seed: k.seed ?? 1,
    duration: `${(k.warmup_ps + k.window_ps) / 1e6}us`,
    sample: `${(k.warmup_ps + k.window_ps) / 1e6}us`,
    flow_control: ['lossy', 'lossy', 'lossy', 'lossy', 'lossy', 'lossy', 'lossy', 'lossy'],
    defaults: { link: { speed, cable: `${CABLE_M}m` }, buffer: { size: '32MB', headroom: 0 }, dcb },
    hosts, switches: [{ name: 'sw' }], links: hosts.map((h) => ({ a: h.name, b: 'sw' })),
    qcn: { enable: true, profile: 'dcqcn' },
    traffic: { incast: [{ senders: hosts.slice(1).map((h) => h.name), dst: 'h0', priority: 3, frames: k.frame ?? FRAME }] },
    series: { ports: [], flows: [] },
  };
}

export interface IncastMeasure {
  q_mean: number;
  q_median: number;
  q_min: number;
  q_max: number;
  /** share of samples with an empty queue, and above Kmax */
  q_empty_share: number;
  q_above_kmax_share: number;
  cnp_per_s: number;
  /** per-flow payload throughput (bit/s) over the window, and the rate limiters' mean CR */
  flow_bps: number[];
  flow_cr_bps: number[];
  /** the queue samples themselves (bytes), for the investigation */
  q: number[];
  drops: number;
  /** lowest current rate any limiter had at a sample (bit/s): bounds what a pacing gap can cost */
  cr_min_bps: number;
  /** synchronised cuts: 10-us intervals per second in which at least half the flows were cut */
  sync_cuts_per_s: number;
}

/** Runs a case and measures its window. */
export function runIncast(k: IncastCase): IncastMeasure {
  const scn = checkScenario(incastScenario(k));
  const fab = buildFabric(scn);
  k.tweak?.(fab);
  const { L, r32, r64, portAt, flowAt } = fab;
  const sw = scn.nodes.findIndex((x) => x.name === 'sw');
  const h0 = scn.nodes.findIndex((x) => x.name === 'h0');
  const bottleneck = scn.ports.findIndex((p) => p.node === sw && p.peerNode === h0);
  if (bottleneck < 0) throw new Error('no sw -> h0 port');
  // The bottleneck's frame bytes queued over its TCs (the engine keeps no port total).
  const qAt = portAt(bottleneck) + L.SP_TCQ + L.SQ_BYTES;
  const queued = () => { let bytes = 0; for (let tc = 0; tc < 8; tc++) bytes += r32(qAt + tc * L.SQ_SIZE); return bytes; };
  const flows = scn.flows.map((f) => flowAt(f.id));
  const cuts = () => flows.reduce((s, fa) => s + r64(fa + L.SF_RP + L.QCN_RP_CUTS), 0);
  fab.runUntil(k.warmup_ps);
  const cuts0 = cuts();
  const deliv0 = flows.map((fa) => r64(fa + L.SF_DELIV));
  const q: number[] = [];
  const crSum = flows.map(() => 0);
  let crMin = Infinity;
  const SYNC_PS = 10e6;
  let syncCount = 0;
  let lastCuts = flows.map((fa) => r64(fa + L.SF_RP + L.QCN_RP_CUTS));
  let cutInBin = flows.map(() => false);
  let binEnd = k.warmup_ps + SYNC_PS;
  const end = k.warmup_ps + k.window_ps;
  for (let t = k.warmup_ps + k.sample_ps; t <= end; t += k.sample_ps) {
    fab.runUntil(t);
    q.push(queued());
    flows.forEach((fa, i) => {
      const cr = r32(fa + L.SF_RP + L.QCN_RP_ACTIVE) !== 0 ? r64(fa + L.SF_RP + L.QCN_RP_CR) : r64(fa + L.SF_LINE_BPS);
      crSum[i] += cr;
      crMin = Math.min(crMin, cr);
      const c = r64(fa + L.SF_RP + L.QCN_RP_CUTS);
      if (c !== lastCuts[i]) cutInBin[i] = true;
      lastCuts[i] = c;
    });
    if (t >= binEnd) {
      if (cutInBin.filter(Boolean).length * 2 >= flows.length) syncCount++;
      cutInBin = flows.map(() => false);
      binEnd += SYNC_PS;
    }
  }
  const windowS = k.window_ps / PS_PER_S;
  const sorted = [...q].sort((a, b) => a - b);
  const median = sorted.length % 2 ? sorted[(sorted.length - 1) / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
  return {
    q_mean: q.reduce((s, v) => s + v, 0) / q.length,
    q_median: median,
    q_min: sorted[0],
    q_max: sorted[sorted.length - 1],
    q_empty_share: q.filter((v) => v === 0).length / q.length,
    q_above_kmax_share: q.filter((v) => v > k.kmax).length / q.length,
    cnp_per_s: (cuts() - cuts0) / windowS,
    flow_bps: flows.map((fa, i) => ((r64(fa + L.SF_DELIV) - deliv0[i]) * 8) / windowS),
    flow_cr_bps: crSum.map((s) => s / q.length),
    q,
    drops: r64(fab.addr.counters + L.SC_DROP_LOSSY) + r64(fab.addr.counters + L.SC_DROP_LOSSLESS),
    cr_min_bps: crMin,
    sync_cuts_per_s: syncCount / windowS,
  };
}
