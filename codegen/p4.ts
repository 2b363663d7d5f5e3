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

export interface P4Param {
  name: string;
  bitwidth: number;
}
export interface P4ActionDef {
  id: number;
  name: string;
  params: P4Param[];
}
export interface P4TableDef {
  id: number;
  name: string;
  keys: P4Param[];
  action: string;
  size: number;
}
export interface P4RegisterDef {
  id: number;
  name: string;
  bitwidth: number;
  size: number;
}
export interface P4CounterDef {
  id: number;
  name: string;
  size: number;
}

export const PFC_SESSION_BASE = 100;
/** (port, PG) and (port, TC) arrays: 9-bit v1model port x 8. */
const PORT_CLASS_SLOTS = 512 * 8;
export const TOFINO_WEIGHT_MAX = 1023;

export const P4_ACTIONS: P4ActionDef[] = [
  { id: 0x01000001, name: 'nop', params: [] },
  { id: 0x01000002, name: 'DcbIngress.set_prio', params: [{ name: 'prio', bitwidth: 3 }] },
  { id: 0x01000003, name: 'DcbIngress.set_tc', params: [{ name: 'tc', bitwidth: 3 }, { name: 'qid', bitwidth: 3 }, { name: 'pg', bitwidth: 3 }] },
  { id: 0x01000004, name: 'DcbIngress.set_egress_port', params: [{ name: 'port', bitwidth: 9 }] },
  { id: 0x01000005, name: 'DcbEgress.set_sched', params: [{ name: 'tsa', bitwidth: 8 }, { name: 'bw', bitwidth: 7 }, { name: 'weight', bitwidth: 10 }, { name: 'quantum', bitwidth: 32 }] },
  { id: 0x01000006, name: 'DcbEgress.set_ecn', params: [{ name: 'kmin', bitwidth: 19 }, { name: 'kmax', bitwidth: 19 }, { name: 'pmax', bitwidth: 7 }, { name: 'q_eq', bitwidth: 19 }, { name: 'w', bitwidth: 4 }] },
  { id: 0x01000007, name: 'DcbIngress.set_pfc', params: [{ name: 'xoff', bitwidth: 19 }, { name: 'xon', bitwidth: 19 }, { name: 'prio_mask', bitwidth: 8 }, { name: 'pause_time', bitwidth: 16 }] },
  { id: 0x01000008, name: 'DcbEgress.make_pfc_frame', params: [{ name: 'port_mac', bitwidth: 48 }] },
];

export const P4_TABLES: P4TableDef[] = [
  { id: 0x02000001, name: 'DcbIngress.pcp_classify', keys: [{ name: 'hdr.vlan.pcp', bitwidth: 3 }], action: 'DcbIngress.set_prio', size: 8 },
  { id: 0x02000002, name: 'DcbIngress.dscp_classify', keys: [{ name: 'meta.dscp', bitwidth: 6 }], action: 'DcbIngress.set_prio', size: 64 },
  { id: 0x02000003, name: 'DcbIngress.prio_tc', keys: [{ name: 'meta.prio', bitwidth: 3 }], action: 'DcbIngress.set_tc', size: 8 },
  { id: 0x02000004, name: 'DcbIngress.dmac_forward', keys: [{ name: 'hdr.ethernet.dst_addr', bitwidth: 48 }], action: 'DcbIngress.set_egress_port', size: 4096 },
  { id: 0x02000005, name: 'DcbEgress.tc_sched', keys: [{ name: 'meta.tc', bitwidth: 3 }], action: 'DcbEgress.set_sched', size: 8 },
  { id: 0x02000006, name: 'DcbEgress.ecn_mark', keys: [{ name: 'meta.tc', bitwidth: 3 }], action: 'DcbEgress.set_ecn', size: 8 },
  { id: 0x02000007, name: 'DcbIngress.pfc_threshold', keys: [{ name: 'standard_metadata.ingress_port', bitwidth: 9 }, { name: 'meta.pg', bitwidth: 3 }], action: 'DcbIngress.set_pfc', size: PORT_CLASS_SLOTS },
  { id: 0x02000008, name: 'DcbEgress.pfc_src_mac', keys: [{ name: 'standard_metadata.egress_port', bitwidth: 9 }], action: 'DcbEgress.make_pfc_frame', size: 512 },
];

