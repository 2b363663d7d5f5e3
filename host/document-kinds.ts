// The document kinds `dcbkit validate` dispatches to, tried in order: the first whose detector accepts
// the top-level keys wins, and the DCB config (last) is the fallback. Add a kind by importing it and
// listing it before configKind.
import { configKind, type DocumentKind } from './documents.js';
import { InputError, type Problem } from './errors.js';
import { parseConfig } from './config/schema.js';
import { checkScenario } from './sim/scenario.js';
import { appendAll } from './extent.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The DCB configs written out in a scenario (profiles, defaults, per node, per link end), with their paths. */
function embeddedConfigs(doc: Obj): [string, Obj][] {
  const out: [string, Obj][] = [];
  if (isObj(doc.dcb_profiles)) for (const [k, v] of Object.entries(doc.dcb_profiles)) if (isObj(v)) out.push([`dcb_profiles.${k}`, v]);
  if (isObj(doc.defaults) && isObj(doc.defaults.dcb)) out.push(['defaults.dcb', doc.defaults.dcb]);
  for (const list of ['hosts', 'switches']) {
    const nodes = doc[list];
    if (Array.isArray(nodes)) nodes.forEach((n, i) => isObj(n) && isObj(n.dcb) && out.push([`${list}[${i}].dcb`, n.dcb]));
  }
  if (Array.isArray(doc.links)) {
    doc.links.forEach((l, i) => {
      for (const key of ['a_dcb', 'b_dcb']) if (isObj(l) && isObj(l[key])) out.push([`links[${i}].${key}`, l[key]]);
    });
  }
  return out;
}

/**
 * Checks every embedded DCB config with the full config rules (the simulator itself reads only the
 * fields it needs), so `validate` reports config problems and warnings inside scenarios too.
 */
function checkEmbeddedConfigs(doc: unknown): Problem[] {
  const warnings: Problem[] = [];
  const problems: Problem[] = [];
  if (!isObj(doc)) return warnings;
  const at = (prefix: string, p: Problem): Problem => ({ path: p.path === 'config' ? prefix : `${prefix}.${p.path}`, rule: p.rule });
  for (const [prefix, cfg] of embeddedConfigs(doc)) {
    try {
      appendAll(warnings, parseConfig(cfg).warnings.map((w) => at(prefix, w)));
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      appendAll(problems, e.problems.map((p) => at(prefix, p)));
    }
  }
  if (problems.length) throw new InputError(problems);
  return warnings;
}

/** Simulator scenarios (host/sim/scenario.ts, docs/sim.md): hosts, links and traffic. */
export const scenarioKind: DocumentKind = {
  name: 'scenario',
  describe: 'simulator scenario (hosts, switches, links, traffic)',
  detect: (d) => d.kind === 'scenario' || ('hosts' in d && 'links' in d),
  validate: (doc) => {
    // checkScenario parses every embedded config with the same rules and reports their problems
    // together with the structural ones; the configs' warnings are collected once it has passed.
    const s = checkScenario(doc);
    const warnings = checkEmbeddedConfigs(doc);
    const hosts = s.nodes.filter((n) => n.isHost).length;
    return {
      value: s,
      warnings,
      summary: [
        `scenario ${s.name}: ${hosts} hosts, ${s.nodes.length - hosts} switches, ${s.ports.length / 2} links, ${s.flows.length} flows`,
        `duration ${s.duration_ps / 1e9} ms, seed ${s.seed}, flow control per priority: ${s.modes.join(' ')}`,
      ],
    };
  },
};

export const documentKinds: DocumentKind[] = [
  scenarioKind,
  configKind,
];

/** The kind of a parsed document: the one named, else the first whose detector matches, else config. */
export function kindOf(doc: unknown, name?: string): DocumentKind | undefined {
  if (name !== undefined) return documentKinds.find((k) => k.name === name);
  if (doc !== null && typeof doc === 'object' && !Array.isArray(doc)) {
    const found = documentKinds.find((k) => k.detect(doc as Record<string, unknown>));
    if (found) return found;
  }
  return configKind;
}
