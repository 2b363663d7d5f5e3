// `dcbkit run <scenario> [--out DIR] [--json] [--max-memory SIZE] [--threads N] [--pcap DIR [--pcap-ports a>b,...]
// [--pcap-snaplen N]]`: simulate a DCB fabric (docs/sim.md); --pcap writes packet traces (docs/capture.md).
// --threads runs one simulation on N threads (host/sim/partition.ts), every output the same as on one.
// --json prints the SimSummary as one JSON document; --out writes the report (host/report/report.ts:
// summary, series CSV, plots, HTML) atomically. A progress bar shows on a terminal only.
// A run that would not fit --max-memory is refused before it starts (host/sim/budget.ts); SIGINT
// (Ctrl-C) or SIGTERM stops a run while it simulates, renders or writes with one line on stderr,
// exit 130 or 143 and nothing written (host/io/signals.ts).
import type { CommandModule } from 'yargs';
import { InputError } from '../errors/errors.js';
import { availableParallelism } from 'node:os';
import { loadScenario, type Scenario } from '../scenario/scenario.js';
import { autoThreads, checkThreadsArg } from '../sim/partition.js';
import '../documents/scenario-kind.js'; // names the scenario in its unknown-key messages
import { startRun } from '../sim/run.js';
import type { SimResult } from '../sim/result.js';
import { progress } from '../sim/progress.js';
import { DEFAULT_MAX_MEMORY, formatBytes, type ScenarioSource } from '../sim/budget.js';
import { statSync } from 'node:fs';
import { sizeBytes } from '../scenario/units.js';
import { checkOutDir, RUN_OUTPUT, writeTreeAtomicAsync, type OutputKind } from '../io/output.js';
import { CAPTURE_GENERATOR, CAPTURE_MANIFEST, DEFAULT_SNAPLEN, MAX_DEFAULT_PORTS, PacketCapture } from '../sim/capture.js';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { Interrupted, stopSignal, withStopSignals } from '../io/signals.js';
// The report and its plots (vega, vega-lite: most of the code dcbkit ships) are imported only when
// a run writes them or is interrupted, so that `run --json` starts as fast as `validate`.
const plots = () => import('../report/plots.js');
const report = () => import('../report/report.js');

export interface RunArgs {
  scenario: string; out?: string; json?: boolean; 'max-memory'?: string; threads?: number;
  pcap?: string; 'pcap-ports'?: string; 'pcap-snaplen'?: number;
}

/** A --pcap directory of its own: recognised for replacement by its manifest. */
export const PCAP_OUTPUT: OutputKind = { generator: CAPTURE_GENERATOR, signature: CAPTURE_MANIFEST };

/**
 * Where the capture files go: under --out (written with the report, all or nothing; `prefix` is
 * their path there), or a directory of their own (null prefix). Checks the flags before any work.
 */
export function pcapTarget(args: RunArgs): { prefix: string | null } | undefined {
  if (args.pcap === undefined) {
    if (args['pcap-ports'] !== undefined) throw new InputError({ path: '--pcap-ports', rule: 'needs --pcap DIR (where the capture files go)' });
    if (args['pcap-snaplen'] !== undefined) throw new InputError({ path: '--pcap-snaplen', rule: 'needs --pcap DIR (where the capture files go)' });
    return undefined;
  }
  if (args.pcap === '') throw new InputError({ path: '--pcap', rule: 'must name a directory, got an empty string' });
  if (args.out !== undefined) {
    const rel = relative(resolve(args.out), resolve(args.pcap));
    if (rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))) return { prefix: rel === '' ? '' : rel.split(sep).join('/') + '/' };
  }
  checkOutDir(args.pcap, PCAP_OUTPUT, '--pcap');
  return { prefix: null };
}

/** --pcap-ports `a>b,c>d` as names (undefined: the default selection). */
function pcapPorts(text: string | undefined): string[] | undefined {
  return text === undefined ? undefined : text.split(',').map((x) => x.trim()).filter((x) => x !== '');
}

