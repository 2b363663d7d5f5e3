// `dcbkit bench [--json] [--quick] [--runs N]`: per-kernel and port-pipeline figures (docs/design.md §5-6,
// docs/bench.md). Speed is reported, never asserted.
import type { CommandModule } from 'yargs';
import { formatBench, runBench } from '../../bench/run.js';
import { benchInProcesses, combineRuns } from '../../bench/runs.js';
import { InputError } from '../errors/errors.js';

export const benchCommand: CommandModule<object, { json?: boolean; quick?: boolean; runs?: number }> = {
  command: 'bench',
  describe: 'benchmark the kernels and the port pipeline (Wasm and the C reference)',
  builder: (y) =>
    y
      .option('json', { type: 'boolean', describe: 'one JSON document on stdout' })
      .option('quick', { type: 'boolean', describe: 'shorter run for CI: fewer rounds and packets, every part still measured (most of a minute on 2 cores)' })
      .option('runs', { type: 'number', describe: 'N separate processes, one after the other; each figure is the median over them (default 1)' }) as never,
  handler: async (args) => {
    const runs = args.runs ?? 1;
    if (!(Number.isInteger(runs) && runs >= 1 && runs <= 50)) throw new InputError({ path: '--runs', rule: 'a whole number of runs from 1 to 50' });
    const report = runs === 1
      ? await runBench({ quick: args.quick })
      : combineRuns(benchInProcesses(process.argv[1], runs, !!args.quick, (i) => {
        if (process.stderr.isTTY) process.stderr.write(`bench run ${i + 1} of ${runs}\n`);
      }));
    process.stdout.write(args.json ? JSON.stringify(report) + '\n' : formatBench(report));
  },
};
