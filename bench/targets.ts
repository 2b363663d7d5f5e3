// The engine-cost targets `dcbkit bench` checks its own figures against, so that a regression in any
// of them shows in one `bench --json` (key `targets`): per-hop rate of the incast, a k = 8 tree's cost
// per hop beside it, the fixed cost and peak memory of two 1-us runs, a sweep's cost per point, and
// the fat tree's speed-up on two threads. Each entry says the figure, its value, the bound and
// whether it is met; a figure the run did not measure (a quick bench, one core) is null and unmet.
import type { BenchReport } from './run.js';

export interface TargetCheck {
  /** The report's key path of the figure. */
  figure: string;
  value: number | null;
  /** `>=` or `<=` the bound. */
  rule: '>=' | '<=';
  bound: number;
  met: boolean;
}

const check = (figure: string, value: number | null | undefined, rule: '>=' | '<=', bound: number): TargetCheck => ({
  figure, value: value ?? null, rule, bound,
  // Every figure is a rate, a time, a size or a ratio: a negative one (a difference of two loaded
  // timings) measured nothing, so it meets no bound.
  met: value !== null && value !== undefined && value >= 0 && (rule === '>=' ? value >= bound : value <= bound),
});

/** The targets of the engine's cost (docs/bench.md, "Targets"), checked against `r`. */
export function engineTargets(r: BenchReport): TargetCheck[] {
  const f = r.fixed_cost;
  return [
    check('fabric.packet_hops_per_s', r.fabric?.packet_hops_per_s, '>=', 15e6),
    check('clos_k8.per_hop_vs_incast', r.clos_k8?.per_hop_vs_incast, '<=', 2),
    check('fixed_cost.incast_1us.wall_ms', f?.incast_1us.wall_ms, '<=', 200),
    check('fixed_cost.clos_k8_1us.wall_ms', f?.clos_k8_1us.wall_ms, '<=', 200),
    check('fixed_cost.incast_1us.peak_rss_mb', f?.incast_1us.peak_rss_mb, '<=', 60),
    check('fixed_cost.clos_k8_1us.peak_rss_mb', f?.clos_k8_1us.peak_rss_mb, '<=', 80),
    check('fixed_cost.sweep_point_ms', f?.sweep_point_ms, '<=', 20),
    check('fabric_clos.speedup', r.fabric_clos && r.fabric_clos.threads > 1 ? r.fabric_clos.speedup : null, '>=', 1.7),
  ];
}
