// Scenario files for `dcbkit run` (YAML or JSON): a DCB fabric of hosts, switches and links, the
// DCB config of every port, buffers, per-priority flow control, QCN, the PFC watchdog, traffic and
// the run's duration, seed and sampling interval. docs/sim.md documents every key.
//
// Two stages: zod checks shapes and units (every problem reported as `path: rule`), then
// `checkScenario` checks the rules that span entries (unknown nodes, unconnected hosts, headroom
// that does not fit the buffer, priorities without a TC) and returns a normalised scenario with
// every quantity in integer base units (ps, bytes, bit/s) and every generator expanded into flows.
import { WIRE_OVERHEAD } from '../core/codes.js';
import { readInputText } from '../io/input.js';
import { parseDocumentText } from '../config/load.js';
import { InputError, formatProblem, type Problem } from '../errors/errors.js';
import { parseOrThrow } from '../errors/problems.js';
import { psPerByte } from './units.js';
import { parseDcb, type DcbView } from './dcb.js';
import { computeHeadroom } from '../analysis/headroom.js';
import { normTiming, switchTiming } from './timing.js';
import { rpDefaults } from '../config/schema.js';
import type { QcnRpConfig } from '../config/types.js';
import { appendAll, maxOf, minOf } from '../util/extent.js';
import {
  scenarioSchema, type FlowControlMode, type FrameDist, type NodeQcn, type NormFlow, type NormNode, type NormPort,
  type Parsed, type Scenario,
} from './scenario-schema.js';

export {
  FLOW_CONTROL_MODES, scenarioJsonSchema, scenarioSchema, type FlowControlMode, type FrameDist, type NodeQcn, type NormFlow,
  type NormNode, type NormPort, type Scenario, type ScenarioInput,
} from './scenario-schema.js';

/**
 * Reads a scenario file (YAML or JSON) into plain data; syntax errors are InputErrors. Deprecated
 * keys come back renamed, each reported through `warn` (default: a `warning:` line on stderr).
 */
export function readScenarioFile(path: string, warn = (w: Problem) => void process.stderr.write(`warning: ${formatProblem(w)}\n`)): unknown {
  const text = readInputText(path, path);
  const doc = parseDocumentText(text, path); // YAML or JSON, errors with their line; alias bombs and deep nesting refused
  const renamed = renameDeprecatedKeys(doc);
  renamed.warnings.forEach(warn);
  return renamed.doc;
}

export function loadScenario(path: string): Scenario {
  return checkScenario(readScenarioFile(path));
}

/**
 * Keys renamed because YAML 1.1 parsers (PyYAML, so most Python tools) read a bare `on`/`off` as
 * the booleans true/false: `traffic.on_off[i].on` is now `on_time`, `off` is `off_time`.
 */
const RENAMED_ON_OFF: Record<string, string> = { on: 'on_time', off: 'off_time' };

/**
 * The document with deprecated keys under their new names (a copy where anything changed), and one
 * warning per renamed key. Both names in one entry stay as they are for the schema to refuse.
 */
export function renameDeprecatedKeys(doc: unknown): { doc: unknown; warnings: Problem[] } {
  const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
  const traffic = isObj(doc) ? doc.traffic : undefined;
  if (!isObj(doc) || !isObj(traffic) || !Array.isArray(traffic.on_off)) return { doc, warnings: [] };
  const warnings: Problem[] = [];
  const onOff = traffic.on_off.map((g: unknown, i) => {
    if (!isObj(g)) return g;
    const out: Record<string, unknown> = { ...g };
    for (const [old, now] of Object.entries(RENAMED_ON_OFF)) {
      if (!(old in g) || now in g) continue;
      out[now] = g[old];
      delete out[old];
      warnings.push({ path: `traffic.on_off[${i}].${old}`, rule: `deprecated: write ${now} (YAML 1.1 parsers such as PyYAML read ${old} as a boolean)` });
    }
    return out;
  });
  return warnings.length ? { doc: { ...doc, traffic: { ...traffic, on_off: onOff } }, warnings } : { doc, warnings };
}

