// The bytes of a frame the simulator sent, rebuilt from its capture record (assembly/sim/capture.ts)
// for a packet trace (docs/capture.md). Deterministic: the same record and fabric give the same bytes.
//
// Addresses. Port p's MAC is the locally administered 02:dc:xx:xx:xx:xx with p + 1 in the last four
// octets (a host's NIC is its one port); host number i (its ordinal among hosts) has IPv4 address
// 10.0.0.0 + i + 1. Data, ACK, NACK and CNP frames carry their two hosts' addresses all the way, as
// a bridged fabric forwards them; control frames carry the sending port's MAC.
//
// Frames (FCS included, IEEE 802.3 clause 3.2.9; cut at the snap length by the caller):
// - PFC, PAUSE, credit grant: the MAC Control frames of host/frames/ (IEEE 802.1Q-2022 clause 36,
//   IEEE 802.3 Annex 31B / 31D), 64 bytes in full.
// - CNM (IEEE 802.1Q-2022 clause 33): to the flow's source host, with the sampled frame's VLAN tag
//   and priority and its destination address. The simulator's CNM carries only the quantised
//   feedback qf: cnmQOffset, cnmQDelta and the CPID are written 0, and no MSDU is encapsulated.
// - Data and the RoCE frames: Ethernet, an 802.1Q priority tag (PCP = the frame's priority, VID 0;
//   IEEE 802.1Q-2022 clause 9.6), IPv4 (RFC 791; DSCP 0, ECN CE when the simulator marked the frame,
//   else ECT(0) under DCQCN, else not-ECT; DF; TTL 64), UDP (RFC 768; checksum 0).
//   RoCE (transport roce; InfiniBand Architecture Specification Vol. 1 Annex A17, RoCEv2): UDP
//   destination port 4791, source port 0xC000 | flow, then the 12-byte BTH (9.2: opcode, P_Key
//   0xFFFF, destination QP = flow + 1, PSN), an AETH on ACK / NACK (9.3.5: syndrome 0x1F = ACK with
//   no credit count, 0x60 = NAK, PSN sequence error), the payload (zeros) and the 4-byte ICRC
//   (A17.3.3, over the IP and UDP headers and BTH with the variant fields masked to ones, behind
//   eight bytes of ones). Data frames are SEND First / Middle / Last / Only of the flow's one
//   message by PSN; an ACK carries the PSN of the last packet it acknowledges (the simulator's
//   "next expected" minus 1), a NACK the PSN expected. A CNP is opcode 0x81 with 16 reserved bytes.
//   Other data frames (no transport) are UDP datagrams to the discard port 9 (RFC 863).
// Lengths: the original length is the simulator's frame size, except where the real encapsulation
// is longer: ACK / NACK are 70 bytes and CNPs 82 with the tag, while the simulator times them as
// 64-byte frames (docs/capture.md says so).
import { encodeFrame, type ControlFrame } from '../frames/index.js';
import { crc32 } from '../frames/fcs.js';
import { formatMac } from '../frames/bytes.js';

/** Kind-word bits of a simulator packet (assembly/sim/arena.ts CE_BIT, ROCE_BIT, REV_BIT). */
const CE_BIT = 1 << 16;
const ROCE_BIT = 1 << 17;
const PRIO_SHIFT = 24;

/** Packet kinds (assembly/layout.ts PKT_*), read from the core by the caller. */
export interface PacketKinds {
  PKT_DATA: number; PKT_PFC: number; PKT_PAUSE: number; PKT_CNM: number; PKT_GRANT: number; PKT_CNP: number; PKT_ACK: number; PKT_NACK: number;
}

/** What a frame's bytes depend on besides its record: the fabric's addressing and each flow's message. */
export interface FrameContext {
  kinds: PacketKinds;
  /** Each flow's source and destination port (the hosts' NICs) and host ordinals. */
  flows: { srcPort: number; dstPort: number; srcHost: number; dstHost: number; priority: number }[];
  /** PSNs of each flow's message (-1: unlimited), read when needed. */
  npsn(flow: number): number;
  ecnCapable: boolean;
}

/** One departure as the capture ring holds it (assembly/sim/capture.ts). */
export interface CaptureRecord {
  port: number; kind: number; bytes: number; flow: number; a: number; b: number;
}

export const ROCE_UDP_PORT = 4791;
const DISCARD_UDP_PORT = 9;
const BTH_SEND_FIRST = 0x00, BTH_SEND_MIDDLE = 0x01, BTH_SEND_LAST = 0x02, BTH_SEND_ONLY = 0x04;
const BTH_ACK = 0x11, BTH_CNP = 0x81;
const AETH_ACK = 0x1f, AETH_NAK_PSN_SEQ = 0x60;

