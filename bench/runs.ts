// `dcbkit bench --runs N`: the whole benchmark in N separate processes, one after the other, and each
// figure reported as the median over them (docs/bench.md, "Runs").
//
// Why processes: on a shared VM, one process can run every figure 1.5x slower than the next (the
// vCPU's neighbours), and one kernel can land in a slow code placement for the life of a process.
// Samples within a process cannot see either; a median over processes (as JMH does with forks) can.
// Within each run the method of docs/design.md §6 is unchanged (interleaved variants, p50, the Wasm/C
// ratio of the same run), and the ratio reported is the median of the per-run ratios.
import { spawnSync } from 'node:child_process';
import type { BenchReport } from './run.js';
import type { FixedCostCase, FixedCostReport } from './fixed-cost.js';
import { median } from './stats.js';
import { engineTargets } from './targets.js';

/** Per-run values of the headline figures, in run order. */
export interface AcrossRuns {
  pipeline_ns: (number | null)[];
  c_ns: (number | null)[];
  ratio_wasm_c: (number | null)[];
  kernels: Record<string, (number | null)[]>;
  fabric_packet_hops_per_s: (number | null)[];
  fabric_clos_packet_hops_per_s: (number | null)[];
  fabric_clos_speedup: (number | null)[];
  clos_k8_per_hop_vs_incast: (number | null)[];
  fixed_cost_incast_wall_ms: (number | null)[];
  fixed_cost_clos_k8_wall_ms: (number | null)[];
  fixed_cost_incast_peak_rss_mb: (number | null)[];
  fixed_cost_clos_k8_peak_rss_mb: (number | null)[];
  sweep_point_ms: (number | null)[];
}

const r3 = (x: number) => Number(x.toFixed(3));

/** Median of the non-null values, or null when every run gave null. */
function mid(xs: (number | null)[]): number | null {
  const v = xs.filter((x): x is number => x !== null);
  return v.length ? r3(median(v)) : null;
}