/** Parses and checks a scenario document, returning it normalised, or throws one InputError listing every problem. */
export function checkScenario(doc: unknown): Scenario {
  const s = parseOrThrow(scenarioSchema, renameDeprecatedKeys(doc).doc);
  const problems: Problem[] = [];
  const c: Check = { s, problems, bad: (path, rule) => void problems.push({ path, rule }) };
  const fabric = fabricOf(c);
  const { flows, storms } = trafficOf(c, fabric);
  sizeBuffers(c, fabric);
  const qcn = qcnOf(c, fabric, flows);
  const { seriesPorts, seriesFlows } = seriesOf(c, fabric, flows);
  const { modes, nodes, ports, maxFrame } = fabric;
  if (problems.length) {
    // one line per problem: a rule broken the same way by many nodes is said once
    throw new InputError([...new Map(problems.map((q) => [`${q.path}: ${q.rule}`, q])).values()]);
  }
  const minFrame = flows.length ? minOf(flows.map((f) => f.frames.a)) : 64;
  return {
    name: s.name, seed: s.seed, duration_ps: s.duration, sample_ps: s.sample ?? Math.max(1, Math.floor(s.duration / 200)),
    deadlock_threshold_ps: s.deadlock_threshold, timing: normTiming(s.timing),
    modes, nodes, ports, flows, storms, qcn,
    hostQueue: s.defaults.host_queue ?? 0, maxFrame, minFrame,
    seriesPorts, seriesFlows,
  };
}

/** What every section of checkScenario shares: the parsed document and the problems found so far. */
interface Check { s: Parsed; problems: Problem[]; bad: (path: string, rule: string) => void }
/** The fabric as fabricOf checked it, for the sections after it. */
interface FabricPart {
  nodes: NormNode[]; nodeIdx: Map<string, number>; ports: NormPort[];
  /** Nodes of a link left out for its own problem (what follows from the missing link is not reported too). */
  unlinked: Set<number>;
  modes: Scenario['modes']; nodePath: (i: number) => string; maxFrame: number;
}

/** Nodes with their configs and flow-control modes, links as ports (named `node>peer`), and the rules between them. */
/** The engine's credit counter width (SIM_CREDIT_BITS in assembly/sim/layout.ts; test/sim-per-port checks they agree). */
export const ENGINE_CREDIT_BITS = 16;

