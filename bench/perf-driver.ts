// Program measured by `perf stat` for instructions per packet (bench/perf.ts): instantiates the
// release core, sets the port pipeline up and warms it with the same calls whatever N is, then
// runs N more packets. `node perf-driver.js port N`.
import { Core } from '../host/core/loader.js';

const [what, nArg] = process.argv.slice(2);
const n = Number(nArg);
const BATCH = 4096;
const core = new Core('release');
if (what !== 'port' || !Number.isInteger(n) || n < 0) {
  process.stderr.write('usage: perf-driver.js port N\n');
  process.exit(2);
}
core.fn<(seed: number) => void>('portBenchSetup')(1);
const run = core.fn<(n: number) => number>('portProcess');
let sink = 0;
for (let i = 0; i < 30; i++) sink ^= run(BATCH);
for (let done = 0; done < n; done += BATCH) sink ^= run(Math.min(BATCH, n - done));
process.stdout.write(`${sink}\n`);
