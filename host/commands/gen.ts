// `dcbkit gen clos --k K --flows F --duration D [--seed S] [--speed 100G] [--pattern random|permutation|incast]`:
// prints a k-ary fat-tree scenario (host/scenario/clos.ts) as YAML on stdout, ready for `validate`,
// `run` and `sweep`. Every flag is checked first (bad values: `--flag: rule`, exit 2, nothing
// printed); the duration and speed are checked by the scenario's own rules, reported at the flag.
import type { CommandModule } from 'yargs';
import { Document, isMap, isSeq } from 'yaml';
import { InputError, type Problem } from '../errors/errors.js';
import { CLOS_PATTERNS, closHostCount, closMaxFlows, closScenario, type ClosPattern } from '../scenario/clos.js';
import { checkScenario } from '../scenario/scenario.js';
import '../documents/scenario-kind.js'; // names the scenario in its unknown-key messages

interface GenArgs { kind: string; k: number; flows: number; duration: string; seed: number; speed: string; pattern: string }

/** Scenario paths that come straight from one flag, so a scenario rule reads as a flag problem. */
const FLAG_OF_PATH: [RegExp, string][] = [[/^duration$/, '--duration'], [/^defaults\.link\.speed$/, '--speed']];

/** k of at most 64 keeps a scenario within the engine's arena (k = 28 is measured; docs/sim.md). */
const MAX_K = 64;

export function genClos(args: Omit<GenArgs, 'kind'>): string {
  const problems: Problem[] = [];
  const { k, flows, seed } = args;
  if (!(Number.isInteger(k) && k >= 2 && k % 2 === 0 && k <= MAX_K)) problems.push({ path: '--k', rule: `an even whole number from 2 to ${MAX_K} (got ${k})` });
  if (!CLOS_PATTERNS.includes(args.pattern as ClosPattern)) problems.push({ path: '--pattern', rule: `one of ${CLOS_PATTERNS.join(', ')} (got "${args.pattern}")` });
  if (!(Number.isInteger(flows) && flows >= 1)) problems.push({ path: '--flows', rule: `a whole number of flows, at least 1 (got ${flows})` });
  else if (problems.length === 0 && flows > closMaxFlows(args.pattern as ClosPattern, closHostCount(k))) {
    problems.push({ path: '--flows', rule: `${args.pattern} allows at most ${closMaxFlows(args.pattern as ClosPattern, closHostCount(k))} flows on the ${closHostCount(k)} hosts of k = ${k}` });
  }
  if (!(Number.isInteger(seed) && seed >= 0 && seed <= 0xffffffff)) problems.push({ path: '--seed', rule: `a whole number from 0 to 4294967295 (got ${seed})` });
  const duration = String(args.duration);
  const speed = String(args.speed);
  // --duration and --speed are checked on the smallest tree first, so their problems come with the others.
  problems.push(...scenarioProblems(closScenario({ k: 2, flows: 1, duration, speed })));
  if (problems.length) throw new InputError(problems);
  const scenario = closScenario({ k, flows, seed, duration, speed, pattern: args.pattern as ClosPattern });
  const left = scenarioProblems(scenario);
  if (left.length) throw new InputError(left);
  return scenarioYaml(withDefaultSeries(scenario as ClosDoc));
}

type ClosDoc = { links: { a: string; b: string }[]; traffic: { flows: { src: string; dst: string }[] }; series?: { ports?: string[]; flows?: number[] } };

/** Ports and flows sampled by default: enough for the report to show where the tree is loaded. */
const SERIES_PORTS_EACH_WAY = 8;
const SERIES_FLOWS = 16;

/**
 * A scenario with no series chosen gets them here, so its report has plots: the edge ports into
 * the hosts that receive the most flows (where the tree congests) and the host ports out of the
 * hosts that send the most (which those congested ports pause), ties by name; and the first flows.
 */
export function withDefaultSeries(s: ClosDoc): ClosDoc {
  if ((s.series?.ports?.length ?? 0) > 0 || (s.series?.flows?.length ?? 0) > 0) return s;
  const edgeOf = new Map<string, string>();
  for (const { a, b } of s.links) {
    if (/^h/.test(a)) edgeOf.set(a, b);
    else if (/^h/.test(b)) edgeOf.set(b, a);
  }
  const busiest = (hosts: string[]) => {
    const count = new Map<string, number>();
    for (const h of hosts) count.set(h, (count.get(h) ?? 0) + 1);
    return [...count].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1)).slice(0, SERIES_PORTS_EACH_WAY).map(([h]) => h);
  };
  const flows = s.traffic.flows;
  const into = busiest(flows.map((f) => f.dst)).filter((h) => edgeOf.has(h)).map((h) => `${edgeOf.get(h)}>${h}`);
  const outOf = busiest(flows.map((f) => f.src)).filter((h) => edgeOf.has(h)).map((h) => `${h}>${edgeOf.get(h)}`);
  return { ...s, series: { ports: [...into, ...outOf], flows: flows.slice(0, SERIES_FLOWS).map((_, i) => i) } };
}

/** The scenario as YAML, each flow on one line (a fat tree can have thousands). */
function scenarioYaml(s: ClosDoc): string {
  const doc = new Document(s);
  const flows = doc.getIn(['traffic', 'flows']);
  if (isSeq(flows)) for (const item of flows.items) if (isMap(item)) item.flow = true;
  for (const key of ['ports', 'flows']) {
    const list = doc.getIn(['series', key]);
    if (isSeq(list)) list.flow = true;
  }
  return doc.toString();
}

/** The scenario's problems, those that come from one flag named by that flag. */
function scenarioProblems(scenario: unknown): Problem[] {
  try {
    checkScenario(scenario);
    return [];
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    return e.problems.map((p) => ({ path: FLAG_OF_PATH.find(([re]) => re.test(p.path))?.[1] ?? p.path, rule: p.rule }));
  }
}

export const genCommand: CommandModule<object, GenArgs> = {
  command: 'gen <kind>',
  describe: 'print a generated scenario (YAML): clos = k-ary fat tree with random, permutation or incast traffic',
  builder: (y) =>
    y
      .positional('kind', { type: 'string', choices: ['clos'], demandOption: true, describe: 'what to generate' })
      .option('k', { type: 'number', demandOption: true, describe: 'fat-tree arity (even): 5k^2/4 switches, k^3/4 hosts' })
      .option('flows', { type: 'number', demandOption: true, describe: 'number of flows' })
      .option('duration', { type: 'string', demandOption: true, describe: 'simulated time, e.g. 1ms' })
      .option('seed', { type: 'number', default: 1, describe: 'seed of the host choices and of the run' })
      .option('speed', { type: 'string', default: '100G', describe: 'link speed' })
      .option('pattern', { type: 'string', default: 'random', describe: `traffic: ${CLOS_PATTERNS.join(', ')}` }) as never,
  handler: (args) => {
    process.stdout.write(genClos(args));
  },
};