function fabricOf(c: Check): FabricPart {
  const { s, problems, bad } = c;
  // Nodes and their DCB configs.
  const nodeIdx = new Map<string, number>();
  const nodes: NormNode[] = [];
  // A config shared by many nodes (defaults.dcb, a profile) is parsed once, so each of its
  // problems is reported once, not once per node that uses it.
  const parsedDcb = new Map<string, { view: DcbView; valid: boolean }>();
  /** The config `ref` (undefined: defaults.dcb; a string: a profile) and whether it parsed cleanly. */
  const resolveDcbChecked = (ref: unknown, path: string): { view: DcbView; valid: boolean } => {
    let cfg: unknown = ref ?? s.defaults.dcb ?? {};
    let p = ref === undefined ? 'defaults.dcb' : path;
    if (typeof cfg === 'string') {
      if (!(cfg in s.dcb_profiles)) {
        bad(p, `unknown DCB profile "${cfg}" (define it under dcb_profiles)`);
        return { view: parseDcb({}, p).view, valid: false };
      }
      p = `dcb_profiles.${cfg}`;
      cfg = s.dcb_profiles[cfg];
    }
    const known = parsedDcb.get(p);
    if (known) return known;
    const { view, problems: found } = parseDcb(cfg, p);
    appendAll(problems, found);
    const entry = { view, valid: found.length === 0 };
    parsedDcb.set(p, entry);
    return entry;
  };
  const resolveDcb = (ref: unknown, path: string): DcbView => resolveDcbChecked(ref, path).view;
  const q = s.qcn;
  const nodeQcn = (d: DcbView): NodeQcn => ({
    rp: withScenarioRp(d.qcnRp, q),
    q_eq: q?.q_eq ?? d.qcnQeq, w: q?.w ?? d.qcnW, quantiser: d.qcnQuantiser, kmin: d.qcnKmin, kmax: d.qcnKmax, pmax: d.qcnPmax,
  });
  /** Modes of a node: its own flow_control, else the scenario's, else derived from its DCB config. */
  const nodeModes = (nodeName: string, d: DcbView, own: FlowControlMode[] | undefined, path: string): FlowControlMode[] => {
    const given = own ?? s.flow_control;
    const modes: FlowControlMode[] = given ? [...given] : [...d.flowControl];
    const at = own ? path : 'flow_control';
    for (const p of d.pfcEnable) {
      if (modes[p] !== 'pfc') bad(at, `priority ${p} is in pfc.enable of ${nodeName} but its mode is ${modes[p]}`);
    }
    if (modes.includes('pfc') && modes.includes('pause')) {
      bad(at, 'PFC and 802.3x PAUSE are mutually exclusive on a port (802.3 Annex 31D): use one of them');
    }
    return modes;
  };
  const timing = normTiming(s.timing);
  const addNode = (n: { name: string; dcb?: unknown; flow_control?: FlowControlMode[]; latency?: number; latency_jitter?: number }, isHost: boolean, path: string) => {
    if (nodeIdx.has(n.name)) bad(`${path}.name`, `duplicate node name "${n.name}"`);
    nodeIdx.set(n.name, nodes.length);
    const dcb = resolveDcb(n.dcb, `${path}.dcb`);
    nodes.push({
      id: nodes.length, name: n.name, isHost, dcb, ports: [], modes: nodeModes(n.name, dcb, n.flow_control, `${path}.flow_control`),
      qcn: nodeQcn(dcb), buffer: null, watchdog: null, ...(isHost ? { latency_ps: 0, latency_jitter_ps: 0 } : switchTiming(timing, n)),
    });
  };
  s.hosts.forEach((h, i) => addNode(h, true, `hosts[${i}]`));
  s.switches.forEach((w, i) => addNode(w, false, `switches[${i}]`));
  // A profile no node uses is still checked, so `run` and `validate` accept the same documents.
  for (const name of Object.keys(s.dcb_profiles)) resolveDcb(name, `dcb_profiles.${name}`);

  /**
   * A port's own config (links[].a_dcb / b_dcb), checked against its node's: the per-node settings
   * (NODE_WIDE) must be the same, each difference reported at the port's path.
   */
  const portDcb = (ref: unknown, node: NormNode, path: string): DcbView => {
    const { view, valid } = resolveDcbChecked(ref, path);
    if (!valid) return view; // its problems are reported; comparing its defaults would mislead
    const from = typeof ref === 'string' ? ` (profile "${ref}")` : '';
    for (const f of NODE_WIDE) {
      const mine = JSON.stringify(f.value(view));
      const theirs = JSON.stringify(f.value(node.dcb));
      if (mine !== theirs) bad(`${path}.${f.key(view)}`, `${mine}${from} differs from ${theirs} of ${node.name}: ${f.why}`);
    }
    return view;
  };

  // Links: two ports each.
  const ports: NormPort[] = [];
  const dl = s.defaults.link ?? {};
  // Nodes of a link left out for its own problem: what follows from the missing link (a host
  // without a link, a flow without a TC or a path) is not reported on top of it.
  const unlinked = new Set<number>();
  s.links.forEach((l, i) => {
    const a = nodeIdx.get(l.a);
    const b = nodeIdx.get(l.b);
    if (a === undefined) bad(`links[${i}].a`, `unknown node "${l.a}" (not in hosts or switches)`);
    if (b === undefined) bad(`links[${i}].b`, `unknown node "${l.b}" (not in hosts or switches)`);
    if (a === undefined || b === undefined) return;
    if (a === b) bad(`links[${i}]`, 'a link joins two different nodes');
    const skip = (path: string, rule: string) => { bad(path, rule); unlinked.add(a).add(b); };
    const bps = l.speed ?? dl.speed;
    if (bps === undefined) { skip(`links[${i}].speed`, 'give a speed here or in defaults.link'); return; }
    const ppb = psPerByte(bps);
    if (ppb === 0) { skip(l.speed !== undefined ? `links[${i}].speed` : 'defaults.link.speed', 'the speed must give a whole number of ps per byte (e.g. 10G, 25G, 40G, 100G, 400G)'); return; }
    const cable = l.cable ?? (l.delay === undefined ? dl.cable : undefined);
    const delay = l.delay ?? (cable !== undefined ? Math.round(cable * 5000) : dl.delay);
    if (delay === undefined) { skip(`links[${i}]`, 'give a cable length or a delay here or in defaults.link'); return; }
    const pa = ports.length;
    const mk = (node: number, peerNode: number, id: number, peer: number, key: 'a_dcb' | 'b_dcb'): NormPort => {
      const own = l[key] === undefined ? undefined : portDcb(l[key], nodes[node], `links[${i}].${key}`);
      return {
        id, node, peer, peerNode, name: '', bps, psPerByte: ppb, delay_ps: delay,
        cable_m: cable ?? delay / 5000, dcb: own ?? nodes[node].dcb, qcn: own ? nodeQcn(own) : nodes[node].qcn,
      };
    };
    ports.push(mk(a, b, pa, pa + 1, 'a_dcb'), mk(b, a, pa + 1, pa, 'b_dcb'));
    nodes[a].ports.push(pa);
    nodes[b].ports.push(pa + 1);
  });
  // Port names: `node>peer`, with #k for parallel links.
  const seen = new Map<string, number>();
  for (const p of ports) {
    const base = `${nodes[p.node].name}>${nodes[p.peerNode].name}`;
    const k = seen.get(base) ?? 0;
    seen.set(base, k + 1);
    p.name = k === 0 ? base : `${base}#${k}`;
  }
  nodes.forEach((n, i) => {
    if (n.isHost && n.ports.length !== 1 && !unlinked.has(i)) {
      bad(`hosts[${i}]`, `host "${n.name}" must have exactly one link (it has ${n.ports.length})`);
    }
  });

  // Flow-control modes are per node. Credit needs both ends of a link: the sender spends what the
  // receiver grants. PFC or PAUSE at one end only is allowed (a misconfiguration worth simulating:
  // the other end's PFC kernel ignores the frames it does not expect and counts them).
  const modes = Array.from({ length: 8 }, (_, p) => {
    const m = nodes[0]?.modes[p] ?? 'lossy';
    return nodes.every((n) => n.modes[p] === m) ? m : 'mixed' as const;
  });
  s.links.forEach((l, i) => {
    const a = nodeIdx.get(l.a);
    const b = nodeIdx.get(l.b);
    if (a === undefined || b === undefined) return;
    for (let p = 0; p < 8; p++) {
      const ma = nodes[a].modes[p];
      const mb = nodes[b].modes[p];
      if ((ma === 'credit') !== (mb === 'credit')) {
        bad(`links[${i}]`, `priority ${p} is ${ma} at ${l.a} but ${mb} at ${l.b}: credit flow control needs both ends of a link`);
      }
    }
  });
  // Credit unit and aging are one setting of the fabric (the engine's grants count one unit size).
  const nodePath = (i: number) => (nodes[i].isHost ? `hosts[${i}]` : `switches[${i - s.hosts.length}]`);
  const creditNodes = nodes.filter((n) => n.modes.includes('credit'));
  for (const n of creditNodes) {
    const c0 = creditNodes[0].dcb;
    if (n.dcb.creditUnit !== c0.creditUnit || n.dcb.creditAgingPs !== c0.creditAgingPs) {
      bad(`${nodePath(n.id)}.dcb.credit`, `credit unit/aging (${n.dcb.creditUnit} B, ${n.dcb.creditAgingPs / 1e6} us) differ from ${creditNodes[0].name}'s (${c0.creditUnit} B, ${c0.creditAgingPs / 1e6} us): the fabric uses one`);
    }
  }
  // The engine's credit counters have one width (its arena's masks), so a config asking for
  // another k is refused rather than simulated at 16 bits without a word.
  for (const n of creditNodes) {
    if (n.dcb.creditBits !== ENGINE_CREDIT_BITS) {
      bad(`${nodePath(n.id)}.dcb.credit.counter_bits`, `the simulator's credit counters are ${ENGINE_CREDIT_BITS} bits wide, got ${n.dcb.creditBits} (codegen and vectors take 2..30; for a run set ${ENGINE_CREDIT_BITS} or leave it out)`);
    }
  }
  const maxFrame = maxOf(nodes.map((n) => n.dcb.mtu));

  return { nodes, nodeIdx, ports, unlinked, modes, nodePath, maxFrame };
}

