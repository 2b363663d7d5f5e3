// SIGINT (Ctrl-C) and SIGTERM (kill, a scheduler's time limit) while a command that writes results
// runs: `run`, `sweep`, `sweep-merge`, `codegen`. Either stops it at its next check with one line on
// stderr, exit 130 (SIGINT) or 143 (SIGTERM) as a shell reports a death by those signals, and
// nothing written.
//
// Node runs a signal's handler from its event loop, never inside synchronous code, so a signal is
// seen at the points where a command yields: between sampling intervals of a simulation, while
// plots render, and between the files of a tree being staged (host/io/output.ts writeTreeAtomicAsync).
// The last such point is just before the output directory is swapped in (a few renames); a signal
// that arrives after it finds the output written in full, and the command ends as if it had
// come a moment later.
//
// State: the first stop signal received (undefined before), and an optional `now` action of the
// phase under way (a sweep's workers hold no output, so it exits at once).
export type StopSignal = 'SIGINT' | 'SIGTERM';

/** Thrown at a check once a stop signal has arrived. */
export class Interrupted extends Error {
  override name = 'Interrupted';
  constructor(readonly signal: StopSignal, message: string) {
    super(message);
  }
}

/** Exit status for a stop signal: 128 + its number, as a shell reports it. */
export function exitStatusOf(signal: StopSignal): number {
  return signal === 'SIGINT' ? 130 : 143;
}

let received: StopSignal | undefined;
let now: ((signal: StopSignal) => void) | undefined;

/** The stop signal received since the command began, if any. */
export function stopSignal(): StopSignal | undefined {
  return received;
}

/** While `action` is set, a stop signal calls it at once (it may exit); undefined puts it back. */
export function onStopNow(action: ((signal: StopSignal) => void) | undefined): void {
  now = action;
  if (action && received) action(received);
}

/** Yields to the event loop (so a pending signal is seen), then throws Interrupted when one came. */
export async function checkpoint(what: () => string): Promise<void> {
  await new Promise((r) => setImmediate(r));
  if (received) throw new Interrupted(received, what());
}

/**
 * Runs `body` with SIGINT and SIGTERM caught. Interrupted (thrown by a check) becomes one
 * `dcbkit: interrupted <what>` line (`terminated` for SIGTERM) and the signal's exit status; any other error
 * passes through. The handlers stay until `body` ends.
 */
export async function withStopSignals<T>(body: () => Promise<T>): Promise<T | undefined> {
  received = undefined; // a new command (the in-process CLI runs several)
  const handlers = (['SIGINT', 'SIGTERM'] as const).map((signal) => {
    const handler = () => {
      received ??= signal;
      now?.(signal);
    };
    process.on(signal, handler);
    return () => process.off(signal, handler);
  });
  try {
    return await body();
  } catch (e) {
    if (!(e instanceof Interrupted)) throw e;
    reportInterrupted(e.signal, e.message);
    return undefined;
  } finally {
    for (const off of handlers) off();
    now = undefined;
  }
}

/** The one line and the exit status of a command stopped by `signal`. */
export function reportInterrupted(signal: StopSignal, what: string): void {
  process.stderr.write(`dcbkit: ${signal === 'SIGINT' ? 'interrupted' : 'terminated'} ${what}\n`);
  process.exitCode = exitStatusOf(signal);
}
