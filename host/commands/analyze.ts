// `dcbkit analyze deadlock <scenario> [--json]`: checks a scenario's lossless priorities for cyclic
// buffer dependencies before anything runs (host/analysis/deadlock.ts, docs/deadlock.md). Exit 0 when
// every lossless priority is deadlock-free, 1 when a cycle exists, 2 on bad input.
import type { CommandModule } from 'yargs';
import { loadScenario, type Scenario } from '../scenario/scenario.js';
import '../documents/scenario-kind.js'; // names the scenario in its unknown-key messages
import { analyzeDeadlock, type DeadlockReport } from '../analysis/deadlock.js';

interface Args { scenario: string; json?: boolean }

const flowName = (scn: Scenario, id: number) => `${id} (${scn.nodes[scn.flows[id].src].name} -> ${scn.nodes[scn.flows[id].dst].name})`;

/** Human report: each cycle, the flows behind each of its edges, and the cheapest edge to remove. */
export function describeDeadlock(scn: Scenario, r: DeadlockReport): string {
  const lines: string[] = [];
  if (r.priorities.length === 0) lines.push(`${scn.name}: no flow uses a lossless priority across two switch hops; nothing can deadlock`);
  else if (r.deadlock_free) lines.push(`${scn.name}: deadlock-free on lossless ${r.priorities.length > 1 ? 'priorities' : 'priority'} ${r.priorities.join(', ')} (no cyclic buffer dependency)`);
  for (const c of r.cycles) {
    lines.push(`priority ${c.priority}: cyclic buffer dependency over ${c.ports.length} ports: ${[...c.ports, c.ports[0]].join(' -> ')}`);
    for (const e of c.edges) lines.push(`  ${e.from} waits for ${e.to}: flows ${e.flows.map((f) => flowName(scn, f)).join(', ')}`);
    const cheapest = c.edges.reduce((a, b) => (b.flows.length < a.flows.length ? b : a));
    lines.push(
      `  to break it: move flow${cheapest.flows.length > 1 ? 's' : ''} ${cheapest.flows.map((f) => flowName(scn, f)).join(', ')} ` +
        `(they close ${cheapest.from} -> ${cheapest.to}) to another lossless priority or to a path that does not turn there`,
    );
  }
  for (const c of r.components) {
    lines.push(`priority ${c.priority}: more than the listed number of cycles; ${c.ports.length} ports depend on each other in a cycle: ${c.ports.join(', ')}`);
    lines.push(`  flows involved: ${c.flows.map((f) => flowName(scn, f)).join(', ')}`);
  }
  return lines.join('\n') + '\n';
}

const deadlockCmd: CommandModule<object, Args> = {
  command: 'deadlock <scenario>',
  describe: 'find cyclic buffer dependencies on lossless priorities (exit 0 free, 1 cycle found, 2 bad input)',
  builder: (y) =>
    y
      .positional('scenario', { type: 'string', demandOption: true, describe: 'scenario file (YAML or JSON)' })
      .option('json', { type: 'boolean', describe: 'print {deadlock_free, cycles: [{priority, ports, flows}], ...} as one JSON document' }) as never,
  handler: (args) => {
    const scn = loadScenario(args.scenario);
    const report = analyzeDeadlock(scn);
    process.stdout.write(args.json ? JSON.stringify(report) + '\n' : describeDeadlock(scn, report));
    if (!report.deadlock_free) process.exitCode = 1;
  },
};

export const analyzeCommand: CommandModule<object, object> = {
  command: 'analyze <analysis>',
  describe: 'analyse a scenario without running it (deadlock: cyclic buffer dependencies)',
  builder: (y) => y.command(deadlockCmd).demandCommand(1, 'give an analysis: deadlock'),
  handler: () => {},
};
