// Garbage collection on request, and a young generation kept at its initial size.
//
// A full collection, for the few places where a burst of short-lived objects would otherwise pile
// up before V8 collects them: rendering a plot builds and drops a Vega dataflow and scene graph of
// tens of megabytes, and six plots in a row grew the heap by their sum, which made a report's peak
// memory depend on V8's heuristics rather than on the largest plot (the memory budget,
// host/sim/budget.ts, bounds that peak). Node exposes gc() only with --expose-gc; the flag can be
// set at run time and the function read from a new context.
//
// The young generation: V8 doubles its new space (--semi-space-growth-factor, 2) whenever a
// scavenge finds much of it alive, and shrinks it only after a collection that finds allocation
// slow or is made to reduce memory, which a short run seldom has. Loading `run`'s libraries grows it from 1 to 8 MiB and
// parsing a k = 8 fat tree's YAML scenario to 16 MiB, all resident, for objects that live a few
// milliseconds. With a growth factor of 1 it stays at its initial size, and the bursts cost more,
// smaller scavenges instead: the 1-us k = 8 run's peak fell from 88 to 74 MiB, its CPU time the
// same within the noise (docs/sim.md "Memory").
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | undefined;

/** Collects the whole heap now. */
export function collectGarbage(): void {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}

/**
 * Keeps the young generation at its initial size for the rest of the process (V8 reads the flag
 * each time it would grow it). Call before the first large burst of allocation.
 */
export function keepYoungGenerationSmall(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
}
