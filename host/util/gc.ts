// A full garbage collection on request, for the few places where a burst of short-lived objects
// would otherwise pile up before V8 collects them: rendering a plot builds and drops a Vega
// dataflow and scene graph of tens of megabytes, and six plots in a row grew the heap by their sum,
// which made a report's peak memory depend on V8's heuristics rather than on the largest plot
// (the memory budget, host/sim/budget.ts, bounds that peak). Node exposes gc() only with
// --expose-gc; the flag can be set at run time and the function read from a new context.
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
