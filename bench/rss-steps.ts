// Where the peak memory of a 1-us `dcbkit run` goes: the peak RSS of each step such a run takes,
// each step a whole process of the installed entry point that stops there, so that the difference
// between two steps is what the later one adds: bare Node (`node -e 0`); the CLI's entry and its
// argument parser (`--version`); the run command's code (the run refused for its --out, which is
// checked before the scenario is read); reading and checking the scenario (refused for --threads 0,
// which is checked after); the whole run: the core compiled, the fabric built, simulated and
// summarised. (A run refused by its memory budget is no step: its message formats numbers with
// toLocaleString, which pages in ICU's data, 4.5 MB that no run holds.) For the two 1-us runs
// of bench/fixed-cost.ts (the fabric bench's 16:1 incast as JSON, a k = 8 tree as `gen clos` prints
// it), R rounds with the steps interleaved; the figures are medians in MB (10^6 bytes).
// Usage: node dist/bench/rss-steps.js [--rounds N] [ROOT]   (JSON on stdout)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../host/core/loader.js';
import { writeOneMicrosecondRuns } from './fixed-cost.js';
import { measureNode } from './rss.js';
import { cliEntry } from './startup.js';
import { median } from './stats.js';

const args = process.argv.slice(2);
const at = args.indexOf('--rounds');
const rounds = at >= 0 ? Number(args.splice(at, 2)[1]) : 3;
const root = args[0] ?? packageRoot();
if (!(rounds >= 1)) throw new Error('usage: rss-steps [--rounds N] [ROOT]');

const dir = mkdtempSync(join(tmpdir(), 'dcbkit-rss-steps-'));
try {
  const { incast, clos } = writeOneMicrosecondRuns(dir);
  const cli = cliEntry(root);
  /** Each step: node's arguments and the exit statuses that mean it got as far as it should. */
  const steps = (file: string): [string, string[], number[]][] => [
    ['node -e 0', ['-e', '0'], [0]],
    ['dcbkit --version', [cli, '--version'], [0]],
    ['run refused for its --out', [cli, 'run', file, '--json', '--out', dir], [2]],
    ['run refused for --threads 0', [cli, 'run', file, '--json', '--threads', '0'], [2]],
    ['run', [cli, 'run', file, '--json', '--threads', '1'], [0]],
  ];
  const peaks = new Map<string, number[]>();
  for (let r = 0; r < rounds; r++) {
    for (const [name, file] of [['incast_1us', incast], ['clos_k8_1us', clos]] as const) {
      for (const [step, argv, statuses] of steps(file)) {
        const key = `${name}\t${step}`;
        peaks.set(key, [...(peaks.get(key) ?? []), measureNode(argv, root, statuses).peak_rss]);
      }
    }
  }
  const out: Record<string, Record<string, number>> = {};
  for (const [key, ps] of peaks) {
    const [name, step] = key.split('\t');
    (out[name] ??= {})[step] = Math.round(median(ps) / 1e5) / 10;
  }
  process.stdout.write(JSON.stringify({ rounds, root, peak_rss_mb: out }, null, 2) + '\n');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
