// Preloaded (`node -r`) into the processes whose start-up bench/startup.ts times: when the process
// exits, writes its own user + system CPU time in ms to file descriptor 3, a pipe the parent reads
// (Node reports no rusage for a child).
'use strict';
process.on('exit', () => {
  const u = process.cpuUsage();
  try {
    require('node:fs').writeSync(3, `${(u.user + u.system) / 1000}\n`);
  } catch {
    /* not run by the bench: no descriptor 3 */
  }
});
