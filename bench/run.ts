// `dcbkit bench`: per-kernel and port-pipeline figures (docs/design.md §6, docs/bench.md).
//
// Method: every variant is a batched driver (>= 1000 packets per call, one call per sample); all are
// warmed up with >= 20 calls first (V8 has no on-stack replacement for Wasm: a long first call
// would stay in Liftoff). Variants run interleaved: R rounds, each round one tinybench 6 Bench
// (hrtimeNow) over all Wasm variants followed by one timed run of the C reference, and the samples
// of all rounds are pooled. The Wasm/C ratio is the median of per-round ratios of p50s.
import { benchClos, benchFabric, type ClosBench, type FabricBench } from '../host/sim/bench.js';
import { Bench } from 'tinybench';
import { Core, packageRoot } from '../host/core/loader.js';
import { toolVersions } from '../host/core/versions.js';
import { kernelBenches } from './kernels.js';
import type { AcrossRuns } from './runs.js';
import { buildNativePort, gccVersion, nativeSamples, type NativePort } from './native.js';
import { nativeInstructionsPerPacket, wasmInstructionsPerPacket, type PerfResult } from './perf.js';
import { median, summarize, type Summary } from './stats.js';
import { measureStartup, type StartupReport } from './startup.js';
import { measureFixedCost, type FixedCostReport } from './fixed-cost.js';
import { benchClosK8, type EngineFigures } from './clos-engine.js';
import { engineTargets, type TargetCheck } from './targets.js';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { maxOf, minOf } from '../host/util/extent.js';

export interface BenchOptions {
  quick?: boolean;
}

/** Packets (or operations) per sample, and the size of the port's replayed arrival ring. */
export const BATCH = 4096;
const WARMUP_CALLS = 30;

type KernelFigure = (Summary & { op: string }) | { ns_per_op: null; reason: string };

export interface BenchReport {
  pipeline: {
    ns_per_packet: number | null;
    p99_ns: number | null;
    rme_pct: number | null;
    c_ns_per_packet: number | null;
    c_rme_pct: number | null;
    ratio_wasm_c: number | null;
    instructions_per_packet: number | null;
    c_instructions_per_packet: number | null;
    instructions_source: string | null;
    c_instructions_source: string | null;
    mpps: number | null;
    budget_ns_100g_64b: number;
    reason?: string;
    instructions_reason?: string;
  };
  kernels: Record<string, KernelFigure>;
  method: { rounds: number; time_ms_per_task_round: number; batch: number; warmup_calls: number; timer: string; quick: boolean; caveat: string; runs?: number };
  versions: Record<string, string | null>;
  /** Fabric simulator: packet-hops per second of wall time (host/sim/bench.ts). */
  fabric?: FabricBench;
  /** A k = 16 fat tree run whole (host/sim/bench.ts benchClos). */
  fabric_clos?: ClosBench;
  /**
   * The engine alone on a k = 8 permutation (bench/clos-engine.ts benchClosK8), and its CPU time per
   * packet-hop over the incast's (`fabric`, also per CPU second, same process).
   */
  clos_k8?: EngineFigures & { per_hop_vs_incast: number | null };
  /** Start-up of the installed CLI: median wall and CPU ms of short commands, beside bare node (bench/startup.ts). */
  cli_startup_ms?: StartupReport;
  /** Fixed cost and peak RSS of 1-us runs of the incast and a k = 8 tree, and a sweep's cost per point (bench/fixed-cost.ts). */
  fixed_cost?: FixedCostReport;
  /** Each engine-cost figure against its target (bench/targets.ts). */
  targets?: TargetCheck[];
  /** With --runs N: every run's value of the headline figures (bench/runs.ts). */
  across_runs?: AcrossRuns;
}

function cpuModel(): string | null {
  try {
    const m = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    return m ? m[1].trim() : null;
  } catch {
    return null;
  }
}

interface Variant {
  name: string;
  run: (n: number) => number;
  samples: number[]; // ns per op
  perRoundP50: number[];
}