/** The traffic generators expanded into flows (and PFC storm sources), each checked against the fabric. */
function trafficOf(c: Check, f: FabricPart): { flows: NormFlow[]; storms: Scenario['storms'] } {
  const { s, bad } = c;
  const { nodes, nodeIdx, ports, unlinked, maxFrame } = f;
  // Traffic: expand the generators into flows.
  const flows: NormFlow[] = [];
  const frameDist = (f: Parsed['traffic']['flows'][number]['frames'], path: string): FrameDist => {
    const d: FrameDist =
      typeof f === 'number' ? { kind: 0, a: f, b: f, mix: [] }
        : 'uniform' in f ? { kind: 1, a: minOf(f.uniform), b: maxOf(f.uniform), mix: [] }
          : { kind: 2, a: minOf(f.mix.map((m) => m.bytes)), b: maxOf(f.mix.map((m) => m.bytes)), mix: f.mix };
    if (d.b > maxFrame) bad(path, `frames of ${d.b} bytes exceed the MTU (${maxFrame})`);
    return d;
  };
  const host = (n: string, path: string): number => {
    const i = nodeIdx.get(n);
    if (i === undefined) { bad(path, `unknown host "${n}"`); return -1; }
    if (!nodes[i].isHost) { bad(path, `"${n}" is a switch; traffic starts and ends at hosts`); return -1; }
    return i;
  };
  type Common = Pick<Parsed['traffic']['flows'][number], 'priority' | 'start' | 'stop' | 'size' | 'rate' | 'frames' | 'victim' | 'interarrival' | 'start_jitter' | 'weight' | 'transport'>;
  /** Where each flow was declared, for problems about it (an incast sender, an all-to-all pair). */
  const flowAt: string[] = [];
  const addFlow = (src: number, dst: number, f: Common, path: string, onOff?: { on: number; off: number }, at = path) => {
    if (src < 0 || dst < 0) return;
    if (src === dst) { bad(at, 'a flow needs two different hosts'); return; }
    flowAt.push(at);
    const transport = f.transport ?? s.transport;
    if (transport === 'roce' && typeof f.frames !== 'number') bad(`${path}.frames`, 'transport roce cuts a message into frames of one size (the path MTU): give one frame size');
    if (f.interarrival === 'poisson' && f.rate === undefined) bad(`${path}.interarrival`, 'poisson gaps are drawn at the flow\'s rate: give a rate');
    flows.push({
      id: flows.length, src, dst, priority: f.priority, start_ps: f.start, stop_ps: f.stop ?? Number.MAX_SAFE_INTEGER,
      size: f.size ?? 0, rate_bps: f.rate ?? 0, on_ps: onOff?.on ?? 0, off_ps: onOff?.off ?? 0,
      frames: frameDist(f.frames, `${path}.frames`), victim: f.victim ?? false,
      interarrival: f.interarrival, start_jitter_ps: f.start_jitter ?? 0, weight: f.weight,
      transport, ack_every: s.roce.ack_every, rto_ps: s.roce.rto, ack_priority: s.roce.ack_priority ?? f.priority,
    });
  };
  s.traffic.flows.forEach((f, i) => {
    const n = flows.length;
    addFlow(host(f.src, `traffic.flows[${i}].src`), host(f.dst, `traffic.flows[${i}].dst`), f, `traffic.flows[${i}]`);
    if (f.path && flows.length > n) flows[n].path = checkPath(f.path, f.src, f.dst, nodeIdx, nodes, ports, `traffic.flows[${i}].path`, bad);
  });
  s.traffic.incast.forEach((g, i) => {
    const dst = host(g.dst, `traffic.incast[${i}].dst`);
    g.senders.forEach((sn, k) => addFlow(host(sn, `traffic.incast[${i}].senders[${k}]`), dst, g, `traffic.incast[${i}]`, undefined, `traffic.incast[${i}].senders[${k}]`));
  });
  s.traffic.all_to_all.forEach((g, i) => {
    const hs = g.hosts.map((h, k) => host(h, `traffic.all_to_all[${i}].hosts[${k}]`));
    hs.forEach((a, ka) => hs.forEach((b, kb) => {
      if (a !== b) addFlow(a, b, g, `traffic.all_to_all[${i}]`, undefined, `traffic.all_to_all[${i}].hosts[${ka}]->hosts[${kb}]`);
    }));
  });
  s.traffic.on_off.forEach((g, i) =>
    addFlow(host(g.src, `traffic.on_off[${i}].src`), host(g.dst, `traffic.on_off[${i}].dst`), g, `traffic.on_off[${i}]`, { on: g.on_time, off: g.off_time }));
  const storms = s.traffic.pfc_storm.map((g, i) => {
    const h = host(g.host, `traffic.pfc_storm[${i}].host`);
    const pt = nodes[h]?.dcb.pauseTime ?? 65535;
    const port = h >= 0 ? ports[nodes[h].ports[0]] : undefined;
    const quantum = port ? 64 * port.psPerByte : 0;
    return { host: h, priority: g.priority, start_ps: g.start, stop_ps: g.stop ?? Number.MAX_SAFE_INTEGER, interval_ps: g.interval ?? Math.max(1, Math.floor(pt / 2)) * quantum };
  });

  // Every flow's priority maps to a TC at both ends, and the hosts are connected.
  const comp = components(nodes, ports);
  flows.forEach((f) => {
    if (unlinked.has(f.src) || unlinked.has(f.dst)) return;
    for (const n of [f.src, f.dst]) {
      const tc = ports[nodes[n].ports[0]]?.dcb.prioTc[f.priority]; // a host's one port
      if (tc === undefined || tc < 0 || tc > 7) bad(flowAt[f.id], `priority ${f.priority} of flow ${nodes[f.src].name}->${nodes[f.dst].name} is mapped to no TC in ets.prio_tc of ${nodes[n].name}`);
    }
    if (comp[f.src] !== comp[f.dst]) bad(flowAt[f.id], `hosts ${nodes[f.src].name} and ${nodes[f.dst].name} are not connected`);
  });

  return { flows, storms };
}

