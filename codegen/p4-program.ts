// dcb.p4, the P4_16 v1model program of the P4 target (codegen/p4.ts writes its P4Info and entries):
// the tables, actions, registers and counters it declares, with the @id each is pinned to so that the
// P4Info written from these definitions matches what p4c emits for the program, and the program's
// text. The pipeline it implements is described at the top of codegen/p4.ts.
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

export const actionDef = (name: string) => P4_ACTIONS.find((a) => a.name === name)!;
export const tableDef = (name: string) => P4_TABLES.find((t) => t.name === name)!;
export const hex = (n: number) => '0x' + n.toString(16).padStart(8, '0');
export const local = (full: string) => full.slice(full.lastIndexOf('.') + 1);

/** What dcb.p4's @pkginfo annotation on main says; p4c adds arch (field 5) from the architecture. */
export const PKG_INFO = { name: 'dcb.p4', version: '1', organization: 'dcbkit' };

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

export function p4Program(): string {
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