/** Thrown when the run was told to stop (SIGINT or SIGTERM) before it finished. */
export class RunInterrupted extends Error {}

/** How often a run yields to the event loop so that a signal can be seen, ms of wall time. */
const YIELD_MS = 50;

/**
 * Threads of a run: --threads when given (a whole number, at least 1); otherwise the machine's cores
 * when the run is big enough to pay for starting them (autoThreads), else 1.
 */
export function parseThreads(n: number | undefined, scn: Scenario): number {
  return checkThreadsArg(n) ?? autoThreads(scn);
}

export function parseMaxMemory(text: string | undefined): number {
  if (text === undefined) return DEFAULT_MAX_MEMORY;
  const r = sizeBytes.safeParse(text);
  if (!r.success || r.data <= 0) throw new InputError({ path: '--max-memory', rule: `a size such as 2GiB or 512MB (got "${text}")` });
  return r.data;
}

/** The scenario file's size and format, which the memory budget counts (host/sim/budget.ts). */
export function scenarioSource(path: string): ScenarioSource | undefined {
  const st = statSync(path, { throwIfNoEntry: false });
  return st?.isFile() ? { bytes: st.size, yaml: !/\.json$/i.test(path) } : undefined;
}

/**
 * Library form of `dcbkit run`: loads, checks and simulates; throws InputError on a bad scenario
 * or one over the memory budget, RunInterrupted when `stop()` turns true between intervals.
 */
export async function runCommand(args: RunArgs, stop: () => boolean = () => false): Promise<SimResult & { capture?: Map<string, string | Uint8Array> }> {
  const scn = loadScenario(args.scenario);
  const threads = parseThreads(args.threads, scn);
  const capture = args.pcap !== undefined ? new PacketCapture(scn, { ports: pcapPorts(args['pcap-ports']), snaplen: args['pcap-snaplen'] }) : undefined;
  const run = startRun(scn, { maxMemoryBytes: parseMaxMemory(args['max-memory']), withReport: args.out !== undefined, threads, capture, source: scenarioSource(args.scenario) });
  // Asked for more threads than the fabric can use: say why (an automatic choice needs no note).
  if (args.threads !== undefined && run.threads < args.threads && !args.json) process.stderr.write(`note: running on ${run.threads} thread${run.threads > 1 ? 's' : ''}: ${run.threadsNote ?? 'the fabric has no more parts'}\n`);
  const steps = Math.ceil(scn.duration_ps / scn.sample_ps);
  const bar = progress(steps, { json: args.json, label: 'simulating', unit: 'samples' });
  try {
    let done = 0;
    let lastYield = Date.now();
    while (!run.done()) {
      run.step();
      bar.update(++done);
      if (Date.now() - lastYield >= YIELD_MS) {
        await new Promise((r) => setImmediate(r));
        lastYield = Date.now();
        if (stop()) {
          const tu = (await plots()).timeUnitFor(scn.duration_ps);
          throw new RunInterrupted(`at ${(run.now() / tu.ps).toFixed(3)} of ${scn.duration_ps / tu.ps} ${tu.label} simulated`);
        }
      }
    }
    const result = run.finish();
    return capture ? { ...result, capture: capture.files() } : result;
  } finally {
    bar.stop();
    run.close();
  }
}

/**
 * The ETS line of the human summary. The share is measured only over sampling intervals in which every
 * weighted ETS TC of a port had frames waiting (docs/sim.md), so a run may have no figure: say why.
 */
function etsLine(s: SimResult['summary']): string {
  if (s.ets.max_share_error_pp !== null) return `ETS max share error: ${s.ets.max_share_error_pp} pp`;
  return 'ETS share error: not measured (no port had two or more weighted ETS traffic classes all backlogged in a sampling interval)';
}

