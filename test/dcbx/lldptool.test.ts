// Oracle: lldptool (lldpad 1.1, intel/openlldp) decodes the LLDPDUs dcbkit writes. lldpad will not
// run DCBX on a veth (no dcbnl_ops, torvalds/linux net/dcb/dcbnl.c dcb_doit), but as a receiver it keeps the last
// LLDPDU of a neighbour and `lldptool -t -n` prints its TLVs with lldpad's own printers — a second
// decoder written independently of Wireshark's. Everything runs in a private network namespace
// (we need root); only the lldpad we start is stopped, by its pid.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CeeTlv } from '../../host/dcbx/cee.js';
import type { AppTlv, EtsCfgTlv, EtsRecTlv, PfcTlv, TsaName } from '../../host/dcbx/ieee.js';
import { decodeTlv, encodeLldpdu, encodeTlv, type LldpTlv, type Lldpdu } from '../../host/dcbx/lldpdu.js';
import { parseHex, toHex } from '../../host/frames/bytes.js';
import { requireTool } from '../helpers.js';
import { StandinNetns } from '../dcbnl-standin/standin.js';
import { ceeArb } from './arbitraries.js';
import { checkCee, checkIeee, sections } from './lldptool-text.js';

let net: StandinNetns;

const inNs = (...args: string[]) => {
  const r = net.run(args[0], args.slice(1), { standin: false });
  return { status: r.status, out: r.stdout + r.stderr };
};

// lldpad runs in its own network namespace with a private /dev/shm (test/dcbnl-standin/standin.ts),
// so another lldpad on the machine does not stop it; no interface is a DCB device here
beforeAll(async () => {
  requireTool('python3');
  net = StandinNetns.open({ links: [['a', 'b']], managed: [], tag: 'lldptool' });
  const lldpad = await net.startLldpad('a');
  const r = lldpad.lldptool(['set-lldp', '-i', 'a', 'adminStatus=rx']);
  if (r.status !== 0) throw new Error(`lldptool set-lldp: ${r.stdout}${r.stderr}`);
}, 60_000);

