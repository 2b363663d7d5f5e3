// Oracle: tshark's LLDP/DCBX dissector (Wireshark 4.0, packet-lldp.c) reads every LLDPDU dcbkit
// writes and every field agrees: 300 random LLDPDUs with IEEE ETS-CFG/ETS-REC/PFC/APP, CEE and CET
// TLVs in random order, compared TLV by TLV in wire order (field names: wireshark/wireshark epan/dissectors/packet-lldp.c).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeLldpdu, encodeTlv, type LldpTlv, type Lldpdu } from '../../host/dcbx/lldpdu.js';
import { selectorCode, tsaCode } from '../../host/dcbx/ieee.js';
import { toHex } from '../../host/frames/bytes.js';
import { pcapOf } from '../frames/oracle.js';
import { lldpduArb } from './arbitraries.js';
import { fields, tsharkPdml, type PdmlNode } from './pdml.js';

const num = (s: string | undefined) => Number(s);
const prios = [0, 1, 2, 3, 4, 5, 6, 7];

/** Values of the named fields under `n`, in order. */
const all = (n: PdmlNode, name: string) => fields(n).filter((f) => f.name === name).map((f) => f.show);
const one = (n: PdmlNode, name: string) => {
  const v = all(n, name);
  expect(v.length, name).toBe(1);
  return v[0];
};
const bitsOf = (n: PdmlNode, prefix: string) => prios.filter((p) => one(n, `${prefix}${p}`) === '1');

function checkEtsTables(n: PdmlNode, t: { prio_tc: number[]; bw: number[]; tsa: (string | number)[] }): void {
  expect(prios.map((p) => num(one(n, `lldp.dcbx.feature.pg.pgid_prio${p}`)))).toEqual(t.prio_tc);
  expect(prios.map((p) => num(one(n, `lldp.dcbx.feature.pg.per${p}`)))).toEqual(t.bw);
  expect(prios.map((p) => num(one(n, `lldp.dcbx.ieee.ets.tsa${p}`)))).toEqual(t.tsa.map(tsaCode));
}

function checkCeeHeader(n: PdmlNode, h: { oper_version: number; max_version: number; enable: boolean; willing: boolean; error: boolean; subtype: number }): void {
  expect([one(n, 'lldp.dcbx.version'), one(n, 'lldp.dcbx.max_version')].map(num)).toEqual([h.oper_version, h.max_version]);
  expect(['enabled', 'willing', 'error'].map((k) => one(n, `lldp.dcbx.feature.${k}`))).toEqual([h.enable, h.willing, h.error].map((b) => (b ? '1' : '0')));
  expect(num(one(n, 'lldp.dcbx.feature.subtype'))).toBe(h.subtype);
}

