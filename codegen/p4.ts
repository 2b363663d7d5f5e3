// P4 target: dcb.p4 (P4_16, v1model) with every DCB tunable as a table action parameter, its P4Info
// (text and JSON), the P4Runtime WriteRequest that loads the IR into it (text and JSON), and the
// same entries as BMv2 simple_switch_CLI commands (P4Runtime v1 spec; p4lang/p4runtime protos).
//
// Pipeline: ingress classifies to a priority (802.1Q PCP when tagged, else the DSCP of IPv4 or of
// the IPv6 traffic class through the APP table, else 0), maps priority -> TC -> queue
// (standard_metadata.priority) and PG, and counts each lossless (ingress port, PG)'s occupancy:
// XOFF when an arrival takes it to xoff. Egress marks ECN (DCQCN: probability rising from 0 at kmin
// to pmax at kmax, all above kmax), computes the QCN CP feedback per (egress port, TC) and counts
// the negative ones, and on each departure of a lossless packet sends XON once its (ingress port,
// PG) has drained to xon, so a pause ends when the PG drains rather than at the next arrival.
// PFC frames are clones rebuilt as 802.3 Annex 31B MAC Control frames from the egress port's MAC.
// Thresholds are in the device's cells (BMv2 counts packets: describe it with cell_bytes = MTU).
// Table and action ids are pinned with @id so P4Info written here matches what p4c would emit;
// BMv2 has no P4Runtime register access (p4lang/PI #376), hence action parameters, not registers.
import type { Ir, Quantisation } from './ir.js';
import { irProblemsFor } from './ir.js';
import type { CodegenTarget, Emitted, EmitOptions } from './target.js';
import { problem } from './target.js';
import { InputError, type Problem } from '../host/errors/errors.js';
import { PbEnum, PbU64, toProto3Json, toTextFormat, type PbMessage } from './pbtext.js';
import {
  PFC_SESSION_BASE, P4_ACTIONS, P4_TABLES, P4_REGISTERS, P4_COUNTERS, actionDef, tableDef, local,
  PKG_INFO, p4Program,
} from './p4-program.js';

export const TOFINO_WEIGHT_MAX = 1023;

/** P4Runtime canonical bytestring: the shortest big-endian encoding (0 is one zero byte). */
export function canonicalBytes(value: number | bigint, bitwidth: number): Uint8Array {
  let v = BigInt(value);
  if (v < 0n || v >= 1n << BigInt(bitwidth)) throw new RangeError(`${value} does not fit bit<${bitwidth}>`);
  const out: number[] = [];
  do {
    out.unshift(Number(v & 0xffn));
    v >>= 8n;
  } while (v > 0n);
  return Uint8Array.from(out);
}

export interface P4Entry {
  table: string;
  match: number[];
  action: string;
  params: number[];
}


/** Tofino-style 10-bit DWRR weight, as fabric-tna's Stratum QoS generator rounds: ceil(1023 r / sum r). */
export function tofinoWeight(bwPercent: number): number {
  return bwPercent > 0 ? Math.ceil((TOFINO_WEIGHT_MAX * bwPercent) / 100) : 0;
}

/** The table entries that load the IR into dcb.p4. */
export function p4Entries(ir: Ir): P4Entry[] {
  const cells = (b: number) => Math.ceil(b / ir.cellBytes);
  const e: P4Entry[] = [];
  for (let pcp = 0; pcp < 8; pcp++) e.push({ table: 'DcbIngress.pcp_classify', match: [pcp], action: 'DcbIngress.set_prio', params: [pcp] });
  ir.dscpPrio.forEach((prio, dscp) => {
    if (prio !== null) e.push({ table: 'DcbIngress.dscp_classify', match: [dscp], action: 'DcbIngress.set_prio', params: [prio] });
  });
  for (let p = 0; p < 8; p++) {
    const t = ir.tcs[ir.prioTc[p]];
    e.push({ table: 'DcbIngress.prio_tc', match: [p], action: 'DcbIngress.set_tc', params: [t.tc, Math.max(0, t.queue), t.pg] });
  }
  for (const t of ir.tcs.filter((x) => x.used)) {
    e.push({ table: 'DcbEgress.tc_sched', match: [t.tc], action: 'DcbEgress.set_sched', params: [t.tsaCode, t.bwPercent, tofinoWeight(t.bwPercent), t.quantumBytes] });
  }
  for (const t of ir.tcs.filter((x) => x.used && x.ecn)) {
    const c = t.ecn!;
    e.push({ table: 'DcbEgress.ecn_mark', match: [t.tc], action: 'DcbEgress.set_ecn', params: [cells(c.kminBytes), cells(c.kmaxBytes), Math.round(c.pmaxPercent), cells(c.qEqBytes), c.w] });
  }
  for (const port of ir.ports) {
    for (const g of port.pgs.filter((x) => x.lossless)) {
      const mask = g.priorities.reduce((m, p) => m | (1 << p), 0);
      e.push({ table: 'DcbIngress.pfc_threshold', match: [port.index, g.pg], action: 'DcbIngress.set_pfc', params: [cells(g.xoffBytes), cells(g.xonBytes), mask, ir.pfc.pauseTime] });
    }
  }
  // The config names one MAC (port.mac); every port that can send PFC frames sources them from it.
  for (const port of pfcPorts(ir)) e.push({ table: 'DcbEgress.pfc_src_mac', match: [port.index], action: 'DcbEgress.make_pfc_frame', params: [macValue(ir.mac)] });
  return e;
}

