// `dcbkit run <scenario> [--out DIR] [--json] [--max-memory SIZE] [--threads N]`: simulate a DCB fabric (docs/sim.md).
// --threads runs one simulation on N threads (host/sim/partition.ts), every output the same as on one.
// --json prints the SimSummary as one JSON document; --out writes the report (host/report/report.ts:
// summary, series CSV, plots, HTML) atomically. A progress bar shows on a terminal only.
// A run that would not fit --max-memory is refused before it starts (host/sim/budget.ts); SIGINT
// (Ctrl-C) or SIGTERM stops a run while it simulates, renders or writes with one line on stderr,
// exit 130 or 143 and nothing written (host/signals.ts).
import type { CommandModule } from 'yargs';
import { InputError } from '../errors.js';
import { availableParallelism } from 'node:os';
import { loadScenario, type Scenario } from '../scenario/scenario.js';
import { autoThreads, checkThreadsArg } from '../sim/partition.js';
import '../scenario-kind.js'; // names the scenario in its unknown-key messages
import { startRun } from '../sim/run.js';
import type { SimResult } from '../sim/result.js';
import { progress } from '../sim/progress.js';
import { DEFAULT_MAX_MEMORY, formatBytes } from '../sim/budget.js';
import { sizeBytes } from '../scenario/units.js';
import { checkOutDir, RUN_OUTPUT } from '../io.js';
import { Interrupted, stopSignal, withStopSignals } from '../signals.js';
// The report and its plots (vega, vega-lite: most of the code dcbkit ships) are imported only when
// a run writes them or is interrupted, so that `run --json` starts as fast as `validate`.
const plots = () => import('../report/plots.js');
const report = () => import('../report/report.js');

export interface RunArgs { scenario: string; out?: string; json?: boolean; 'max-memory'?: string; threads?: number }

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

/**
 * Library form of `dcbkit run`: loads, checks and simulates; throws InputError on a bad scenario
 * or one over the memory budget, RunInterrupted when `stop()` turns true between intervals.
 */
export async function runCommand(args: RunArgs, stop: () => boolean = () => false): Promise<SimResult> {
  const scn = loadScenario(args.scenario);
  const threads = parseThreads(args.threads, scn);
  const run = startRun(scn, { maxMemoryBytes: parseMaxMemory(args['max-memory']), withReport: args.out !== undefined, threads });
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
    return run.finish();
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
      .option('threads', { type: 'number', describe: `threads for the one run (default: the idle ones of the ${availableParallelism()} cores for a fabric that is big enough and can be split, else 1)` }) as never,
  handler: async (args) => {
    // A bad --out is reported before the simulation, not after it.
    if (args.out !== undefined) checkOutDir(args.out, RUN_OUTPUT);
    await withStopSignals(async () => {
      const stopped = () => stopSignal() !== undefined;
      let result: SimResult;
      try {
        result = await runCommand(args, stopped);
        // Rendering yields (the check after it), and so does the write between its files (host/io.ts).
        if (args.out && (await (await report()).writeReport(result, args.out, undefined, stopped)) === null) throw new RunInterrupted('while rendering the report');
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
        `drops: lossless ${s.drops.lossless}, lossy ${s.drops.lossy}; PFC xoff ${s.pfc.xoff_sent} xon ${s.pfc.xon_sent}; CNMs ${s.qcn.cnms}\n` +
        `${etsLine(s)}; Jain fairness: ${s.fairness.jain ?? 'n/a'}\n` +
        (s.deadlock ? `DEADLOCK on priority ${s.deadlock.priority} from ${s.deadlock.detected_at_ps / 1e9} ms: ${s.deadlock.ports.join(' -> ')} (docs/deadlock.md)\n` : '') +
        (args.out ? `report: ${args.out}/report.html\n` : ''),
    );
  }
}