/** Each switch's buffer: headroom per lossless (port, PG), XOFF/XON thresholds, the shared pool; its watchdog. */
function sizeBuffers(c: Check, f: FabricPart): void {
  const { s, bad } = c;
  const { nodes, nodeIdx, ports } = f;
  // The auto headroom of each distinct (speed, cable, MTU), computed once: a fabric's links mostly
  // share them (a k = 8 tree's 512 switch ports one), and each computation builds its whole breakdown.
  const autoHeadroom = new Map<string, number | InputError>();
  const headroomOf = (bps: number, cableM: number, mtu: number): number | InputError => {
    const key = `${bps}/${cableM}/${mtu}`;
    let h = autoHeadroom.get(key);
    if (h === undefined) {
      // The headroom calculator of host/analysis/headroom.ts (802.1Qbb component model, docs/design.md §4.1).
      try {
        h = computeHeadroom({ speedBps: bps, cableM, mtu }).headroom_bytes;
      } catch (e) {
        if (!(e instanceof InputError)) throw e;
        h = e;
      }
      autoHeadroom.set(key, h);
    }
    return h;
  };
  // Switch buffers: headroom per lossless (port, priority) must fit.
  s.switches.forEach((w, i) => {
    const n = nodes[nodeIdx.get(w.name)!];
    const hasLossless = n.modes.some((m) => m !== 'lossy');
    const b = w.buffer ?? s.defaults.buffer;
    if (!b) { bad(`switches[${i}].buffer`, 'give a buffer here or in defaults.buffer'); return; }
    const mtu = n.dcb.mtu;
    const headroom = n.ports.map((pi) => {
      const p = ports[pi];
      if (b.headroom !== 'auto') return b.headroom;
      const h = headroomOf(p.bps, Math.round(p.cable_m * 1000) / 1000, mtu);
      if (typeof h === 'number') return h;
      bad(w.buffer ? `switches[${i}].buffer.headroom` : 'defaults.buffer.headroom', `auto headroom for ${p.name}: ${h.problems.map((x) => x.rule).join('; ')}`);
      return 0;
    });
    const at = (key: string) => `${w.buffer ? `switches[${i}].buffer` : 'defaults.buffer'}.${key}`;
    let xoffGiven = b.xoff;
    if (b.pg_buffer !== undefined) {
      const split = splitPgBuffer(b.pg_buffer, headroom, n.modes);
      if (b.xoff !== undefined) bad(at('xoff'), 'give xoff or pg_buffer, not both (pg_buffer sets the XOFF threshold)');
      else if (typeof split === 'string') bad(at('pg_buffer'), split);
      else { headroom.fill(split.headroom); xoffGiven = split.xoff; }
    }
    const pgs = losslessPgs(n.modes);
    const reserved = hasLossless ? headroom.reduce((x, y) => x + y, 0) * pgs : 0;
    const path = w.buffer ? `switches[${i}].buffer.size` : 'defaults.buffer.size';
    if (reserved + 2 * mtu > b.size) {
      bad(path, `the buffer (${b.size} B) is smaller than the headroom it must hold (${reserved} B for ${n.ports.length} ports x ${pgs} lossless PGs) plus 2 MTU`);
    }
    const shared = Math.max(0, b.size - reserved);
    const lpgs = Math.max(1, n.ports.length * Math.max(1, pgs));
    const xoff = xoffGiven ?? Math.max(2 * mtu, Math.floor(shared / lpgs));
    const xon = Math.max(0, xoff - (b.xon_offset ?? 2 * mtu));
    n.buffer = { size: b.size, headroom, xoff, xon, lossyQueue: b.lossy_queue ?? shared };
    n.watchdog = w.watchdog ?? s.watchdog ?? n.dcb.watchdog;
  });

}

