// The document kinds `dcbkit validate` dispatches to, tried in order: the first whose detector accepts
// the top-level keys wins, and the DCB config (last) is the fallback. Add a kind by importing it and
// listing it before configKind.
import { configKind, gbps, type DocumentKind } from './documents.js';
import { z } from 'zod';
import { InputError, type Problem } from '../errors/errors.js';
import { parseConfig } from '../config/schema.js';
import { checkScenario, renameDeprecatedKeys } from '../scenario/scenario.js';
import './scenario-kind.js'; // names the scenario in its unknown-key messages
import { deviceSchema, parseDevice } from '../../codegen/device.js';
import { appendAll } from '../util/extent.js';

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

/** Simulator scenarios (host/scenario/scenario.ts, docs/sim.md): hosts, links and traffic. */
export const scenarioKind: DocumentKind = {
  name: 'scenario',
  describe: 'simulator scenario (hosts, switches, links, traffic)',
  detect: (d) => d.kind === 'scenario' || ('hosts' in d && 'links' in d),
  validate: (doc) => {
    // checkScenario parses every embedded config with the same rules and reports their problems
    // together with the structural ones; the configs' warnings are collected once it has passed.
    const s = checkScenario(doc);
    const warnings = [...renameDeprecatedKeys(doc).warnings, ...checkEmbeddedConfigs(doc)];
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

/** Keys only a device description has; its `ports` is a list (a config's `port` is one mapping, and `ports:` a typo of it). */
const DEVICE_KEYS = ['buffer_bytes', 'cell_bytes', 'queues_per_port', 'pgs_per_port', 'headroom_profile', 'hwsku', 'platform', 'dynamic_th'];

/** Device descriptions for `codegen --device` (codegen/device.ts, docs/codegen.md): ports, buffer, queues. */
export const deviceKind: DocumentKind = {
  name: 'device',
  describe: 'device description for codegen --device (ports, buffer, cells, queues, PGs)',
  detect: (d) => !('hosts' in d) && !configKind.detect(d) && (Array.isArray(d.ports) || DEVICE_KEYS.some((k) => k in d)),
  validate: (doc) => {
    let d;
    try {
      d = parseDevice(doc);
    } catch (e) {
      // codegen names a device's problems `device.<key>`; in the device file itself they are `<key>`.
      if (!(e instanceof InputError)) throw e;
      throw new InputError(e.problems.map((p) => ({ path: p.path.replace(/^device\.?/, '') || 'device', rule: p.rule })));
    }
    const ports = d.ports.length ? `${d.ports.length} port${d.ports.length > 1 ? 's' : ''} (${d.ports.map((p) => `${p.name} ${gbps(p.speed)}`).join(', ')})` : 'the config\'s own port at index 0';
    return {
      value: d,
      warnings: [],
      summary: [
        `device ${d.name} (${d.hwsku}, ${d.platform}): ${ports}`,
        `buffer ${d.buffer_bytes} B in ${d.cell_bytes}-B cells, ${d.queues_per_port} queues and ${d.pgs_per_port} PGs per port, headroom ${d.headroom_profile}, dcbx ${d.dcbx}`,
      ],
    };
  },
};

/** JSON Schema (draft 2020-12, input side) of a device description. */
export function deviceJsonSchema(): unknown {
  return z.toJSONSchema(deviceSchema, { io: 'input', unrepresentable: 'any' });
}

export const documentKinds: DocumentKind[] = [
  scenarioKind,
  deviceKind,
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