export const runCommandModule: CommandModule<object, RunArgs> = {
  command: 'run <scenario>',
  describe: 'simulate a scenario of hosts, switches and links; print or write metrics',
  builder: (y) =>
    y
      .positional('scenario', { type: 'string', demandOption: true, describe: 'scenario file (YAML or JSON)' })
      .option('out', { type: 'string', describe: 'directory for the report (summary, series, plots, HTML)' })
      .option('json', { type: 'boolean', describe: 'print the summary as one JSON document' })
      .option('max-memory', { type: 'string', describe: `refuse runs whose series and arena need more (default ${formatBytes(DEFAULT_MAX_MEMORY)})` })
      .option('threads', { type: 'number', describe: `threads for the one run (default: the idle ones of the ${availableParallelism()} cores for a fabric that is big enough and can be split, else 1)` })
      .option('pcap', { type: 'string', describe: 'directory for packet traces: one pcapng file per port with the frames that left it (docs/capture.md)' })
      .option('pcap-ports', { type: 'string', describe: `ports to capture, node>peer names separated by commas (default: every port, up to ${MAX_DEFAULT_PORTS})` })
      .option('pcap-snaplen', { type: 'number', describe: `bytes kept of each frame (default ${DEFAULT_SNAPLEN}; control frames are shorter and kept whole)` }) as never,
  handler: async (args) => {
    // A bad --out is reported before the simulation, not after it.
    if (args.out !== undefined) checkOutDir(args.out, RUN_OUTPUT);
    const pcap = pcapTarget(args);
    await withStopSignals(async () => {
      const stopped = () => stopSignal() !== undefined;
      let result: SimResult & { capture?: Map<string, string | Uint8Array> };
      try {
        result = await runCommand(args, stopped);
        // Capture files inside --out go with the report (all or nothing); elsewhere they are staged
        // on their own, after the report, so that a stop while rendering leaves both as they were.
        // Rendering yields (the check after it), and so does the write between its files (host/io/output.ts).
        const inOut = new Map([...(pcap?.prefix != null && result.capture ? result.capture : [])].map(([k, v]) => [`${pcap!.prefix}${k}`, v]));
        if (args.out && (await (await report()).writeReport(result, args.out, inOut, stopped)) === null) throw new RunInterrupted('while rendering the report');
        if (args.pcap !== undefined && pcap?.prefix === null && result.capture) await writeTreeAtomicAsync(args.pcap, result.capture, PCAP_OUTPUT, '--pcap');
      } catch (e) {
        if (!(e instanceof RunInterrupted)) throw e;
        throw new Interrupted(stopSignal() ?? 'SIGINT', `${e.message}; nothing written${args.out ? `: ${args.out} is as it was` : ''}`);
      }
      printResult(args, result);
    });
  },
};

function printResult(args: RunArgs, result: SimResult): void {
  if (args.json) process.stdout.write(JSON.stringify(result.summary) + '\n');
  else {
    const s = result.summary;
    process.stdout.write(
      `${s.scenario.name}: ${s.sim.packet_hops} packet-hops in ${s.sim.wall_s} s on ${s.sim.threads} thread${s.sim.threads > 1 ? 's' : ''} (${(s.sim.packet_hops_per_s / 1e6).toFixed(2)} M/s with set-up and sampling; dcbkit bench measures the engine alone)\n` +
        `drops: lossless ${s.drops.lossless}, lossy ${s.drops.lossy}; PFC pause episodes ${s.pfc.xoff_episodes} (XOFF frames ${s.pfc.xoff_frames}, XON ${s.pfc.xon_sent}); CNMs ${s.qcn.cnms}\n` +
        `${etsLine(s)}; Jain fairness: ${s.fairness.jain ?? 'n/a'}\n` +
        (s.deadlock ? `DEADLOCK on priority ${s.deadlock.priority} from ${s.deadlock.detected_at_ps / 1e9} ms: ${s.deadlock.ports.join(' -> ')} (docs/deadlock.md)\n` : '') +
        (args.out ? `report: ${args.out}/report.html\n` : '') +
        (args.pcap !== undefined ? `packet traces: ${args.pcap}/${CAPTURE_MANIFEST}\n` : ''),
    );
  }
}