/** A node's reaction-point parameters with the scenario's qcn.bc_bytes and qcn.timer over them. */
function withScenarioRp(rp: QcnRpConfig, q: Parsed['qcn']): QcnRpConfig {
  return { ...rp, bc_bytes: q?.bc_bytes ?? rp.bc_bytes, timer_ps: q?.timer ?? rp.timer_ps };
}

/**
 * The fabric's QCN: enabled priorities and the one profile every node runs. A node whose own qcn.rp
 * is of the other profile (allowed when the scenario sets qcn.profile) runs the fabric's profile with
 * that profile's defaults (docs/sim.md, QCN), the scenario's qcn keys still over them.
 */
function qcnOf(c: Check, f: FabricPart, flows: NormFlow[]): Scenario['qcn'] {
  const { s, bad } = c;
  const q = s.qcn;
  const { nodes, ports, nodePath } = f;
  const qcnPrios = [...new Set([...nodes, ...ports].flatMap((n) => n.dcb.qcnPriorities))].sort();
  const qcnEnable = q ? q.enable : qcnPrios.length > 0;
  // One profile runs the fabric (a dcqcn CP marks CE for CNPs, a qau-pc CP sends CNMs): the
  // scenario's qcn.profile, else the profile every node's qcn.rp agrees on.
  const profile0 = nodes[0]?.qcn.rp.profile ?? 'qau-pc';
  if (qcnEnable && !q?.profile) {
    nodes.forEach((n, i) => {
      if (n.qcn.rp.profile !== profile0) {
        bad(`${nodePath(i)}.dcb`, `qcn.rp.profile ${n.qcn.rp.profile} differs from ${profile0} of ${nodes[0].name}: the fabric runs one QCN profile (set qcn.profile)`);
      }
    });
  }
  const profile = q?.profile ?? profile0;
  for (const n of nodes) if (n.qcn.rp.profile !== profile) n.qcn.rp = withScenarioRp(rpDefaults(profile, n.qcn.rp.line_bps), q);
  return {
    enable: qcnEnable,
    profile,
    priorities: qcnPrios.length > 0 ? qcnPrios : q?.enable ? [...new Set(flows.map((f) => f.priority))].sort() : [],
  };

}

