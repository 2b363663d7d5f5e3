// Event-driven simulation of DCBX agents on point-to-point links: two ports (`dcbx negotiate`) or
// a chain of nodes, with LLDP timers and TTL aging (agent.ts). Every LLDPDU goes through the real
// codec (encodeLldpdu -> bytes -> decodeLldpdu), so the simulation also exercises the wire format.
//
// Topology: nodes 0..n-1 in a line; link i joins node i and node i+1. A node has one agent per
// link it is on; with two nodes the agents are named after the nodes, in a longer chain
// "<node>><neighbour>". Port k of a node (0 = towards lower index) uses port.mac with k added to
// the last octet, so MACs — and the PFC tie-break — stay distinct and deterministic.
// Relaying (node.relay): when a port of the node adopts a peer's ETS/PFC, the node's other ports
// advertise those values as their own, not willing (a switch passing the upstream configuration
// down the path, the DCBX white paper §3.1).
// Event order at one instant: scripted events, frame arrivals (in send order), TTL expiries, then
// transmissions, each by agent index. Time is in ps (JS numbers: exact below 2^53 ps, ~2.5 h).
import { InputError } from '../errors/errors.js';
import { DecodeError, formatMac, parseMac } from '../frames/bytes.js';
import { type DcbxMode, type DcbxPortConfig } from './advertise.js';
import { DcbxAgent, DEFAULT_TIMERS, type AgentReport, type LldpTimers, type LogEntry } from './agent.js';
import { decodeLldpdu, encodeLldpdu } from './lldpdu.js';
import { minOf } from '../util/extent.js';

export interface SimNode {
  name: string;
  cfg: DcbxPortConfig;
  relay?: boolean;
}

export interface SimEvent {
  t_ps: number;
  /** link_down / link_up: frames on link `link` are lost / delivered again; shutdown: agent sends TTL 0 */
  type: 'link_down' | 'link_up' | 'shutdown';
  link?: number;
  agent?: string;
}

export interface SimOptions {
  mode?: DcbxMode;
  timers?: Partial<LldpTimers>;
  /** one-way delay of every link, ps (default 1 us) */
  link_delay_ps?: number;
  duration_ps: number;
  events?: SimEvent[];
}

export interface SentLldpdu {
  t_ps: number;
  from: string;
  to: string;
  bytes: Uint8Array;
  delivered: boolean;
}

export interface SimResult {
  mode: DcbxMode;
  agents: Record<string, AgentReport>;
  log: LogEntry[];
  lldpdus: SentLldpdu[];
  /** time of the last state change (transition, adoption, mismatch, ageing) */
  settled_ps: number;
}

function portMac(mac: string, k: number): string {
  const b = parseMac(mac, 'port.mac');
  b[5] = (b[5] + k) & 0xff;
  return formatMac(b);
}

interface Port {
  agent: DcbxAgent;
  node: number;
  link: number;
  peer: number; // index of the agent at the other end
}

