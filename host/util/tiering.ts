// V8's tier-up thresholds raised for `dcbkit run`, so that a short run does not pay for optimising
// code it stops running before the optimised code repays its compilation.
//
// V8 runs WebAssembly first as Liftoff's baseline code and JavaScript as bytecode; a function that
// has run enough (--wasm-tiering-budget, roughly bytes of Liftoff code executed; --interrupt-budget,
// bytes of bytecode) is compiled again by TurboFan on a background thread. In a 1-us run of the
// 16:1 incast that happened to three of the engine's WebAssembly functions, the largest ones (36 to
// 67 ms and 1.2 to 1.8 MB of TurboFan's zone memory each: `node --trace-wasm-compilation-times`),
// and to three JavaScript functions of Node's module loader; TurboFan's first use also pages in
// about 4 MB of Node's own compiler code. Together 9 MiB of that run's 64 MiB peak RSS, for a
// simulation over before the new code runs. A compilation in flight also holds the process at its
// end: Node drains its platform's worker tasks before 'beforeExit' (node_platform.cc,
// NodePlatform::DrainTasks), so a run whose engine tiers up just before it finishes waits for
// TurboFan with its results written. Ten times the budgets spared the 1-us incast; the 1-us k = 8
// tree (2,111 events against the incast's 228) still sent the engine's event loop (runEvents,
// nicServe, tryTransmit, about 50 ms of TurboFan each) to compile near its end and exited 25 to 34
// ms after its output. With twenty times neither does, a 1-ms incast or tree still tiers its engine
// up (test/sim-tier-up), and a long run pays a fixed delay: a 100-ms incast +0.6 % instructions over
// ten times, +2 % over V8's defaults (docs/sim.md, "Memory", has the figures).
import { setFlagsFromString } from 'node:v8';

/** V8's defaults in Node 20 (V8 11.3): `node --v8-options`. */
const WASM_TIERING_BUDGET = 1_800_000;
const INTERRUPT_BUDGET = 67_584;
const FACTOR = 20;

/** Raises the tier-up budgets for the rest of the process: call before the code they should spare runs. */
export function deferTierUp(): void {
  setFlagsFromString(`--wasm-tiering-budget=${WASM_TIERING_BUDGET * FACTOR}`);
  setFlagsFromString(`--interrupt-budget=${INTERRUPT_BUDGET * FACTOR}`);
}