/** Top-level registers are shared by ingress (arrivals, XOFF) and egress (departures, XON). */
export const P4_REGISTERS: P4RegisterDef[] = [
  { id: 0x16000001, name: 'DcbEgress.qcn_q_old', bitwidth: 19, size: PORT_CLASS_SLOTS },
  { id: 0x16000002, name: 'pfc_paused', bitwidth: 1, size: PORT_CLASS_SLOTS },
  { id: 0x16000003, name: 'pfc_occupancy', bitwidth: 19, size: PORT_CLASS_SLOTS },
];

export const P4_COUNTERS: P4CounterDef[] = [{ id: 0x12000001, name: 'DcbEgress.qcn_congestion', size: PORT_CLASS_SLOTS }];

const actionDef = (name: string) => P4_ACTIONS.find((a) => a.name === name)!;
const tableDef = (name: string) => P4_TABLES.find((t) => t.name === name)!;
const hex = (n: number) => '0x' + n.toString(16).padStart(8, '0');
const local = (full: string) => full.slice(full.lastIndexOf('.') + 1);

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

/** What dcb.p4's @pkginfo annotation on main says; p4c adds arch (field 5) from the architecture. */
export const PKG_INFO = { name: 'dcb.p4', version: '1', organization: 'dcbkit' };

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

const params = (a: P4ActionDef) => a.params.map((p) => `bit<${p.bitwidth}> ${p.name}`).join(', ');

/**
 * The read-modify-write of a (ingress port, PG)'s occupancy and paused bit, as one action so that
 * BMv2 holds both register locks throughout: `step` the occupancy, decide whether to send a frame
 * (meta.pfc_send) and with which pause time, and record the new paused state.
 */
function pfcUpdate(name: string, step: string, send: string, time: string, paused: string): string {
  return `    /* One action, so BMv2 holds both register locks for the read-modify-write. */
    action ${name}() {
        bit<32> idx = (bit<32>)standard_metadata.ingress_port * 8 + (bit<32>)meta.pg;
        bit<19> occupancy;
        bit<1> paused;
        pfc_occupancy.read(occupancy, idx);
        pfc_paused.read(paused, idx);
        occupancy = ${step};
        meta.pfc_send = ${send} ? 1w1 : 1w0;
        meta.pfc_time = ${time};
        pfc_occupancy.write(idx, occupancy);
        pfc_paused.write(idx, ${paused});
    }`;
}
/** Arrival: XOFF when the occupancy reaches xoff and the PG is not paused yet. */
const pfcArrive = pfcUpdate('pfc_arrive', 'occupancy + 1', '(paused == 0 && occupancy >= meta.pfc_xoff_th)', 'meta.pfc_pause_time', 'paused | meta.pfc_send');
/** Departure: XON (pause time 0) when the occupancy has drained to xon and the PG is paused. */
const pfcDepart = pfcUpdate('pfc_depart', '(occupancy == 0) ? 19w0 : occupancy - 1', '(paused == 1 && occupancy <= meta.pfc_xon_th)', '0', 'paused & ~meta.pfc_send');

