// `dcbkit bench [--json] [--quick]`: per-kernel and port-pipeline figures (DESIGN.md §5-6,
// docs/bench.md). Speed is reported, never asserted.
import type { CommandModule } from 'yargs';
import { formatBench, runBench } from '../../bench/run.js';

export const benchCommand: CommandModule<object, { json?: boolean; quick?: boolean }> = {
  command: 'bench',
  describe: 'benchmark the kernels and the port pipeline (Wasm and the C reference)',
  builder: (y) =>
    y
      .option('json', { type: 'boolean', describe: 'one JSON document on stdout' })
      .option('quick', { type: 'boolean', describe: 'short smoke run (a few seconds), for CI' }) as never,
  handler: async (args) => {
    const report = await runBench({ quick: args.quick });
    process.stdout.write(args.json ? JSON.stringify(report) + '\n' : formatBench(report));
  },
};