/** The ports and flows whose series are sampled (default: the first 64 switch ports and flows). */
function seriesOf(c: Check, f: FabricPart, flows: NormFlow[]): { seriesPorts: number[]; seriesFlows: number[] } {
  const { s, bad } = c;
  const { nodes, ports } = f;
  const portByName = new Map(ports.map((p) => [p.name, p.id]));
  const seriesPorts = s.series?.ports
    ? s.series.ports.map((pn, i) => { const id = portByName.get(pn); if (id === undefined) bad(`series.ports[${i}]`, `unknown port "${pn}" (ports are named node>peer)`); return id ?? 0; })
    : ports.filter((p) => !nodes[p.node].isHost).slice(0, 64).map((p) => p.id);
  const seriesFlows = s.series?.flows
    ? s.series.flows.map((fi, i) => { if (fi < 0 || fi >= flows.length) bad(`series.flows[${i}]`, `no flow ${fi}`); return fi; })
    : flows.slice(0, 64).map((f) => f.id);

  return { seriesPorts, seriesFlows };
}

const FLOW_CONTROL_PER_NODE =
  'flow control is set per node (a switch accounts its shared buffer, runs its flow-control modes and its watchdog per node): set it in the node\'s dcb and repeat it in the port\'s';
/**
 * The settings a port's own config must share with its node's config: `key` is the config key it
 * comes from (for the problem's path), `value` what the engine reads. The rest (ets, qcn.cp, app)
 * may differ from port to port (docs/sim.md, "Per-port configuration").
 */
const NODE_WIDE: { key: (d: DcbView) => string; value: (d: DcbView) => unknown; why: string }[] = [
  { key: () => 'pfc.enable', value: (d) => d.pfcEnable, why: FLOW_CONTROL_PER_NODE },
  { key: () => 'pause.enable', value: (d) => d.pauseEnable, why: FLOW_CONTROL_PER_NODE },
  { key: (d) => (d.pauseEnable ? 'pause.pause_time' : 'pfc.pause_time'), value: (d) => d.pauseTime, why: FLOW_CONTROL_PER_NODE },
  { key: () => 'pfc.watchdog', value: (d) => d.watchdog, why: FLOW_CONTROL_PER_NODE },
  { key: () => 'credit.priorities', value: (d) => d.creditPriorities, why: FLOW_CONTROL_PER_NODE },
  { key: () => 'credit.unit', value: (d) => d.creditUnit, why: FLOW_CONTROL_PER_NODE },
  { key: () => 'credit.aging_us', value: (d) => d.creditAgingPs / 1e6, why: FLOW_CONTROL_PER_NODE },
  { key: () => 'port.mtu', value: (d) => d.mtu, why: 'the MTU is set per node (headroom and buffer sizes use the node\'s)' },
  { key: () => 'qcn.rp', value: (d) => d.qcnRp, why: 'reaction points are set per node (a flow takes its source host\'s qcn.rp)' },
];