/** Ports with a lossless PG: the ones that send PFC frames (clone session and source MAC). */
const pfcPorts = (ir: Ir) => ir.ports.filter((p) => p.pgs.some((g) => g.lossless));

/** "02:00:00:00:00:01" -> 48-bit value (exact in a double: below 2^53). */
export function macValue(mac: string): number {
  return mac.split(/[:-]/).reduce((v, octet) => v * 256 + parseInt(octet, 16), 0);
}

/** P4Runtime device_id (uint64): BMv2 simple_switch's --device-id, 0 unless given. */
export function parseDeviceId(value: unknown): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  throw new InputError([{ path: 'device-id', rule: `must be a whole number >= 0 (BMv2 --device-id), got ${typeof value === 'number' ? String(value) : JSON.stringify(value)}` }]);
}

function check(ir: Ir): Problem[] {
  const out = irProblemsFor(ir, 'p4');
  for (const en of p4Entries(ir)) {
    const t = tableDef(en.table);
    const a = actionDef(en.action);
    en.match.forEach((v, i) => {
      if (v >= 2 ** t.keys[i].bitwidth) out.push(problem('p4', `${en.table}.${t.keys[i].name}`, `value ${v} does not fit bit<${t.keys[i].bitwidth}>`));
    });
    en.params.forEach((v, i) => {
      if (v >= 2 ** a.params[i].bitwidth) out.push(problem('p4', `${en.action}.${a.params[i].name}`, `value ${v} does not fit bit<${a.params[i].bitwidth}>`));
    });
  }
  return out;
}

export function p4Info(): PbMessage {
  return {
    // Field-number order, as p4c's serializer writes it: name 1, version 2, arch 5, organization 6.
    pkg_info: { name: PKG_INFO.name, version: PKG_INFO.version, arch: 'v1model', organization: PKG_INFO.organization },
    tables: P4_TABLES.map((t) => ({
      preamble: { id: t.id, name: t.name, alias: local(t.name) },
      match_fields: t.keys.map((k, i) => ({ id: i + 1, name: k.name, bitwidth: k.bitwidth, match_type: new PbEnum('EXACT') })),
      action_refs: [{ id: actionDef(t.action).id }, { id: actionDef('nop').id, annotations: ['@defaultonly'], scope: new PbEnum('DEFAULT_ONLY') }],
      size: t.size,
    })),
    actions: P4_ACTIONS.map((a) => ({
      preamble: { id: a.id, name: a.name, alias: local(a.name) },
      params: a.params.map((p, i) => ({ id: i + 1, name: p.name, bitwidth: p.bitwidth })),
    })),
    counters: P4_COUNTERS.map((c) => ({
      preamble: { id: c.id, name: c.name, alias: local(c.name) },
      spec: { unit: new PbEnum('PACKETS') },
      size: c.size,
    })),
    registers: P4_REGISTERS.map((r) => ({
      preamble: { id: r.id, name: r.name, alias: local(r.name) },
      type_spec: { bitstring: { bit: { bitwidth: r.bitwidth } } },
      size: r.size,
    })),
  };
}

