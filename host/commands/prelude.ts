// What must happen before a command's code loads, shared by host/commands/index.ts (which loads the
// command) and the CLI launcher (host/cli/launcher.ts, which does it before compiling the command's
// bundle, so that V8's flags are the same when its code cache is written and when it is read: V8
// rejects a cache made under other flags).
import { keepYoungGenerationSmall } from '../util/gc.js';
import { deferTierUp } from '../util/tiering.js';

/**
 * `run`: its libraries' start-up is the first burst that would grow V8's young generation, which a
 * run's peak memory then carries to the end (host/util/gc.ts); and V8's optimising compiler kept for
 * code that runs long enough to repay it (host/util/tiering.ts). Setting the flags again is harmless.
 */
export function beforeLoading(command: string): void {
  if (command === 'run') {
    keepYoungGenerationSmall();
    deferTierUp();
  }
}
