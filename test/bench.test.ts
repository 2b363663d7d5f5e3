// `dcbkit bench --quick --json`: the report's shape (docs/design.md §5). Never a time: speed is
// reported by the command, not asserted by tests.
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers.js';
import { combineRuns } from '../bench/runs.js';
import type { BenchReport } from '../bench/run.js';

const numOrNull = (x: unknown) => x === null || (typeof x === 'number' && Number.isFinite(x) && x > 0);

describe('dcbkit bench --quick --json', () => {
  // A quick bench takes about 40 s on an idle 2-core machine and two to three times that under load.
  it('prints one JSON document with pipeline, kernels and versions', { timeout: 300_000 }, () => {
    const r = runCli(['bench', '--quick', '--json']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const rep = JSON.parse(lines[0]);
    for (const k of ['ns_per_packet', 'c_ns_per_packet', 'ratio_wasm_c', 'instructions_per_packet']) {
      expect(rep.pipeline).toHaveProperty(k);
      expect(numOrNull(rep.pipeline[k])).toBe(true);
    }
    // A null instruction count always comes with its reason.
    if (rep.pipeline.instructions_per_packet === null) expect(typeof rep.pipeline.instructions_reason).toBe('string');
    expect(Object.keys(rep.kernels)).toEqual(['ets_dwrr_select', 'pfc_accounting', 'pfc_accounting_only', 'credit_send', 'qcn_cp_packet']);
    const dwrr = rep.kernels.ets_dwrr_select;
    expect(typeof dwrr.ns_per_op).toBe('number');
    expect(dwrr.samples).toBeGreaterThan(0);
    expect(typeof dwrr.rme_pct).toBe('number');
    for (const k of Object.values(rep.kernels) as { ns_per_op: number | null; reason?: string }[]) {
      if (k.ns_per_op === null) expect(typeof k.reason).toBe('string');
    }
    for (const v of ['node', 'v8', 'assemblyscript', 'gcc', 'cpu']) expect(rep.versions).toHaveProperty(v);
    expect(rep.versions.node).toBe(process.versions.node);
    expect(rep.method.quick).toBe(true);
    // start-up of the installed CLI beside bare node: wall and CPU ms per case (bench/startup.ts)
    for (const k of ['node_e_0', 'version', 'help', 'validate', 'tiny_run']) {
      expect(rep.cli_startup_ms[k].ms, k).toBeGreaterThan(0);
      expect(rep.cli_startup_ms[k].cpu_ms, k).toBeGreaterThan(0);
    }
    expect(rep.cli_startup_ms.method.entry).toBe('dist/cli/dcbkit.js');
    // fixed cost and peak RSS of the two 1-us runs beside bare node, a sweep's cost per point (bench/fixed-cost.ts)
    for (const k of ['incast_1us', 'clos_k8_1us', 'node_e_0']) {
      for (const f of ['wall_ms', 'cpu_ms', 'peak_rss_mb']) expect(rep.fixed_cost[k][f], `${k}.${f}`).toBeGreaterThan(0);
    }
    // a run holds more than bare node does: the figure is the child's, not the parent's
    expect(rep.fixed_cost.clos_k8_1us.peak_rss_mb).toBeGreaterThan(rep.fixed_cost.node_e_0.peak_rss_mb);
    // a difference of two sweeps' wall times: a number, not asserted (a loaded machine can tip it)
    expect(Number.isFinite(rep.fixed_cost.sweep_point_ms)).toBe(true);
    expect(rep.fixed_cost.sweep_point_run_ms).toBeGreaterThan(0);
    // the k = 8 permutation's engine beside the incast: per-hop CPU ratio from the two rates
    expect(rep.clos_k8).toMatchObject({ k: 8, flows: 128, pattern: 'permutation' });
    expect(rep.clos_k8.packet_hops).toBeGreaterThan(0);
    expect(rep.clos_k8.per_hop_vs_incast).toBeCloseTo(rep.fabric.packet_hops_per_cpu_s / rep.clos_k8.packet_hops_per_cpu_s, 2);
    // every target names its figure, which is in the report with the value shown
    expect(rep.targets.map((t: { figure: string }) => t.figure)).toEqual([
      'fabric.packet_hops_per_s', 'clos_k8.per_hop_vs_incast', 'fixed_cost.incast_1us.wall_ms', 'fixed_cost.clos_k8_1us.wall_ms',
      'fixed_cost.incast_1us.peak_rss_mb', 'fixed_cost.clos_k8_1us.peak_rss_mb', 'fixed_cost.sweep_point_ms', 'fabric_clos.speedup',
    ]);
    for (const t of rep.targets.slice(0, 7)) {
      const value = t.figure.split('.').reduce((o: Record<string, unknown>, k: string) => o[k] as Record<string, unknown>, rep);
      expect(t.value, t.figure).toBe(value);
      expect(t.met, t.figure).toBe(t.value >= 0 && (t.rule === '>=' ? t.value >= t.bound : t.value <= t.bound));
    }
  });

  it('prints a human table without --json', { timeout: 300_000 }, () => {
    const r = runCli(['bench', '--quick']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^port pipeline: /);
    expect(r.stdout).toMatch(/ets_dwrr_select: [\d.]+ ns\/op p50/);
    expect(r.stdout).toMatch(/^cli start-up \(median of \d+\): --version [\d.]+ ms \(cpu [\d.]+\), --help .* node -e 0 [\d.]+ ms/m);
    expect(r.stdout).toMatch(/^clos_k8 \(engine alone, 128 permutation flows, 50 us\): [\d.]+ M packet-hops per CPU s, [\d.]+ ns per event; per hop [\d.]+x the incast's$/m);
    expect(r.stdout).toMatch(/^targets: \d of 8 met; fabric.packet_hops_per_s \d+ >= 15000000 (met|NOT met);/m);
    expect(r.stdout).toMatch(/^fixed cost \(median of \d+\): 1-us incast [\d.]+ ms \(cpu [\d.]+\), peak RSS [\d.]+ MB; 1-us k = 8 tree .* sweep -?[\d.]+ ms per point/m);
  });
});

/** A report with the given headline figures (everything else fixed). */
function report(pipe: number | null, c: number, ratio: number, dwrr: number, fabric: number): BenchReport {
  return {
    pipeline: {
      ns_per_packet: pipe, p99_ns: 2 * c, rme_pct: 0.5, c_ns_per_packet: c, c_rme_pct: 0.4, ratio_wasm_c: ratio,
      instructions_per_packet: null, c_instructions_per_packet: 182, instructions_source: null, c_instructions_source: 'valgrind',
      mpps: null, budget_ns_100g_64b: 6.72,
    },
    kernels: {
      ets_dwrr_select: { ns_per_op: dwrr, p99_ns: dwrr * 2, mean_ns: dwrr, rme_pct: 1, samples: 100, op: 'one selection' },
      credit_send: { ns_per_op: null, reason: 'missing export' },
    },
    method: { rounds: 7, time_ms_per_task_round: 400, batch: 4096, warmup_calls: 30, timer: 'tinybench 6 hrtimeNow', quick: false, caveat: 'one run' },
    versions: { node: '20' },
    fabric: { packet_hops_per_s: fabric, packet_hops: 10, events: 15, events_per_s: 1.5 * fabric, wall_s: 1, cpu_s: 1, packet_hops_per_cpu_s: fabric, simulated_ps: 1, scenario: 's' },
  };
}

describe('dcbkit bench --runs N', () => {
  it('reports each figure as the median over the runs, with every run kept', () => {
    const c = combineRuns([report(22, 25, 0.88, 3.8, 13e6), report(28, 24, 1.17, 5.5, 10e6), report(21, 26, 0.81, 3.9, 14e6)]);
    expect(c.pipeline.ns_per_packet).toBe(22);
    expect(c.pipeline.c_ns_per_packet).toBe(25);
    expect(c.pipeline.ratio_wasm_c).toBe(0.88); // median of the per-run ratios, not 22 / 25
    expect(c.pipeline.mpps).toBe(45.455); // 1000 / 22
    expect(c.kernels.ets_dwrr_select.ns_per_op).toBe(3.9);
    expect(c.kernels.ets_dwrr_select).toMatchObject({ samples: 300, op: 'one selection' });
    expect(c.kernels.credit_send).toEqual({ ns_per_op: null, reason: 'missing export' });
    expect(c.fabric!.packet_hops_per_s).toBe(13e6);
    expect(c.method.runs).toBe(3);
    expect(c.across_runs.pipeline_ns).toEqual([22, 28, 21]);
    expect(c.across_runs.kernels.ets_dwrr_select).toEqual([3.8, 5.5, 3.9]);
    expect(c.across_runs.fabric_packet_hops_per_s).toEqual([13e6, 10e6, 14e6]);
  });

  it('fabric_clos is the median over the runs that have it, every run kept', () => {
    const clos = (rate: number, serialRate: number) => ({
      k: 16, flows: 1024, packet_hops: 16e6, events: 27e6, threads: 2, wall_s: 16e6 / rate, packet_hops_per_s: rate, cpu_s: 8, packet_hops_per_cpu_s: 2e6,
      serial_wall_s: 16e6 / serialRate, serial_packet_hops_per_s: serialRate, serial_cpu_s: 7, speedup: rate / serialRate, scenario: 'k16',
    });
    const c = combineRuns([{ ...report(22, 25, 1, 4, 1e7), fabric_clos: clos(1e6, 1e6) }, { ...report(22, 25, 1, 4, 1e7), fabric_clos: clos(4e6, 2e6) }, { ...report(22, 25, 1, 4, 1e7), fabric_clos: clos(2e6, 0.5e6) }]);
    expect(c.fabric_clos).toMatchObject({ k: 16, threads: 2, packet_hops_per_s: 2e6, wall_s: 8, serial_packet_hops_per_s: 1e6, serial_wall_s: 16 });
    // The speed-up is the median of each process's own ratio (1, 2, 4), not 2e6 / 1e6 by chance.
    expect(c.fabric_clos!.speedup).toBe(2);
    expect(c.across_runs.fabric_clos_packet_hops_per_s).toEqual([1e6, 4e6, 2e6]);
    expect(c.across_runs.fabric_clos_speedup).toEqual([1, 2, 4]);
  });

  it('the k = 8 tree, the fixed cost and the targets come from the medians over the runs', () => {
    const k8 = (ratio: number) => ({ k: 8, flows: 128, pattern: 'permutation' as const, duration_ps: 3e8, setup_s: 0.1, engine_s: 1, engine_cpu_s: 1, ns_per_event_cpu: 90,
      packet_hops: 4e6, events: 7e6, events_per_hop: 1.75, ns_per_event: 90, packet_hops_per_s: 4e6, packet_hops_per_cpu_s: 4e6, per_hop_vs_incast: ratio });
    const fixed = (wall: number, rss: number) => ({ incast_1us: { wall_ms: wall, cpu_ms: wall, peak_rss_mb: rss }, clos_k8_1us: { wall_ms: 2 * wall, cpu_ms: 2 * wall, peak_rss_mb: rss + 20 },
      node_e_0: { wall_ms: 40, cpu_ms: 40, peak_rss_mb: 40 }, sweep_point_ms: wall / 20, sweep_point_run_ms: 1, method: { runs: 7, incast: 'i', clos: 'c', sweep: 's' } });
    const c = combineRuns([{ ...report(22, 25, 1, 4, 16e6), clos_k8: k8(2.5), fixed_cost: fixed(300, 70) }, { ...report(22, 25, 1, 4, 14e6), clos_k8: k8(1.9), fixed_cost: fixed(180, 50) },
      { ...report(22, 25, 1, 4, 15e6), clos_k8: k8(2.1), fixed_cost: fixed(190, 55) }]);
    expect(c.clos_k8!.per_hop_vs_incast).toBe(2.1);
    expect(c.fixed_cost!.incast_1us).toEqual({ wall_ms: 190, cpu_ms: 190, peak_rss_mb: 55 });
    expect(c.fixed_cost!.clos_k8_1us.peak_rss_mb).toBe(75);
    expect(c.across_runs.clos_k8_per_hop_vs_incast).toEqual([2.5, 1.9, 2.1]);
    expect(c.across_runs.fixed_cost_incast_wall_ms).toEqual([300, 180, 190]);
    const met = Object.fromEntries(c.targets!.map((t) => [t.figure, t.met]));
    expect(met).toEqual({
      'fabric.packet_hops_per_s': true, 'clos_k8.per_hop_vs_incast': false, 'fixed_cost.incast_1us.wall_ms': true, 'fixed_cost.clos_k8_1us.wall_ms': false,
      'fixed_cost.incast_1us.peak_rss_mb': true, 'fixed_cost.clos_k8_1us.peak_rss_mb': true, 'fixed_cost.sweep_point_ms': true, 'fabric_clos.speedup': false,
    });
  });

  it('a figure null in some runs is the median of the others', () => {
    expect(combineRuns([report(null, 25, 1, 4, 1e7), report(30, 25, 1, 4, 1e7)]).pipeline.ns_per_packet).toBe(30);
  });

  it('runs the benchmark in separate processes and rejects a bad count', { timeout: 300_000 }, () => {
    const r = runCli(['bench', '--quick', '--json', '--runs', '2']);
    expect(r.status).toBe(0);
    const rep = JSON.parse(r.stdout);
    expect(rep.method.runs).toBe(2);
    expect(rep.across_runs.pipeline_ns).toHaveLength(2);
    const [a, b] = rep.across_runs.pipeline_ns as number[];
    expect(rep.pipeline.ns_per_packet).toBeCloseTo((a + b) / 2, 2);
    const bad = runCli(['bench', '--runs', '0']);
    expect(bad.status).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toBe('--runs: a whole number of runs from 1 to 50\n');
  });
});