export async function runBench(opts: BenchOptions = {}): Promise<BenchReport> {
  const quick = !!opts.quick;
  const rounds = quick ? 2 : 7;
  const timeMs = quick ? 150 : 400;
  const core = new Core('release');
  const memBefore = core.memoryBytes;
  let sink = 0; // drivers' results are folded here (their work is observable either way: it writes memory)

  const kernels: Record<string, KernelFigure> = {};
  const variants: Variant[] = [];
  for (const k of kernelBenches) {
    const b = k.bind(core, BATCH);
    if ('missing' in b) kernels[k.name] = { ns_per_op: null, reason: b.missing };
    else variants.push({ name: k.name, run: b.run, samples: [], perRoundP50: [] });
  }
  const ex = core.exports as Record<string, unknown>;
  let pipeline: Variant | null = null;
  let pipelineReason: string | undefined;
  if (typeof ex.portBenchSetup === 'function' && typeof ex.portProcess === 'function') {
    (ex.portBenchSetup as (seed: number) => void)(1);
    pipeline = { name: 'port_pipeline', run: ex.portProcess as (n: number) => number, samples: [], perRoundP50: [] };
    variants.push(pipeline);
  } else pipelineReason = 'the core has no portBenchSetup/portProcess exports';

  let native: NativePort | null = null;
  let nativeReason: string | undefined;
  try {
    native = buildNativePort();
  } catch (e) {
    nativeReason = (e as Error).message;
  }
  const cSamples: number[] = [];
  const cPerRound: number[] = [];

  for (const v of variants) for (let i = 0; i < WARMUP_CALLS; i++) sink ^= v.run(BATCH);

  for (let round = 0; round < rounds; round++) {
    const bench = new Bench({ time: timeMs, warmupIterations: 20, warmupTime: 20, timestampProvider: 'hrtimeNow', retainSamples: true });
    for (const v of variants) bench.add(v.name, () => { sink ^= v.run(BATCH); });
    const tasks = bench.runSync();
    tasks.forEach((t, i) => {
      const lat = t.result && 'latency' in t.result ? t.result.latency : null;
      const s = (lat?.samples ?? []).map((ms) => (ms * 1e6) / BATCH);
      for (const x of s) variants[i].samples.push(x); // no spread: a fast task can have 10^5+ samples
      variants[i].perRoundP50.push(median(s));
    });
    if (native) {
      const samples = Math.max(20, Math.round(timeMs / 0.1)); // ~100 us per 4096-packet C sample
      const s = nativeSamples(native, BATCH, samples, WARMUP_CALLS);
      for (const x of s) cSamples.push(x);
      cPerRound.push(median(s));
    }
  }
  if (core.memoryBytes !== memBefore) throw new Error('core memory grew during the benchmark');

  for (const v of variants) {
    if (v === pipeline) continue;
    const k = kernelBenches.find((kb) => kb.name === v.name)!;
    kernels[v.name] = { ...summarize(v.samples), op: k.op };
  }
  const orderedKernels = Object.fromEntries(kernelBenches.map((k) => [k.name, kernels[k.name]]));

  const p = pipeline ? summarize(pipeline.samples) : null;
  const c = cSamples.length ? summarize(cSamples) : null;
  const ratios = pipeline && cPerRound.length ? pipeline.perRoundP50.map((w, i) => w / cPerRound[i]) : [];

  // Instructions per packet: N = 0 vs N packets, Wasm through the perf driver, C directly.
  // by the package root, not this module's URL: in the CLI bundle this code is a chunk in dist/cli/
  const driver = join(packageRoot(), 'dist', 'bench', 'perf-driver.js');
  const perfN = quick ? 200_000 : 2_000_000;
  let wasmPerf: PerfResult = { instructions_per_packet: null, reason: pipelineReason ?? '' };
  if (pipeline) wasmPerf = wasmInstructionsPerPacket(driver, perfN, quick ? 50_000 : 400_000);
  const cPerf: PerfResult = native ? nativeInstructionsPerPacket(native.exe, ['count', '1'], quick ? 20_000 : 200_000) : { instructions_per_packet: null, reason: nativeReason ?? '' };
  native?.dispose();

  const r3 = (x: number) => Number(x.toFixed(3));
  const reasons = [pipelineReason, nativeReason && `C reference: ${nativeReason}`].filter(Boolean).join('; ');
  const report: BenchReport = {
    pipeline: {
      ns_per_packet: p?.ns_per_op ?? null,
      p99_ns: p?.p99_ns ?? null,
      rme_pct: p?.rme_pct ?? null,
      c_ns_per_packet: c?.ns_per_op ?? null,
      c_rme_pct: c?.rme_pct ?? null,
      ratio_wasm_c: ratios.length ? r3(median(ratios)) : null,
      instructions_per_packet: wasmPerf.instructions_per_packet,
      c_instructions_per_packet: cPerf.instructions_per_packet,
      instructions_source: 'source' in wasmPerf ? wasmPerf.source : null,
      c_instructions_source: 'source' in cPerf ? cPerf.source : null,
      mpps: p ? r3(1000 / p.ns_per_op) : null,
      budget_ns_100g_64b: 6.72,
    },
    kernels: orderedKernels,
    method: {
      rounds,
      time_ms_per_task_round: timeMs,
      batch: BATCH,
      warmup_calls: WARMUP_CALLS,
      timer: 'tinybench 6 hrtimeNow',
      quick,
      caveat: 'wall-clock figures from one run on this machine; compare only figures from the same run',
    },
    versions: { ...toolVersions(), gcc: gccVersion(), cpu: cpuModel(), cores: String(cpus().length) },
  };
  report.fabric = benchFabric({ quick });
  const k8 = benchClosK8({ quick });
  report.clos_k8 = { ...k8, per_hop_vs_incast: perHopRatio(report.fabric, k8) };
  report.fabric_clos = benchClos({ quick });
  report.cli_startup_ms = measureStartup({ runs: quick ? 3 : 9 });
  report.fixed_cost = await measureFixedCost({ runs: quick ? 1 : 7, sweepPoints: quick ? 3 : 20 });
  report.targets = engineTargets(report);
  if (reasons) report.pipeline.reason = reasons;
  const perfReasons = ['reason' in wasmPerf ? wasmPerf.reason : '', 'reason' in cPerf ? `C: ${cPerf.reason}` : ''].filter(Boolean);
  if (perfReasons.length) report.pipeline.instructions_reason = perfReasons.join('; ');
  return report;
}

