// A progress bar for long runs and sweeps (cli-progress), drawn on stderr so stdout stays clean.
//
// It is silent unless stdout is a terminal (a pipe or a file gets nothing extra), silent with
// --json, silent in worker threads (sweep points run there; the sweep draws one bar of its own)
// and silent for runs that finish within the first second: the bar only appears once a second
// has passed since progress() was called. Callers report work done per batch; redraws are
// throttled by cli-progress (10 per second), so calling tick() per batch of events is cheap.
// node:worker_threads is loaded only on a terminal, and cli-progress only when a bar is drawn
// (required from node_modules, not bundled): a piped or short run's start-up pays for neither.
import { createRequire } from 'node:module';
import type cliProgressModule from 'cli-progress';

export interface Progress {
  /** Adds `n` units of work done (default 1). */
  tick(n?: number): void;
  /** Sets the total done so far. */
  update(done: number): void;
  /** Removes the bar (if one was drawn). Call once, also on error paths. */
  stop(): void;
}

export interface ProgressOptions {
  /** --json given: never draw. */
  json?: boolean;
  /** Text before the bar, e.g. "simulating" or "sweep". */
  label?: string;
  /** Unit shown after the counts, e.g. "µs" or "points". */
  unit?: string;
  /** Delay before the bar appears, ms (default 1000). */
  delayMs?: number;
  /** Overrides for tests: the stream drawn on, whether stdout counts as a terminal, the clock. */
  stream?: NodeJS.WritableStream;
  stdoutIsTTY?: boolean;
  now?: () => number;
}

let globallyQuiet = false;

/** Silences every bar in this process (the CLI calls this for --json). */
export function setProgressQuiet(quiet: boolean): void {
  globallyQuiet = quiet;
}

const SILENT: Progress = { tick() {}, update() {}, stop() {} };

export function progress(total: number, opts: ProgressOptions = {}): Progress {
  const stdoutIsTTY = opts.stdoutIsTTY ?? Boolean(process.stdout.isTTY);
  if (opts.json || globallyQuiet || !stdoutIsTTY || !process.getBuiltinModule('node:worker_threads').isMainThread || !(total > 0)) return SILENT;
  const now = opts.now ?? Date.now;
  const startedAt = now();
  const delayMs = opts.delayMs ?? 1000;
  let done = 0;
  let bar: cliProgressModule.SingleBar | null = null;
  let stopped = false;

  const show = () => {
    if (bar || stopped || now() - startedAt < delayMs) return;
    const cliProgress = createRequire(import.meta.url)('cli-progress') as typeof cliProgressModule;
    bar = new cliProgress.SingleBar({
      stream: opts.stream ?? process.stderr,
      format: `${opts.label ?? 'progress'} [{bar}] {percentage}% | {value}/{total}${opts.unit ? ' ' + opts.unit : ''} | ETA {eta_formatted}`,
      hideCursor: false,
      clearOnComplete: true,
      barsize: 30,
    }, cliProgress.Presets.legacy);
    bar.start(total, Math.min(done, total));
  };

  return {
    tick(n = 1) {
      this.update(done + n);
    },
    update(value: number) {
      done = value;
      if (!bar) show();
      bar?.update(Math.min(done, total));
    },
    stop() {
      if (stopped) return;
      stopped = true;
      if (bar) bar.stop();
    },
  };
}
