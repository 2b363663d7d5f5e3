// Side-by-side fixed cost of whole `dcbkit run`s of two (or more) installed copies of dcbkit: the
// two 1-us runs of bench/fixed-cost.ts (the fabric bench's 16:1 incast and a k = 8 fat tree with a
// permutation), each a fresh process of each copy's package.json "bin". The copies alternate within
// every round, and their order flips each round, so the machine's other load falls on each alike;
// the figures are the median wall time and the median CPU time of the child (user + system), which
// another process's load inflates far less than the wall time.
// Usage: node dist/bench/fixed-cost-ab.js [--rounds N] ROOT...   (a ROOT holds package.json, dist/, build/; JSON on stdout)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeOneMicrosecondRuns } from './fixed-cost.js';
import { measureRun, type RunMeasure } from './rss.js';
import { median } from './stats.js';

const args = process.argv.slice(2);
const at = args.indexOf('--rounds');
const rounds = at >= 0 ? Number(args.splice(at, 2)[1]) : 9;
const roots = args;
if (roots.length < 1 || !(rounds >= 1)) throw new Error('usage: fixed-cost-ab [--rounds N] ROOT...');

const dir = mkdtempSync(join(tmpdir(), 'dcbkit-fixed-cost-ab-'));
try {
  const runs = writeOneMicrosecondRuns(dir);
  const cases = { incast_1us: runs.incast, clos_k8_1us: runs.clos };
  const m = new Map<string, RunMeasure[]>();
  for (let r = 0; r < rounds; r++) {
    for (const [name, file] of Object.entries(cases)) {
      for (const root of r % 2 ? [...roots].reverse() : roots) {
        const key = `${name} ${root}`;
        m.set(key, [...(m.get(key) ?? []), measureRun(file, ['--json'], root)]);
      }
    }
  }
  const out = [...m].map(([key, ms]) => {
    const [name, root] = key.split(' ');
    return { case: name, root, wall_ms: median(ms.map((x) => x.wall_ms)), cpu_ms: median(ms.map((x) => x.cpu_ms)) };
  });
  process.stdout.write(JSON.stringify({ rounds, results: out }, null, 2) + '\n');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