function program(): string {
  const A = (name: string) => `@id(${hex(actionDef(name).id)}) action ${local(name)}(${params(actionDef(name))})`;
  const T = (name: string) => `@id(${hex(tableDef(name).id)}) table ${local(name)}`;
  const R = (r: P4RegisterDef) => `@id(${hex(r.id)}) register<bit<${r.bitwidth}>>(${r.size}) ${local(r.name)};`;
  const C = (c: P4CounterDef) => `@id(${hex(c.id)}) counter(${c.size}, CounterType.packets) ${local(c.name)};`;
  const keys = (name: string) => tableDef(name).keys.map((k) => `${k.name}: exact;`).join(' ');
  const tbl = (name: string) =>
    `    ${T(name)} {\n        key = { ${keys(name)} }\n        actions = { ${local(tableDef(name).action)}; @defaultonly nop; }\n        default_action = nop();\n        size = ${tableDef(name).size};\n    }`;
  const global = P4_REGISTERS.filter((r) => !r.name.includes('.'));
  const egressRegs = P4_REGISTERS.filter((r) => r.name.startsWith('DcbEgress.'));
  const pause = (i: number) => `            hdr.pfc.time${i} = ((meta.pfc_mask & 8w0x${(1 << i).toString(16).padStart(2, '0')}) != 0) ? meta.pfc_time : 16w0;`;
  return `/* dcb.p4: DCB classification, ECN/QCN marking and PFC generation for v1model (BMv2 simple_switch).
 * Generated by dcbkit codegen; every tunable is a table action parameter loaded by P4Runtime
 * (write_request.txtpb/.json) or simple_switch_CLI (bmv2_cli.txt).
 *   802.1Q/802.1Qaz: priority from PCP (tagged) or DSCP via APP (untagged IPv4, or IPv6 traffic
 *   class), priority -> TC -> queue.
 *   DCQCN ECN marking: P(mark) = 0 up to kmin, pmax % x (q - kmin) / (kmax - kmin) up to kmax, 1 above.
 *   802.1Qau CP per (egress port, TC): fb = (Qeq - q) - w (q - qOld); fb < 0 counted in qcn_congestion.
 *   802.1Qbb: per (ingress port, PG) occupancy counted on arrival (ingress) and departure (egress);
 *   XOFF when an arrival reaches xoff, XON when a departure brings it down to xon, each as a clone
 *   (session ${PFC_SESSION_BASE} + ingress port) rebuilt into an 802.3 Annex 31B MAC Control frame of
 *   60 bytes (64 with FCS) from the port's MAC. Occupancy and thresholds are in queue-depth units.
 */
#include <core.p4>
#include <v1model.p4>

const bit<16> ETHERTYPE_VLAN = 0x8100;
const bit<16> ETHERTYPE_IPV4 = 0x0800;
const bit<16> ETHERTYPE_IPV6 = 0x86DD;
const bit<16> ETHERTYPE_MAC_CONTROL = 0x8808;
const bit<16> PFC_OPCODE = 0x0101;
const bit<48> PFC_DST = 0x0180C2000001;
const bit<32> PFC_SESSION_BASE = ${PFC_SESSION_BASE};
const bit<32> PFC_FRAME_BYTES = 60;
const bit<32> INSTANCE_NORMAL = 0;
const bit<8> PFC_FIELDS = 1;

header ethernet_t { bit<48> dst_addr; bit<48> src_addr; bit<16> ether_type; }
header pfc_t {
    bit<16> opcode; bit<16> class_enable;
    bit<16> time0; bit<16> time1; bit<16> time2; bit<16> time3;
    bit<16> time4; bit<16> time5; bit<16> time6; bit<16> time7;
}
header pfc_pad_t { bit<208> zero; }
header vlan_t { bit<3> pcp; bit<1> dei; bit<12> vid; bit<16> ether_type; }
header ipv4_t {
    bit<4> version; bit<4> ihl; bit<6> dscp; bit<2> ecn; bit<16> total_len; bit<16> identification;
    bit<3> flags; bit<13> frag_offset; bit<8> ttl; bit<8> protocol; bit<16> hdr_checksum;
    bit<32> src_addr; bit<32> dst_addr;
}
header ipv6_t {
    bit<4> version; bit<6> dscp; bit<2> ecn; bit<20> flow_label; bit<16> payload_len;
    bit<8> next_hdr; bit<8> hop_limit; bit<128> src_addr; bit<128> dst_addr;
}

struct headers_t { ethernet_t ethernet; pfc_t pfc; pfc_pad_t pfc_pad; vlan_t vlan; ipv4_t ipv4; ipv6_t ipv6; }

struct metadata_t {
    bit<6> dscp;
    bit<3> prio;
    bit<3> tc;
    bit<3> pg;
    bit<8> tsa;
    bit<7> bw;
    bit<10> weight;
    bit<32> quantum;
    bit<19> ecn_kmin;
    bit<19> ecn_kmax;
    bit<7> ecn_pmax;
    bit<19> qcn_q_eq;
    bit<4> qcn_w;
    bit<1> pfc_tracked;               /* set by pfc_threshold: this packet counts in its PG's occupancy */
    bit<1> pfc_send;
    bit<19> pfc_xoff_th;
    bit<19> pfc_xon_th;
    bit<16> pfc_pause_time;
    @field_list(1) bit<8> pfc_mask;   /* field list 1 = PFC_FIELDS: kept by the clone */
    @field_list(1) bit<16> pfc_time;  /* pause time of the frame: 0 = XON */
}

/* (port, PG) state shared by ingress (arrivals) and egress (departures); index port * 8 + PG. */
${global.map(R).join('\n')}

@id(${hex(actionDef('nop').id)}) action nop() { }

parser DcbParser(packet_in packet, out headers_t hdr, inout metadata_t meta, inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            ETHERTYPE_VLAN: parse_vlan;
            ETHERTYPE_IPV4: parse_ipv4;
            ETHERTYPE_IPV6: parse_ipv6;
            default: accept;
        }
    }
    state parse_vlan {
        packet.extract(hdr.vlan);
        transition select(hdr.vlan.ether_type) {
            ETHERTYPE_IPV4: parse_ipv4;
            ETHERTYPE_IPV6: parse_ipv6;
            default: accept;
        }
    }
    state parse_ipv4 {
        packet.extract(hdr.ipv4);
        transition accept;
    }
    state parse_ipv6 {
        packet.extract(hdr.ipv6);
        transition accept;
    }
}

control DcbVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control DcbIngress(inout headers_t hdr, inout metadata_t meta, inout standard_metadata_t standard_metadata) {
    ${A('DcbIngress.set_prio')} { meta.prio = prio; }
    ${A('DcbIngress.set_tc')} {
        meta.tc = tc;
        meta.pg = pg;
        standard_metadata.priority = qid;
    }
    ${A('DcbIngress.set_egress_port')} { standard_metadata.egress_spec = port; }
    ${A('DcbIngress.set_pfc')} {
        meta.pfc_tracked = 1;
        meta.pfc_xoff_th = xoff;
        meta.pfc_xon_th = xon;
        meta.pfc_mask = prio_mask;
        meta.pfc_pause_time = pause_time;
    }
${pfcArrive}

${tbl('DcbIngress.pcp_classify')}

${tbl('DcbIngress.dscp_classify')}

${tbl('DcbIngress.prio_tc')}

${tbl('DcbIngress.dmac_forward')}

${tbl('DcbIngress.pfc_threshold')}

    apply {
        meta.prio = 0;
        meta.pfc_tracked = 0;
        meta.pfc_send = 0;
        if (hdr.vlan.isValid()) {
            pcp_classify.apply();
        } else if (hdr.ipv4.isValid()) {
            meta.dscp = hdr.ipv4.dscp;
            dscp_classify.apply();
        } else if (hdr.ipv6.isValid()) {
            meta.dscp = hdr.ipv6.dscp;
            dscp_classify.apply();
        }
        prio_tc.apply();
        dmac_forward.apply();
        if (pfc_threshold.apply().hit) {
            pfc_arrive();
            if (meta.pfc_send == 1) {
                clone_preserving_field_list(CloneType.I2E, PFC_SESSION_BASE + (bit<32>)standard_metadata.ingress_port, PFC_FIELDS);
            }
        }
    }
}

control DcbEgress(inout headers_t hdr, inout metadata_t meta, inout standard_metadata_t standard_metadata) {
    ${egressRegs.map(R).join('\n    ')}
    ${P4_COUNTERS.map(C).join('\n    ')}

    ${A('DcbEgress.set_sched')} {
        meta.tsa = tsa;
        meta.bw = bw;
        meta.weight = weight;
        meta.quantum = quantum;
    }
    ${A('DcbEgress.set_ecn')} {
        meta.ecn_kmin = kmin;
        meta.ecn_kmax = kmax;
        meta.ecn_pmax = pmax;
        meta.qcn_q_eq = q_eq;
        meta.qcn_w = w;
    }
    /* The clone becomes the 802.3 Annex 31B frame: 01-80-C2-00-00-01, the port's MAC, 0x8808,
     * opcode 0x0101, class-enable vector, 8 pause times, zero pad to 60 bytes; the truncation
     * drops whatever of the original packet the deparser would append after the pad. */
    ${A('DcbEgress.make_pfc_frame')} {
        hdr.vlan.setInvalid();
        hdr.ipv4.setInvalid();
        hdr.ipv6.setInvalid();
        hdr.pfc.setValid();
        hdr.pfc_pad.setValid();
        hdr.ethernet.dst_addr = PFC_DST;
        hdr.ethernet.src_addr = port_mac;
        hdr.ethernet.ether_type = ETHERTYPE_MAC_CONTROL;
        hdr.pfc.opcode = PFC_OPCODE;
        hdr.pfc.class_enable = (bit<16>)meta.pfc_mask;
${[0, 1, 2, 3, 4, 5, 6, 7].map(pause).join('\n')}
        hdr.pfc_pad.zero = 0;
        truncate(PFC_FRAME_BYTES);
    }
${pfcDepart}

${tbl('DcbEgress.tc_sched')}

${tbl('DcbEgress.ecn_mark')}

${tbl('DcbEgress.pfc_src_mac')}

    apply {
        if (standard_metadata.instance_type != INSTANCE_NORMAL) {
            /* An I2E (XOFF) or E2E (XON) clone on the port it pauses; no source MAC, no frame. */
            if (!pfc_src_mac.apply().hit) {
                mark_to_drop(standard_metadata);
            }
        } else {
            bit<19> q = standard_metadata.enq_qdepth;
            tc_sched.apply();
            if (ecn_mark.apply().hit) {
                bool ect = (hdr.ipv4.isValid() && hdr.ipv4.ecn != 2w0) || (hdr.ipv6.isValid() && hdr.ipv6.ecn != 2w0);
                bool mark = false;
                if (ect && q > meta.ecn_kmax) {
                    mark = true;
                } else if (ect && q > meta.ecn_kmin) {
                    bit<32> span = (bit<32>)(meta.ecn_kmax - meta.ecn_kmin);
                    bit<32> over = (bit<32>)(q - meta.ecn_kmin);
                    bit<32> r;
                    random(r, 32w0, span * 100 - 1);
                    mark = r < over * (bit<32>)meta.ecn_pmax;
                }
                if (mark && hdr.ipv4.isValid()) {
                    hdr.ipv4.ecn = 2w3;
                } else if (mark && hdr.ipv6.isValid()) {
                    hdr.ipv6.ecn = 2w3;
                }
                bit<32> cp = (bit<32>)standard_metadata.egress_port * 8 + (bit<32>)meta.tc;
                bit<19> q_old;
                qcn_q_old.read(q_old, cp);
                int<32> fb = ((int<32>)((bit<32>)meta.qcn_q_eq) - (int<32>)((bit<32>)q))
                    - (int<32>)((bit<32>)meta.qcn_w) * ((int<32>)((bit<32>)q) - (int<32>)((bit<32>)q_old));
                if (fb < 0) {
                    qcn_congestion.count(cp);
                }
                qcn_q_old.write(cp, q);
            }
            if (meta.pfc_tracked == 1) {
                pfc_depart();
                if (meta.pfc_send == 1) {
                    clone_preserving_field_list(CloneType.E2E, PFC_SESSION_BASE + (bit<32>)standard_metadata.ingress_port, PFC_FIELDS);
                }
            }
        }
    }
}

control DcbComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply {
        update_checksum(
            hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.dscp, hdr.ipv4.ecn, hdr.ipv4.total_len,
              hdr.ipv4.identification, hdr.ipv4.flags, hdr.ipv4.frag_offset, hdr.ipv4.ttl,
              hdr.ipv4.protocol, hdr.ipv4.src_addr, hdr.ipv4.dst_addr },
            hdr.ipv4.hdr_checksum,
            HashAlgorithm.csum16);
    }
}

control DcbDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.pfc);
        packet.emit(hdr.pfc_pad);
        packet.emit(hdr.vlan);
        packet.emit(hdr.ipv4);
        packet.emit(hdr.ipv6);
    }
}

@pkginfo(name="${PKG_INFO.name}", version="${PKG_INFO.version}", organization="${PKG_INFO.organization}")
V1Switch(DcbParser(), DcbVerifyChecksum(), DcbIngress(), DcbEgress(), DcbComputeChecksum(), DcbDeparser()) main;
`;
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
      'dcb.p4': program(),
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