function checkTlv(n: PdmlNode, t: LldpTlv): void {
  // the TLV node's value is the TLV's bytes: tshark framed it exactly where we did
  expect(n.value).toBe(toHex(encodeTlv(t)));
  switch (t.type) {
    case 'ets_cfg':
      expect(one(n, 'lldp.ieee.802_1.subtype')).toBe('0x09');
      expect([one(n, 'lldp.dcbx.ieee.willing'), one(n, 'lldp.dcbx.ieee.ets.cbs')]).toEqual([t.willing ? '1' : '0', t.cbs ? '1' : '0']);
      expect(num(one(n, 'lldp.dcbx.ieee.ets.maxtcs'))).toBe(t.max_tcs & 7); // raw: 8 travels as 0 (§7.1 quirk 4)
      checkEtsTables(n, t);
      break;
    case 'ets_rec':
      expect(one(n, 'lldp.ieee.802_1.subtype')).toBe('0x0a');
      checkEtsTables(n, t);
      break;
    case 'pfc':
      expect(one(n, 'lldp.ieee.802_1.subtype')).toBe('0x0b');
      expect([one(n, 'lldp.dcbx.ieee.willing'), one(n, 'lldp.dcbx.ieee.pfc.mbc')]).toEqual([t.willing ? '1' : '0', t.mbc ? '1' : '0']);
      expect(num(one(n, 'lldp.dcbx.ieee.pfc.numtcs'))).toBe(t.cap);
      expect(bitsOf(n, 'lldp.dcbx.feature.pfc.prio')).toEqual(t.enable);
      break;
    case 'app':
      expect(one(n, 'lldp.ieee.802_1.subtype')).toBe('0x0c');
      expect(all(n, 'lldp.dcbx.ieee.app.prio').map(num)).toEqual(t.app.map((e) => e.priority));
      expect(all(n, 'lldp.dcbx.iee.app.sf').map(num)).toEqual(t.app.map((e) => selectorCode(e.selector)));
      expect(all(n, 'lldp.dcbx.feature.app.proto').map(num)).toEqual(t.app.map((e) => e.protocol));
      break;
    case 'cee': {
      expect(num(one(n, 'lldp.orgtlv.oui'))).toBe(0x001b21);
      expect(one(n, 'lldp.dcbx.proto')).toBe('0x02');
      const subs = n.children.filter((c) => c.name === '' && c.children.some((f) => f.name === 'lldp.dcbx.type'));
      expect(subs.map((s) => num(one(s, 'lldp.dcbx.type')))).toEqual(t.order);
      for (const s of subs) {
        const type = num(one(s, 'lldp.dcbx.type'));
        if (type === 1) {
          expect([one(s, 'lldp.dcbx.version'), one(s, 'lldp.dcbx.max_version'), one(s, 'lldp.dcbx.control.seq'), one(s, 'lldp.dcbx.control.ack')].map(num))
            .toEqual([t.control.oper_version, t.control.max_version, t.control.seq, t.control.ack]);
        } else if (type === 2 && t.pg) {
          checkCeeHeader(s, t.pg);
          expect(prios.map((p) => num(one(s, `lldp.dcbx.feature.pg.pgid_prio${p}`)))).toEqual(t.pg.prio_pgid);
          expect(prios.map((p) => num(one(s, `lldp.dcbx.feature.pg.per${p}`)))).toEqual(t.pg.pg_bw);
          expect(num(one(s, 'lldp.dcbx.feature.pg.numtcs'))).toBe(t.pg.num_tcs);
        } else if (type === 3 && t.pfc) {
          checkCeeHeader(s, t.pfc);
          expect(bitsOf(s, 'lldp.dcbx.feature.pfc.prio')).toEqual(t.pfc.enable_prios);
          expect(num(one(s, 'lldp.dcbx.feature.pfc.numtcs'))).toBe(t.pfc.num_tcs);
        } else if (type === 4 && t.app) {
          checkCeeHeader(s, t.app);
          const sel = (x: string | number) => (x === 'ethertype' ? 0 : x === 'port' ? 1 : (x as number));
          expect(all(s, 'lldp.dcbx.feature.app.proto').map(num)).toEqual(t.app.app.map((e) => e.protocol));
          expect(all(s, 'lldp.dcbx.feature.app.sf').map(num)).toEqual(t.app.app.map((e) => sel(e.selector)));
          // tshark's OUI keeps the 6 upper bits in place (mask 0xFCFFFF); ours packs 22 bits
          expect(all(s, 'lldp.dcbx.feature.app.oui').map(num)).toEqual(t.app.app.map((e) => ((e.oui >> 16) << 18) | (e.oui & 0xffff)));
          // the priority map byte, raw from each entry's bytes (the shown app.prio is only the lowest
          // set bit, and absent for an empty map: §7.1 quirk 3)
          const entries = s.children.filter((c) => c.name === '' && c.children.some((f) => f.name === 'lldp.dcbx.feature.app.proto'));
          expect(entries.map((e) => parseInt(e.value.slice(10, 12), 16))).toEqual(t.app.app.map((e) => e.priorities.reduce((v, p) => v | (1 << p), 0)));
        } else throw new Error(`unexpected CEE sub-TLV ${type}`);
      }
      break;
    }
    case 'cet':
      expect(num(one(n, 'lldp.orgtlv.oui'))).toBe(parseInt(t.oui, 16));
      expect(num(one(n, 'lldp.unknown_subtype'))).toBe(1);
      break;
    case 'raw':
      expect(num(one(n, 'lldp.tlv.type'))).toBe(t.tlv_type);
      break;
  }
}

function checkPdu(packet: PdmlNode, pdu: Lldpdu): void {
  expect(fields(packet).some((f) => f.name === '_ws.malformed' || f.name === '_ws.expert')).toBe(false);
  const lldp = packet.children.find((c) => c.name === 'lldp')!;
  expect(lldp).toBeDefined();
  const tlvs = lldp.children;
  expect(tlvs.length).toBe(3 + pdu.tlvs.length + 1);
  expect(one(tlvs[0], 'lldp.chassis.id.mac')).toBe(pdu.chassis.id);
  expect(one(tlvs[1], 'lldp.port.id')).toBe(pdu.port.id);
  expect(num(one(tlvs[2], 'lldp.time_to_live'))).toBe(pdu.ttl);
  pdu.tlvs.forEach((t, i) => checkTlv(tlvs[3 + i], t));
  expect(num(one(tlvs[tlvs.length - 1], 'lldp.tlv.type'))).toBe(0);
}

describe('tshark decodes the LLDPDUs dcbkit writes', () => {
  it('agrees field by field on 300 random LLDPDUs (IEEE, CEE, CET, other TLVs)', () => {
    const pdus = fc.sample(lldpduArb, { seed: 31, numRuns: 300 });
    const packets = tsharkPdml(pcapOf(pdus.map((p) => encodeLldpdu(p))));
    expect(packets.length).toBe(pdus.length);
    pdus.forEach((p, i) => checkPdu(packets[i], p));
  }, 60_000);
});
