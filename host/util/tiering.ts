// V8's tier-up thresholds raised for `dcbkit run`, so that a short run does not pay for optimising
// code it stops running before the optimised code repays its compilation.
//
// V8 runs WebAssembly first as Liftoff's baseline code and JavaScript as bytecode; a function that
// has run enough (--wasm-tiering-budget, roughly bytes of Liftoff code executed; --interrupt-budget,
// bytes of bytecode) is compiled again by TurboFan on a background thread. In a 1-us run of the
// 16:1 incast that happens to three of the engine's WebAssembly functions, the largest ones (each
// compile holds 1.2 to 1.8 MB of TurboFan's zone memory, 2.2 to 3.2 MB in all, and takes 36 to
// 67 ms: `node --trace-wasm-compilation-times`), and to three JavaScript functions of Node's module
// loader: 5.5 MB of the run's 67.6 MB peak RSS, for a simulation that is over before the new code
// is used. Ten times the budgets keeps those compilations out of a run that short, while a long run
// still tiers up within its first tens of milliseconds, where the engine spends its time
// (docs/sim.md, "Memory", has the figures either way).
import { setFlagsFromString } from 'node:v8';

/** V8's defaults in Node 20 (V8 11.3): `node --v8-options`. */
const WASM_TIERING_BUDGET = 1_800_000;
const INTERRUPT_BUDGET = 67_584;
const FACTOR = 10;

/** Raises the tier-up budgets for the rest of the process: call before the code they should spare runs. */
export function deferTierUp(): void {
  setFlagsFromString(`--wasm-tiering-budget=${WASM_TIERING_BUDGET * FACTOR}`);
  setFlagsFromString(`--interrupt-budget=${INTERRUPT_BUDGET * FACTOR}`);
}
