// Preloaded (`node -r`) into a child whose memory is measured (test/sim-budget-rss.test.ts,
// bench/rss.ts, bench/fixed-cost.ts): when the process exits, writes its peak resident set size in
// bytes (getrusage ru_maxrss, every thread of the process), then its user + system CPU time in ms,
// one per line, to file descriptor 3, a pipe the parent reads. One preloaded file rather than two:
// Node's module loader is JavaScript too, and resolving a second preload was enough to send its
// path helpers to V8's optimising compiler, whose first use adds about 4 MB to the peak of a short
// `dcbkit run` that the process would not have had (host/util/tiering.ts).
'use strict';
process.on('exit', () => {
  const cpu = process.cpuUsage();
  try {
    require('node:fs').writeSync(3, `${process.resourceUsage().maxRSS * 1024}\n${(cpu.user + cpu.system) / 1000}\n`);
  } catch {
    /* not run by a measuring parent: no descriptor 3 */
  }
});