function macOf(port: number): Uint8Array {
  const id = port + 1;
  return Uint8Array.of(0x02, 0xdc, (id >>> 24) & 0xff, (id >>> 16) & 0xff, (id >>> 8) & 0xff, id & 0xff);
}

function ipOf(host: number): number {
  return (0x0a000000 + host + 1) >>> 0;
}

/**
 * The first `snaplen` bytes of the frame that record `r` describes (FCS included when it is within
 * them), and the frame's original length. The bytes past the snap length are never built, nor the
 * checksums that cover them.
 */
export function frameBytes(r: CaptureRecord, ctx: FrameContext, snaplen: number): { data: Uint8Array; origLen: number } {
  const k = ctx.kinds;
  const kind = r.kind & 0xff;
  const prio = (r.kind >>> PRIO_SHIFT) & 7;
  if (kind === k.PKT_PFC || kind === k.PKT_PAUSE || kind === k.PKT_GRANT || kind === k.PKT_CNM) {
    const data = encodeFrame(controlFrame(r, kind, ctx), { fcs: true });
    return { data: data.length > snaplen ? data.subarray(0, snaplen) : data, origLen: Math.max(r.bytes, data.length) };
  }
  const f = ctx.flows[r.flow];
  const toSource = kind === k.PKT_ACK || kind === k.PKT_NACK || kind === k.PKT_CNP;
  const roce = (r.kind & ROCE_BIT) !== 0 || toSource;
  let upper: Uint8Array;
  const headers = 14 + 4 + 20 + 8;
  if (kind === k.PKT_CNP) upper = bth(BTH_CNP, r.flow, 0, 16);
  else if (kind === k.PKT_ACK || kind === k.PKT_NACK) {
    const nak = kind === k.PKT_NACK;
    const psn = nak ? r.b : r.b - 1;
    const msn = !nak && r.b === ctx.npsn(r.flow) ? 1 : 0;
    upper = bth(BTH_ACK, r.flow, psn, 4);
    const v = new DataView(upper.buffer);
    v.setUint32(12, (((nak ? AETH_NAK_PSN_SEQ : AETH_ACK) << 24) | (msn & 0xffffff)) >>> 0);
  } else if (roce) {
    const n = ctx.npsn(r.flow);
    const last = n >= 0 && r.b === n - 1;
    const op = r.b === 0 ? (last ? BTH_SEND_ONLY : BTH_SEND_FIRST) : last ? BTH_SEND_LAST : BTH_SEND_MIDDLE;
    upper = bth(op, r.flow, r.b, Math.max(0, r.bytes - (headers + 12 + 4 + 4)));
  } else {
    upper = new Uint8Array(Math.max(0, r.bytes - (headers + 4)));
  }
  const ecn = (r.kind & CE_BIT) !== 0 ? 3 : ctx.ecnCapable && roce ? 2 : 0;
  const [srcPort, dstPort, srcHost, dstHost] = toSource ? [f.dstPort, f.srcPort, f.dstHost, f.srcHost] : [f.srcPort, f.dstPort, f.srcHost, f.dstHost];
  const udpDst = roce ? ROCE_UDP_PORT : DISCARD_UDP_PORT;
  const full = headers + upper.length + (roce ? 4 : 0) + 4;
  const data = ipFrame(macOf(dstPort), macOf(srcPort), prio, ecn, ipOf(srcHost), ipOf(dstHost), 0xc000 | (r.flow & 0x3fff), udpDst, upper, roce, Math.min(full, snaplen));
  return { data, origLen: Math.max(r.bytes, full) };
}

function controlFrame(r: CaptureRecord, kind: number, ctx: FrameContext): ControlFrame {
  const k = ctx.kinds;
  const src = formatMac(macOf(r.port));
  if (kind === k.PKT_PFC) {
    const time = Array.from({ length: 8 }, (_, n) => (((r.a >> (8 + n)) & 1) !== 0 ? r.b & 0xffff : 0));
    const enable = Array.from({ length: 8 }, (_, n) => n).filter((n) => ((r.a >> n) & 1) !== 0);
    return { kind: 'pfc', dst: '01:80:c2:00:00:01', src, enable, time };
  }
  if (kind === k.PKT_PAUSE) return { kind: 'pause', dst: '01:80:c2:00:00:01', src, time: r.b & 0xffff };
  if (kind === k.PKT_GRANT) {
    const cl = new Array<number>(8).fill(0);
    cl[r.a & 7] = r.b & 0xffff;
    return { kind: 'ce-grant', dst: '01:80:c2:00:00:01', src, channel: 0, enable: [r.a & 7], cl };
  }
  const f = ctx.flows[r.a];
  return {
    kind: 'cnm', dst: formatMac(macOf(f.srcPort)), src, vlan: { pcp: f.priority, dei: 0, vid: 0 },
    qf: r.b & 63, cpid: '0000000000000000', q_off: 0, q_delta: 0, encap_priority: f.priority, encap_dst: formatMac(macOf(f.dstPort)), encap_msdu: '',
  };
}