afterAll(async () => {
  await net?.close();
}, 20_000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Sends the frame on b, then returns lldptool's view of a's neighbour once it shows `marker`. */
async function throughLldpad(frame: Uint8Array, marker: string): Promise<string> {
  const send = inNs('python3', '-c', 'import socket,sys\ns=socket.socket(socket.AF_PACKET,socket.SOCK_RAW)\ns.bind(("b",0))\ns.send(bytes.fromhex(sys.argv[1]))', toHex(frame));
  if (send.status !== 0) throw new Error(`inject: ${send.out}`);
  for (let i = 0; i < 50; i++) {
    const r = inNs('lldptool', '-t', '-n', '-i', 'a');
    if (r.out.includes(marker)) return r.out;
    await sleep(100);
  }
  throw new Error(`lldpad never showed ${marker}`);
}

const frameOf = (n: number, tlvs: LldpTlv[]): Lldpdu => {
  const mac = `02:00:00:00:${(n >> 8).toString(16).padStart(2, '0')}:${(n & 0xff).toString(16).padStart(2, '0')}`;
  return { dst: '01:80:c2:00:00:0e', src: mac, chassis: { subtype: 4, id: mac }, port: { subtype: 5, id: `eth${n}` }, ttl: 120, tlvs, end: true };
};

describe('lldptool reads the LLDPDUs dcbkit writes', () => {
  it('the golden IEEE TLVs of §5.5 and a CET TLV (shown raw with our OUI and bytes)', async () => {
    const tlvs = ['fe190080c209c3012345670a141e280000000002020202000100ff', 'fe190080c20a001123456732320000000000000202000000000000', 'fe060080c20bc818', 'fe110080c20c006189068312b7a5001a420cbc']
      .map((h) => decodeTlv(parseHex(h, 'golden')));
    const cet: LldpTlv = { type: 'cet', oui: '0adcb0', supported: true, channels: false, ce_tag: false, priorities: [3, 4], unit: 64, aging_us: 100, counter_bits: 16 };
    const pdu = frameOf(1, [...tlvs, cet]);
    const s = sections(await throughLldpad(encodeLldpdu(pdu), 'MAC: 02:00:00:00:00:01'));
    checkIeee(s, tlvs);
    // CET: flags 0x80, priorities 0x18, unit 0x0040, aging 0x00000064, width 0x10
    expect(s.get('Unidentified Org Specific TLV')).toEqual(['OUI: 0x0adcb0, Subtype: 1, Info: ' + toHex(encodeTlv(cet)).slice(12)]);
    expect(toHex(encodeTlv(cet)).slice(12)).toBe('80180040000000' + '6410');
  }, 30_000);

  it('the golden CEE TLV of §5.6', async () => {
    const cee = decodeTlv(parseHex('fe3d001b2102020a0000000000050000000304110000c000001122f719191919000000000806060000a00008080810000080008906001b21080cbc011b2110', 'golden')) as CeeTlv;
    const s = sections(await throughLldpad(encodeLldpdu(frameOf(2, [cee])), 'MAC: 02:00:00:00:00:02'));
    checkCee(s, cee);
  }, 30_000);

  it('random IEEE and CEE LLDPDUs', async () => {
    const tsa = fc.constantFrom<TsaName>('strict', 'cbs', 'ets', 'vendor');
    const prio = fc.integer({ min: 0, max: 7 });
    const tables = fc.record({ prio_tc: fc.array(prio, { minLength: 8, maxLength: 8 }), bw: fc.array(fc.integer({ min: 0, max: 100 }), { minLength: 8, maxLength: 8 }), tsa: fc.array(tsa, { minLength: 8, maxLength: 8 }) });
    const ieee = fc.record({
      cfg: fc.record({ willing: fc.boolean(), cbs: fc.boolean(), max_tcs: fc.integer({ min: 1, max: 8 }), t: tables }).map(({ t, ...h }): EtsCfgTlv => ({ type: 'ets_cfg', ...h, ...t })),
      rec: tables.map((t): EtsRecTlv => ({ type: 'ets_rec', ...t })),
      pfc: fc.record({ willing: fc.boolean(), mbc: fc.boolean(), cap: fc.integer({ min: 0, max: 8 }), enable: fc.uniqueArray(prio).map((a) => a.sort()) }).map((p): PfcTlv => ({ type: 'pfc', ...p })),
      app: fc.array(fc.oneof(
        fc.record({ selector: fc.constantFrom('ethertype', 'stream', 'dgram', 'any') as fc.Arbitrary<'ethertype' | 'stream' | 'dgram' | 'any'>, protocol: fc.integer({ min: 1, max: 0xffff }), priority: prio }),
        fc.record({ selector: fc.constant('dscp' as const), protocol: fc.integer({ min: 0, max: 63 }), priority: prio }),
      ), { minLength: 1, maxLength: 12 }).map((app): AppTlv => ({ type: 'app', app })),
    });
    const cases = fc.sample(fc.tuple(ieee, ceeArb), { seed: 51, numRuns: 4 });
    let n = 10;
    for (const [i, c] of cases) {
      const tlvs = [i.cfg, i.rec, i.pfc, i.app];
      checkIeee(sections(await throughLldpad(encodeLldpdu(frameOf(++n, tlvs)), `Ifname: eth${n}`)), tlvs);
      const cee: CeeTlv = { ...c, control: { ...c.control, oper_version: 0, max_version: 0 } };
      if (cee.pg) cee.pg = { ...cee.pg, oper_version: 0, max_version: 0 };
      if (cee.pfc) cee.pfc = { ...cee.pfc, oper_version: 0, max_version: 0 };
      if (cee.app) cee.app = { ...cee.app, oper_version: 0, max_version: 0, app: cee.app.app.map((e) => ({ ...e, selector: e.selector === 'ethertype' ? 'ethertype' : 'port', oui: 0x1b21 })) };
      checkCee(sections(await throughLldpad(encodeLldpdu(frameOf(++n, [cee])), `Ifname: eth${n}`)), cee);
    }
  }, 60_000);
});
