// `dcbkit run <scenario> [--out DIR] [--json]`: simulate a DCB fabric (docs/sim.md).
// --json prints the SimSummary as one JSON document; --out writes the report (host/sim/report.ts:
// summary, series CSV, plots, HTML) atomically. A progress bar shows on a terminal only.
import type { CommandModule } from 'yargs';
import { loadScenario } from '../sim/scenario.js';
import { runScenario } from '../sim/run.js';
import type { SimResult } from '../sim/result.js';
import { writeReport } from '../sim/report.js';
import { progress } from '../sim/progress.js';
import { checkOutDir, RUN_OUTPUT } from '../io.js';

export interface RunArgs { scenario: string; out?: string; json?: boolean }

/** Library form of `dcbkit run`: loads, checks and simulates; throws InputError on a bad scenario. */
export function runCommand(args: RunArgs): SimResult {
  const scn = loadScenario(args.scenario);
  const steps = Math.ceil(scn.duration_ps / scn.sample_ps);
  const bar = progress(steps, { json: args.json, label: 'simulating', unit: 'samples' });
  try {
    return runScenario(scn, { onProgress: (f) => bar.update(Math.round(f * steps)) });
  } finally {
    bar.stop();
  }
}

export const runCommandModule: CommandModule<object, RunArgs> = {
  command: 'run <scenario>',
  describe: 'simulate a scenario of hosts, switches and links; print or write metrics',
  builder: (y) =>
    y
      .positional('scenario', { type: 'string', demandOption: true, describe: 'scenario file (YAML or JSON)' })
      .option('out', { type: 'string', describe: 'directory for the report (summary, series, plots, HTML)' })
      .option('json', { type: 'boolean', describe: 'print the summary as one JSON document' }) as never,
  handler: async (args) => {
    // A bad --out is reported before the simulation, not after it.
    if (args.out !== undefined) checkOutDir(args.out, RUN_OUTPUT);
    const result = runCommand(args);
    if (args.out) await writeReport(result, args.out);
    if (args.json) process.stdout.write(JSON.stringify(result.summary) + '\n');
    else {
      const s = result.summary;
      process.stdout.write(
        `${s.scenario.name}: ${s.sim.packet_hops} packet-hops in ${s.sim.wall_s} s (${(s.sim.packet_hops_per_s / 1e6).toFixed(2)} M/s with set-up and sampling; dcbkit bench measures the engine alone)\n` +
          `drops: lossless ${s.drops.lossless}, lossy ${s.drops.lossy}; PFC xoff ${s.pfc.xoff_sent} xon ${s.pfc.xon_sent}; CNMs ${s.qcn.cnms}\n` +
          `ETS max share error: ${s.ets.max_share_error_pp ?? 'n/a'} pp; Jain fairness: ${s.fairness.jain ?? 'n/a'}\n` +
          (s.deadlock ? `DEADLOCK on priority ${s.deadlock.priority} from ${s.deadlock.detected_at_ps / 1e9} ms: ${s.deadlock.ports.join(' -> ')} (docs/deadlock.md)\n` : '') +
          (args.out ? `report: ${args.out}/report.html\n` : ''),
      );
    }
  },
};
