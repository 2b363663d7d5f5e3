// Worker-thread entry of `dcbkit sweep` (piscina loads the compiled dist/host/sweep/sweep-worker.js):
// one grid point per call, the raw scenario document in, the point's summary out. The document was
// validated by the main thread already; checking it again here costs little and keeps the worker
// safe to call on its own.
import { runScenario } from '../sim/run.js';
import { checkScenario } from '../scenario/scenario.js';
import type { SimSummary } from '../sim/result.js';
import type { SweepTask } from './sweep.js';

export default async function runPoint(task: SweepTask): Promise<SimSummary> {
  const result = runScenario(checkScenario(task.scenario), { threads: task.threads ?? 1 });
  return result.summary;
}