/**
 * One switch's split of `pg_buffer` (the bytes a lossless port/PG may hold) for its mechanism.
 * Credit: the receiver grants from the whole buffer, which is the port's headroom record (run.ts).
 * XON/XOFF (PFC, PAUSE): headroom first, because it is what makes the priority lossless (the bytes
 * still arriving after XOFF), capped by the buffer: h = min(pg_buffer, the largest headroom the
 * node's ports need); the XOFF threshold gets the rest, pg_buffer - h (0 below the lossless
 * minimum: XOFF at the first byte, and frames may still be lost). The threshold is one per switch,
 * so every port gets the same h and every lossless PG holds exactly pg_buffer.
 * A switch running credit beside XON/XOFF would need two headrooms per port: refused.
 */
export function splitPgBuffer(pgBuffer: number, needed: readonly number[], modes: readonly FlowControlMode[]): { headroom: number; xoff?: number } | string {
  const credit = modes.includes('credit');
  const xonXoff = modes.includes('pfc') || modes.includes('pause');
  if (credit && xonXoff) return 'pg_buffer is split one way per switch: a switch with credit and PFC/PAUSE priorities needs headroom and xoff instead';
  if (credit) return { headroom: pgBuffer }; // no XOFF threshold in use: the default stays
  const h = Math.min(pgBuffer, Math.max(0, ...needed));
  return { headroom: h, xoff: pgBuffer - h };
}

/** Lossless priority groups a switch reserves headroom for: one per PFC or credit priority, one for PAUSE. */
export function losslessPgs(modes: FlowControlMode[]): number {
  return modes.filter((m) => m === 'pfc' || m === 'credit').length + (modes.includes('pause') ? 1 : 0);
}

/**
 * A pinned path (`traffic.flows[i].path`): node names from the flow's src to its dst, each
 * consecutive pair joined by a link, every node once, hosts only at the ends. Returns the node ids,
 * or undefined after reporting each problem at `path[j]`.
 */
function checkPath(
  path: string[], src: string, dst: string, nodeIdx: Map<string, number>, nodes: NormNode[], ports: NormPort[],
  at: string, bad: (path: string, rule: string) => void,
): number[] | undefined {
  const before = { n: 0 };
  const report = (j: number, rule: string) => { before.n++; bad(`${at}[${j}]`, rule); };
  const ids = path.map((nm, j) => {
    const id = nodeIdx.get(nm);
    if (id === undefined) report(j, `unknown node "${nm}" (not in hosts or switches)`);
    return id ?? -1;
  });
  if (path[0] !== src) report(0, `a path starts at the flow's src "${src}", not "${path[0]}"`);
  if (path[path.length - 1] !== dst) report(path.length - 1, `a path ends at the flow's dst "${dst}", not "${path[path.length - 1]}"`);
  const first = new Map<number, number>();
  ids.forEach((id, j) => {
    if (id < 0) return;
    const k = first.get(id);
    if (k !== undefined) report(j, `"${path[j]}" is already at path[${k}]: a path visits each node once (no loops)`);
    else first.set(id, j);
    if (j > 0 && j < ids.length - 1 && nodes[id].isHost) report(j, `"${path[j]}" is a host; hosts do not forward, only switches may be in the middle of a path`);
    const prev = ids[j - 1];
    if (j > 0 && prev >= 0 && !nodes[prev].ports.some((p) => ports[p].peerNode === id)) {
      report(j, `no link joins "${path[j - 1]}" and "${path[j]}"`);
    }
  });
  return before.n === 0 ? ids : undefined;
}

/** Connected component of every node (union-find over the links). */
function components(nodes: NormNode[], ports: NormPort[]): number[] {
  const parent = nodes.map((_, i) => i);
  const find = (x: number): number => (parent[x] === x ? x : (parent[x] = find(parent[x])));
  for (const p of ports) parent[find(p.node)] = find(p.peerNode);
  return nodes.map((_, i) => find(i));
}