export function writeRequest(ir: Ir, deviceId = 0): PbMessage {
  const updates: PbMessage[] = p4Entries(ir).map((en) => {
    const t = tableDef(en.table);
    const a = actionDef(en.action);
    return {
      type: new PbEnum('INSERT'),
      entity: {
        table_entry: {
          table_id: t.id,
          match: en.match.map((v, i) => ({ field_id: i + 1, exact: { value: canonicalBytes(v, t.keys[i].bitwidth) } })),
          action: { action: { action_id: a.id, params: en.params.map((v, i) => ({ param_id: i + 1, value: canonicalBytes(v, a.params[i].bitwidth) })) } },
        },
      },
    };
  });
  for (const port of pfcPorts(ir)) {
    // Replica.egress_port and Replica.port are one oneof (p4runtime.proto): a message holds one.
    // egress_port is the one every PI build reads (PI before P4Runtime 1.4 knows no `port`).
    updates.push({
      type: new PbEnum('INSERT'),
      entity: {
        packet_replication_engine_entry: {
          clone_session_entry: { session_id: PFC_SESSION_BASE + port.index, replicas: [{ egress_port: port.index, instance: 0 }] },
        },
      },
    });
  }
  return { device_id: new PbU64(deviceId), election_id: { high: new PbU64(0), low: new PbU64(1) }, updates, atomicity: new PbEnum('CONTINUE_ON_ERROR') };
}

/**
 * A value as simple_switch_CLI reads it for a field or action parameter of `bitwidth` bits: a 48-bit
 * one as a MAC address aa:bb:cc:dd:ee:ff (p4lang/behavioral-model tools/runtime_CLI.py, parse_param:
 * for bitwidth 48 it tries macAddr_to_bytes, six colon-separated hex octets, before int(x, 0)), any
 * other in decimal.
 */
export function bmv2Value(value: number, bitwidth: number): string {
  if (bitwidth !== 48) return String(value);
  const octets = Array.from({ length: 6 }, (_, i) => Math.floor(value / 256 ** (5 - i)) % 256);
  return octets.map((o) => o.toString(16).padStart(2, '0')).join(':');
}

function bmv2Cli(ir: Ir): string {
  const lines = ['# simple_switch_CLI commands loading the DCB tables (generated by dcbkit codegen)'];
  for (const en of p4Entries(ir)) {
    const keys = P4_TABLES.find((t) => t.name === en.table)!.keys;
    const match = en.match.map((v, i) => bmv2Value(v, keys[i].bitwidth));
    const params = en.params.map((v, i) => bmv2Value(v, actionDef(en.action).params[i].bitwidth));
    lines.push(`table_add ${en.table} ${en.action} ${match.join(' ')} => ${params.join(' ')}`);
  }
  for (const port of pfcPorts(ir)) lines.push(`mirroring_add ${PFC_SESSION_BASE + port.index} ${port.index}`);
  return lines.join('\n') + '\n';
}

function emit(ir: Ir, opts: EmitOptions = {}): Emitted {
  const quantisation: Quantisation[] = [];
  const used = ir.tcs.filter((t) => t.used && t.bwPercent > 0);
  const sum = used.reduce((a, t) => a + tofinoWeight(t.bwPercent), 0);
  for (const t of used) {
    const share = Math.round(((tofinoWeight(t.bwPercent) * 100) / sum) * 1e4) / 1e4;
    if (share !== t.bwPercent) {
      quantisation.push({ target: 'p4', path: `ets.bw[${t.tc}]`, quantity: `share of the 10-bit DWRR weight (ceil(1023 x bw / 100))`, wanted: t.bwPercent, got: share, unit: '%', error: Math.round((share - t.bwPercent) * 1e4) / 1e4 });
    }
  }
  for (const t of ir.tcs.filter((x) => x.used && x.ecn)) {
    const pmax = t.ecn!.pmaxPercent;
    if (Math.round(pmax) !== pmax) {
      quantisation.push({ target: 'p4', path: `tc[${t.tc}].ecn.pmax`, quantity: 'ECN Pmax in whole percent', wanted: pmax, got: Math.round(pmax), unit: '%', error: Math.round(pmax) - pmax });
    }
  }
  const info = p4Info();
  const req = writeRequest(ir, opts.deviceId);
  return {
    files: {
      'dcb.p4': p4Program(),
      'p4info.txtpb': toTextFormat(info),
      'p4info.json': JSON.stringify(toProto3Json(info), null, 2) + '\n',
      'write_request.txtpb': toTextFormat(req),
      'write_request.json': JSON.stringify(toProto3Json(req), null, 2) + '\n',
      'bmv2_cli.txt': bmv2Cli(ir),
    },
    quantisation,
  };
}

export const p4Target: CodegenTarget = { name: 'p4', check, emit };
