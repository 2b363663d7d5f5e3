// Runs dcbkit command lines in this one process for test/cli/fuzz.test.ts, which starts it as an
// unprivileged user (nobody, when the tests run as root) in a private temporary folder: a case whose
// path escapes that folder then meets a permission error instead of a system file. Reads one JSON
// array of arguments per line on stdin; answers each, in order, with one line: MARK followed by
// {"status", "stdout", "stderr"} as main() (host/cli/main.ts, built to dist/) returned and printed them.
// Output written outside a case (after main() returned) goes to stdout without MARK and is ignored.
import { createInterface } from 'node:readline';

const MARK = '\u0001dcbkit-case\u0001';
const { main } = await import(new URL('../../dist/host/cli/main.js', import.meta.url).href);
const reply = process.stdout.write.bind(process.stdout);

for await (const line of createInterface({ input: process.stdin })) {
  const args = JSON.parse(line);
  const out = [];
  const err = [];
  const sink = (list) => (chunk, ...rest) => {
    list.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    const done = rest.find((r) => typeof r === 'function');
    if (done) done();
    return true;
  };
  const saved = [process.stdout.write, process.stderr.write];
  process.stdout.write = sink(out);
  process.stderr.write = sink(err);
  let status;
  try {
    status = await main(args);
  } catch (e) {
    status = -1;
    err.push(`runner: main() threw ${e instanceof Error ? e.stack : String(e)}\n`);
  } finally {
    [process.stdout.write, process.stderr.write] = saved;
  }
  reply(`\n${MARK}${JSON.stringify({ status, stdout: out.join(''), stderr: err.join('') })}\n`);
}