/** A BTH (and room for `extra` bytes after it: AETH or payload), PSN modulo 2^24. */
function bth(opcode: number, flow: number, psn: number, extra: number): Uint8Array {
  const out = new Uint8Array(12 + extra); // zero payload: the frame's data is not modelled
  const v = new DataView(out.buffer);
  out[0] = opcode;
  out[1] = 0; // SE 0, MigReq 0, PadCnt 0, TVer 0
  v.setUint16(2, 0xffff); // default P_Key
  v.setUint32(4, (flow + 1) & 0xffffff); // reserved octet 0, destination QP
  v.setUint32(8, psn & 0xffffff); // AckReq 0, reserved 0, PSN
  return out;
}

/**
 * The first `keep` bytes of Ethernet + 802.1Q priority tag + IPv4 + UDP + `upper` (+ ICRC for
 * RoCE) + FCS; the ICRC and FCS are computed only when the whole frame is kept.
 */
function ipFrame(dst: Uint8Array, src: Uint8Array, prio: number, ecn: number, ipSrc: number, ipDst: number, sport: number, dport: number, upper: Uint8Array, roce: boolean, keep: number): Uint8Array {
  const ipLen = 20 + 8 + upper.length + (roce ? 4 : 0);
  const whole = 18 + ipLen + 4 <= keep;
  const out = new Uint8Array(whole ? 18 + ipLen + 4 : 18 + 28 + upper.length);
  const v = new DataView(out.buffer);
  out.set(dst, 0);
  out.set(src, 6);
  v.setUint16(12, 0x8100);
  v.setUint16(14, prio << 13);
  v.setUint16(16, 0x0800);
  const ip = 18;
  out[ip] = 0x45;
  out[ip + 1] = ecn;
  v.setUint16(ip + 2, ipLen);
  v.setUint16(ip + 6, 0x4000);
  out[ip + 8] = 64;
  out[ip + 9] = 17;
  v.setUint32(ip + 12, ipSrc);
  v.setUint32(ip + 16, ipDst);
  v.setUint16(ip + 10, ipChecksum(out.subarray(ip, ip + 20)));
  const udp = ip + 20;
  v.setUint16(udp, sport);
  v.setUint16(udp + 2, dport);
  v.setUint16(udp + 4, ipLen - 20);
  out.set(upper, udp + 8);
  if (!whole) return out.subarray(0, keep);
  if (roce) {
    const icrcAt = udp + 8 + upper.length;
    v.setUint32(icrcAt, icrc(out.subarray(ip, icrcAt)), true);
  }
  const fcsAt = out.length - 4;
  v.setUint32(fcsAt, crc32(out.subarray(0, fcsAt)), true);
  return out;
}

function ipChecksum(h: Uint8Array): number {
  let s = 0;
  for (let i = 0; i < h.length; i += 2) s += (h[i] << 8) | h[i + 1];
  while (s > 0xffff) s = (s & 0xffff) + (s >>> 16);
  return ~s & 0xffff;
}

/**
 * RoCEv2 invariant CRC (InfiniBand Annex A17.3.3): CRC-32 over eight bytes of ones, then the IP
 * header with TOS, TTL and header checksum set to ones, the UDP header with its checksum set to
 * ones, and the BTH with its reserved octet (resv8a) set to ones, then the rest of the packet.
 */
function icrc(ipToPayload: Uint8Array): number {
  const m = new Uint8Array(8 + ipToPayload.length);
  m.fill(0xff, 0, 8);
  m.set(ipToPayload, 8);
  const ip = 8;
  m[ip + 1] = 0xff;
  m[ip + 8] = 0xff;
  m[ip + 10] = 0xff;
  m[ip + 11] = 0xff;
  m[ip + 26] = 0xff;
  m[ip + 27] = 0xff;
  m[ip + 28 + 4] = 0xff;
  return crc32(m);
}