export function simulate(nodes: SimNode[], opts: SimOptions): SimResult {
  const mode = opts.mode ?? 'ieee';
  const timers: LldpTimers = { ...DEFAULT_TIMERS, ...opts.timers };
  const delay = opts.link_delay_ps ?? 1e6;
  const log: LogEntry[] = [];
  const push = (e: LogEntry) => log.push(e);
  const ports: Port[] = [];
  for (let l = 0; l + 1 < nodes.length; l++) {
    for (const [node, other, k] of [[l, l + 1, l === 0 ? 0 : 1], [l + 1, l, 0]] as const) {
      const cfg = { ...nodes[node].cfg, port: { ...nodes[node].cfg.port, mac: portMac(nodes[node].cfg.port.mac, k) } };
      const name = nodes.length === 2 ? nodes[node].name : `${nodes[node].name}>${nodes[other].name}`;
      ports.push({ agent: new DcbxAgent(name, cfg, mode, timers, push), node, link: l, peer: -1 });
    }
  }
  for (let i = 0; i < ports.length; i += 2) {
    ports[i].peer = i + 1;
    ports[i + 1].peer = i;
    if (ports[i].agent.cfg.port.mac === ports[i + 1].agent.cfg.port.mac) {
      // both would win (or lose) the PFC tie-break and adopt each other's settings forever
      throw new InputError({ path: 'port.mac', rule: `${ports[i].agent.name} and ${ports[i + 1].agent.name} share MAC ${ports[i].agent.cfg.port.mac}; the two ends of a link need distinct MACs` });
    }
  }
  const linkUp = new Array<boolean>(Math.max(0, nodes.length - 1)).fill(true);
  const inFlight: { t: number; seq: number; to: number; bytes: Uint8Array }[] = [];
  const lldpdus: SentLldpdu[] = [];
  const script = [...(opts.events ?? [])].sort((a, b) => a.t_ps - b.t_ps);
  let seq = 0;

  const opOf = (p: Port) => JSON.stringify(p.agent.op);
  const relay = (now: number, from: Port) => {
    if (!nodes[from.node].relay) return;
    const a = from.agent;
    const adopted = mode === 'ieee' ? a.ieeeState.ets === 'RX_RECOMMEND' || a.ieeeState.pfc === 'RX_RECOMMEND' : a.ceeResult?.pfc.result === 'adopted' || a.ceeResult?.pg.result === 'adopted';
    if (!adopted) return;
    for (const q of ports) {
      if (q === from || q.node !== from.node) continue;
      const c = q.agent.cfg;
      q.agent.configure(now, {
        ...c,
        ets: { ...c.ets, ...a.op.ets, willing: false },
        ...(c.pg ? { pg: { ...c.pg, willing: false, ...(a.ceeResult ? a.ceeResult.pg.operational : {}) } } : {}),
        pfc: { ...c.pfc, enable: a.op.pfc.enable, willing: false },
      });
    }
  };
  const withRelay = (now: number, p: Port, f: () => void) => {
    const before = opOf(p);
    f();
    if (opOf(p) !== before) relay(now, p);
  };

  for (const p of ports) p.agent.start(0);
  // A bound on events: a correct exchange settles after a handful of LLDPDUs per port and then
  // sends one per msgTxInterval; hitting this means agents keep re-triggering each other.
  const maxEvents = 100_000 + 10 * ports.length * Math.ceil(opts.duration_ps / Math.max(1, timers.msg_fast_tx_ps));
  for (let events = 0; ; events++) {
    if (events > maxEvents) throw new Error(`DCBX agents did not settle: more than ${maxEvents} events`);
    const tScript = script.length ? script[0].t_ps : Infinity;
    const tRx = inFlight.length ? inFlight[0].t : Infinity;
    const tExp = minOf(ports.map((p) => p.agent.peerExpires));
    const tTx = minOf(ports.map((p) => p.agent.nextTx));
    const now = Math.min(tScript, tRx, tExp, tTx);
    if (!(now <= opts.duration_ps)) break;
    if (tScript === now) {
      const e = script.shift()!;
      if (e.type === 'shutdown') {
        const p = ports.find((q) => q.agent.name === e.agent);
        if (p) {
          const pdu = { ...p.agent.lldpdu(), ttl: 0 };
          send(now, p, encodeLldpdu(pdu));
          p.agent.nextTx = Infinity; // a shut-down port stays silent
        }
      } else if (e.link !== undefined && e.link < linkUp.length) linkUp[e.link] = e.type === 'link_up';
      continue;
    }
    if (tRx === now) {
      const f = inFlight.shift()!;
      const p = ports[f.to];
      let pdu;
      try {
        pdu = decodeLldpdu(f.bytes);
      } catch (e) {
        if (e instanceof DecodeError) throw new Error(`internal: an agent sent an LLDPDU its peer cannot decode: ${e.message}`);
        throw e;
      }
      withRelay(now, p, () => p.agent.receive(now, pdu));
      continue;
    }
    if (tExp === now) {
      const p = ports.find((q) => q.agent.peerExpires === now)!;
      withRelay(now, p, () => p.agent.expire(now));
      continue;
    }
    const p = ports.find((q) => q.agent.nextTx === now)!;
    send(now, p, encodeLldpdu(p.agent.transmit(now)));
  }

  function send(now: number, p: Port, bytes: Uint8Array): void {
    const up = linkUp[p.link];
    lldpdus.push({ t_ps: now, from: p.agent.name, to: ports[p.peer].agent.name, bytes, delivered: up });
    if (!up) return;
    const f = { t: now + delay, seq: seq++, to: p.peer, bytes };
    let i = inFlight.length;
    while (i > 0 && (inFlight[i - 1].t > f.t || (inFlight[i - 1].t === f.t && inFlight[i - 1].seq > f.seq))) i--;
    inFlight.splice(i, 0, f);
  }

  const settled = log.filter((e) => e.event !== 'peer').reduce((m, e) => Math.max(m, e.t_ps), 0);
  return { mode, agents: Object.fromEntries(ports.map((p) => [p.agent.name, p.agent.report()])), log, lldpdus, settled_ps: settled };
}
