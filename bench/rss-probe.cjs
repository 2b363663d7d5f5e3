// Preloaded (`node -r`) into a child whose memory is measured (test/sim-budget-rss.test.ts,
// bench/fixed-cost.ts): when the process exits, writes its peak resident set size in bytes
// (getrusage ru_maxrss, every thread of the process) to file descriptor 3, a pipe the parent reads.
'use strict';
process.on('exit', () => {
  try {
    require('node:fs').writeSync(3, `${process.resourceUsage().maxRSS * 1024}\n`);
  } catch {
    /* not run by a measuring parent: no descriptor 3 */
  }
});