/** One report whose figures are the medians over `reports` (>= 1), with the per-run values beside them. */
export function combineRuns(reports: BenchReport[]): BenchReport & { across_runs: AcrossRuns } {
  const first = reports[0];
  const across: AcrossRuns = {
    pipeline_ns: reports.map((r) => r.pipeline.ns_per_packet),
    c_ns: reports.map((r) => r.pipeline.c_ns_per_packet),
    ratio_wasm_c: reports.map((r) => r.pipeline.ratio_wasm_c),
    kernels: Object.fromEntries(Object.keys(first.kernels).map((k) => [k, reports.map((r) => r.kernels[k]?.ns_per_op ?? null)])),
    fabric_packet_hops_per_s: reports.map((r) => r.fabric?.packet_hops_per_s ?? null),
    fabric_clos_packet_hops_per_s: reports.map((r) => r.fabric_clos?.packet_hops_per_s ?? null),
    fabric_clos_speedup: reports.map((r) => r.fabric_clos?.speedup ?? null),
    clos_k8_per_hop_vs_incast: reports.map((r) => r.clos_k8?.per_hop_vs_incast ?? null),
    fixed_cost_incast_wall_ms: reports.map((r) => r.fixed_cost?.incast_1us.wall_ms ?? null),
    fixed_cost_clos_k8_wall_ms: reports.map((r) => r.fixed_cost?.clos_k8_1us.wall_ms ?? null),
    fixed_cost_incast_peak_rss_mb: reports.map((r) => r.fixed_cost?.incast_1us.peak_rss_mb ?? null),
    fixed_cost_clos_k8_peak_rss_mb: reports.map((r) => r.fixed_cost?.clos_k8_1us.peak_rss_mb ?? null),
    sweep_point_ms: reports.map((r) => r.fixed_cost?.sweep_point_ms ?? null),
  };
  const ns = mid(across.pipeline_ns);
  const kernels: BenchReport['kernels'] = {};
  for (const [name, k] of Object.entries(first.kernels)) {
    if (k.ns_per_op === null) { kernels[name] = k; continue; }
    const all = reports.map((r) => r.kernels[name]).filter((x): x is typeof k & { ns_per_op: number } => x?.ns_per_op != null);
    kernels[name] = {
      ...k,
      ns_per_op: mid(all.map((x) => x.ns_per_op))!,
      p99_ns: mid(all.map((x) => x.p99_ns))!,
      mean_ns: mid(all.map((x) => x.mean_ns))!,
      rme_pct: mid(all.map((x) => x.rme_pct))!,
      samples: all.reduce((a, x) => a + x.samples, 0),
    };
  }
  const fabrics = reports.map((r) => r.fabric).filter((f) => f !== undefined);
  const fabric = fabrics.length
    ? {
        ...fabrics[0],
        packet_hops_per_s: Math.round(median(fabrics.map((f) => f.packet_hops_per_s))),
        events_per_s: Math.round(median(fabrics.map((f) => f.events_per_s))),
        packet_hops_per_cpu_s: Math.round(median(fabrics.map((f) => f.packet_hops_per_cpu_s))),
        wall_s: r3(median(fabrics.map((f) => f.wall_s))),
        cpu_s: r3(median(fabrics.map((f) => f.cpu_s))),
      }
    : undefined;
  const closRuns = reports.map((r) => r.fabric_clos).filter((f) => f !== undefined);
  const fabric_clos = closRuns.length
    ? { ...closRuns[0], packet_hops_per_s: Math.round(median(closRuns.map((f) => f.packet_hops_per_s))), packet_hops_per_cpu_s: Math.round(median(closRuns.map((f) => f.packet_hops_per_cpu_s))),
      wall_s: r3(median(closRuns.map((f) => f.wall_s))), cpu_s: r3(median(closRuns.map((f) => f.cpu_s))),
      serial_packet_hops_per_s: Math.round(median(closRuns.map((f) => f.serial_packet_hops_per_s))),
      serial_wall_s: r3(median(closRuns.map((f) => f.serial_wall_s))), serial_cpu_s: r3(median(closRuns.map((f) => f.serial_cpu_s))),
      // The median of the per-process speed-ups (each a side-by-side ratio), not a ratio of medians.
      speedup: r3(median(closRuns.map((f) => f.speedup))) }
    : undefined;
  // The k = 8 figures of the run whose per-hop ratio is the median one (a ratio from one process).
  const k8Runs = reports.map((r) => r.clos_k8).filter((k) => k !== undefined);
  const k8Ratio = mid(k8Runs.map((k) => k.per_hop_vs_incast));
  const clos_k8 = k8Runs.length ? k8Runs.find((k) => k.per_hop_vs_incast === k8Ratio) ?? k8Runs[0] : undefined;
  const fixedRuns = reports.map((r) => r.fixed_cost).filter((f) => f !== undefined);
  const fixed_cost = fixedRuns.length ? combineFixedCost(fixedRuns) : undefined;
  const combined: BenchReport = {
    ...first,
    pipeline: {
      ...first.pipeline,
      ns_per_packet: ns,
      p99_ns: mid(reports.map((r) => r.pipeline.p99_ns)),
      rme_pct: mid(reports.map((r) => r.pipeline.rme_pct)),
      c_ns_per_packet: mid(across.c_ns),
      c_rme_pct: mid(reports.map((r) => r.pipeline.c_rme_pct)),
      ratio_wasm_c: mid(across.ratio_wasm_c),
      mpps: ns === null ? null : r3(1000 / ns),
    },
    kernels,
    ...(fabric ? { fabric } : {}),
    ...(fabric_clos ? { fabric_clos } : {}),
    ...(clos_k8 ? { clos_k8 } : {}),
    ...(fixed_cost ? { fixed_cost } : {}),
    method: {
      ...first.method,
      runs: reports.length,
      caveat: `each figure is the median over ${reports.length} separate processes (p50 within each; the ratio is the median of the per-run ratios); across_runs has every run's value`,
    },
  };
  return { ...combined, targets: engineTargets(combined), across_runs: across };
}

/** Each fixed-cost figure as the median over the runs. */
function combineFixedCost(runs: FixedCostReport[]): FixedCostReport {
  const one = (pick: (f: FixedCostReport) => FixedCostCase): FixedCostCase => ({
    wall_ms: mid(runs.map((f) => pick(f).wall_ms))!,
    cpu_ms: mid(runs.map((f) => pick(f).cpu_ms))!,
    peak_rss_mb: mid(runs.map((f) => pick(f).peak_rss_mb))!,
  });
  return {
    ...runs[0],
    incast_1us: one((f) => f.incast_1us), clos_k8_1us: one((f) => f.clos_k8_1us), node_e_0: one((f) => f.node_e_0),
    sweep_point_ms: mid(runs.map((f) => f.sweep_point_ms))!, sweep_point_run_ms: mid(runs.map((f) => f.sweep_point_run_ms))!,
  };
}

/**
 * Runs `dcbkit bench --json [--quick]` `runs` times as child processes of the same Node and CLI
 * entry, one after the other (never in parallel: they would share the cores they measure).
 */
export function benchInProcesses(cliEntry: string, runs: number, quick: boolean, onRun?: (i: number) => void): BenchReport[] {
  const reports: BenchReport[] = [];
  for (let i = 0; i < runs; i++) {
    onRun?.(i);
    const r = spawnSync(process.execPath, [cliEntry, 'bench', '--json', ...(quick ? ['--quick'] : [])], { encoding: 'utf8', maxBuffer: 64 << 20 });
    if (r.status !== 0) throw new Error(`bench run ${i + 1} of ${runs} failed (exit ${r.status}): ${r.stderr.trim().split('\n').slice(-3).join(' | ')}`);
    reports.push(JSON.parse(r.stdout) as BenchReport);
  }
  return reports;
}