/** CPU time per packet-hop of the tree over the incast's (both engine-only, this process). */
export function perHopRatio(incast: FabricBench | undefined, tree: EngineFigures): number | null {
  if (!incast || incast.packet_hops_per_cpu_s <= 0 || tree.packet_hops_per_cpu_s <= 0) return null;
  return Number((incast.packet_hops_per_cpu_s / tree.packet_hops_per_cpu_s).toFixed(3));
}

/** Human-readable table of a report. */
export function formatBench(r: BenchReport): string {
  const f = (x: number | null, unit = '') => (x === null ? 'n/a' : `${x}${unit}`);
  const lines = [
    `port pipeline: ${f(r.pipeline.ns_per_packet, ' ns/packet')} p50 (rme ${f(r.pipeline.rme_pct, ' %')}), ` +
      `C ${f(r.pipeline.c_ns_per_packet, ' ns/packet')}, Wasm/C ${f(r.pipeline.ratio_wasm_c)}, ` +
      `${f(r.pipeline.instructions_per_packet)} instr/packet (C ${f(r.pipeline.c_instructions_per_packet)}); budget 100G/64B ${r.pipeline.budget_ns_100g_64b} ns`,
  ];
  if (r.pipeline.reason) lines.push(`  pipeline: ${r.pipeline.reason}`);
  if (r.pipeline.instructions_reason) lines.push(`  instructions: ${r.pipeline.instructions_reason}`);
  for (const [name, k] of Object.entries(r.kernels)) {
    lines.push(k.ns_per_op === null ? `${name}: n/a (${k.reason})` : `${name}: ${k.ns_per_op} ns/op p50 (rme ${k.rme_pct} %, p99 ${k.p99_ns} ns) — ${k.op}`);
  }
  if (r.fabric) lines.push(`fabric (${r.fabric.scenario}): ${(r.fabric.packet_hops_per_s / 1e6).toFixed(2)} M packet-hops/s, ${(r.fabric.events_per_s / 1e6).toFixed(2)} M events/s`);
  if (r.fabric_clos) {
    const c = r.fabric_clos;
    lines.push(`fabric_clos (${c.scenario}, whole run): ${(c.packet_hops_per_s / 1e6).toFixed(2)} M packet-hops/s, ${c.wall_s.toFixed(2)} s on ${c.threads} threads; ` +
      `1 thread ${(c.serial_packet_hops_per_s / 1e6).toFixed(2)} M, ${c.serial_wall_s.toFixed(2)} s; speed-up ${c.speedup}`);
  }
  if (r.clos_k8) {
    const k = r.clos_k8;
    lines.push(`clos_k8 (engine alone, ${k.flows} ${k.pattern} flows, ${k.duration_ps / 1e6} us): ${(k.packet_hops_per_cpu_s / 1e6).toFixed(2)} M packet-hops per CPU s, ` +
      `${k.ns_per_event_cpu} ns per event; per hop ${k.per_hop_vs_incast ?? 'n/a'}x the incast's`);
  }
  if (r.cli_startup_ms) {
    const s = r.cli_startup_ms;
    const c = (x: { ms: number; cpu_ms: number }) => `${x.ms} ms (cpu ${x.cpu_ms})`;
    lines.push(`cli start-up (median of ${s.method.runs}): --version ${c(s.version)}, --help ${c(s.help)}, validate ${c(s.validate)}, tiny run ${c(s.tiny_run)}; node -e 0 ${c(s.node_e_0)}`);
  }
  if (r.fixed_cost) {
    const x = r.fixed_cost;
    const c = (v: { wall_ms: number; cpu_ms: number; peak_rss_mb: number }) => `${v.wall_ms} ms (cpu ${v.cpu_ms}), peak RSS ${v.peak_rss_mb} MB`;
    lines.push(`fixed cost (median of ${x.method.runs}): 1-us incast ${c(x.incast_1us)}; 1-us k = 8 tree ${c(x.clos_k8_1us)}; node -e 0 ${c(x.node_e_0)}; ` +
      `sweep ${x.sweep_point_ms} ms per point on a warm worker (the run itself ${x.sweep_point_run_ms} ms)`);
  }
  if (r.across_runs) {
    const span = (xs: (number | null)[]) => {
      const v = xs.filter((x): x is number => x !== null);
      return v.length ? `${minOf(v)}..${maxOf(v)}` : 'n/a';
    };
    const a = r.across_runs;
    lines.push(`across ${a.pipeline_ns.length} runs (min..max): pipeline ${span(a.pipeline_ns)} ns, C ${span(a.c_ns)} ns, Wasm/C ${span(a.ratio_wasm_c)}, ` +
      Object.entries(a.kernels).map(([k, v]) => `${k} ${span(v)} ns`).join(', ') +
      `, fabric ${span(a.fabric_packet_hops_per_s.map((x) => (x === null ? null : Number((x / 1e6).toFixed(2)))))} M/s` +
      `, k = 8 per hop ${span(a.clos_k8_per_hop_vs_incast)}x, speed-up ${span(a.fabric_clos_speedup)}` +
      `, 1-us incast ${span(a.fixed_cost_incast_wall_ms)} ms, 1-us k = 8 ${span(a.fixed_cost_clos_k8_wall_ms)} ms` +
      `, peak RSS ${span(a.fixed_cost_incast_peak_rss_mb)} / ${span(a.fixed_cost_clos_k8_peak_rss_mb)} MB, sweep ${span(a.sweep_point_ms)} ms per point`);
  }
  if (r.targets) {
    lines.push(`targets: ${r.targets.filter((t) => t.met).length} of ${r.targets.length} met; ` +
      r.targets.map((t) => `${t.figure} ${t.value ?? 'n/a'} ${t.rule} ${t.bound} ${t.met ? 'met' : 'NOT met'}`).join('; '));
  }
  lines.push(`method: ${r.method.rounds} interleaved rounds x ${r.method.time_ms_per_task_round} ms per variant, ${r.method.batch} ops per sample, ${r.method.warmup_calls} warm-up calls; ${r.method.caveat}`);
  lines.push(`versions: ${Object.entries(r.versions).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  return lines.join('\n') + '\n';
}
