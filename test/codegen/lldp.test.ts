// LLDP target: the advertised LLDPDU, decoded field by field by tshark (independent dissector) and
// by the project's DCBX decoder, equals the IR; and it is byte-identical to `dcbx encode` for the
// same config, because both go through host/dcbx/ (one encoder, never two).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { buildIr } from '../../codegen/ir.js';
import { defaultDevice, parseDevice } from '../../codegen/device.js';
import { lldpTarget } from '../../codegen/lldp.js';
import { headroomFromModel } from '../../codegen/index.js';
import { loadConfig } from '../../host/config/index.js';
import { encodeConfigLldpdu } from '../../host/commands/dcbx.js';
import { decodeLldpdu } from '../../host/dcbx/lldpdu.js';
import { readPcap } from '../../host/capture/pcap.js';
import { requireTool } from '../helpers.js';
import { find, fields, tsharkPdml } from '../dcbx/pdml.js';

const dir = mkdtempSync(join(tmpdir(), 'dcbkit-lldp-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const opts = { headroom: headroomFromModel };

describe('lldp target', () => {
  test('byte-identical to dcbx encode for every example config (IEEE and CEE)', () => {
    for (const file of ['examples/configs/roce.yaml', 'examples/configs/converged.yaml', 'examples/configs/cee-pg.yaml', 'examples/codegen/eight-tc.yaml']) {
      const { config } = loadConfig(file);
      const ir = buildIr(config, defaultDevice, opts);
      expect(lldpTarget.check(ir), file).toEqual([]);
      const out = lldpTarget.emit(ir).files;
      const [rec] = readPcap(out['lldpdu.pcap'] as Uint8Array);
      const mode = config.pg ? 'cee' : 'ieee';
      expect(ir.dcbxMode).toBe(mode);
      expect(Buffer.from(rec.data).equals(Buffer.from(encodeConfigLldpdu(config, mode))), file).toBe(true);
      expect(out['lldpdu.hex']).toBe(Buffer.from(rec.data).toString('hex') + '\n');
    }
  });

  test('tshark decodes ETS-CFG, PFC and APP of every port to the IR values', () => {
    requireTool('tshark');
    const { config } = loadConfig('examples/configs/roce.yaml');
    const device = parseDevice({ ports: [{ name: 'Ethernet0', index: 0, speed: '100G', cable: '30m' }, { name: 'Ethernet8', index: 8, speed: '400G', cable: '5m' }] });
    const ir = buildIr(config, device, opts);
    const pcap = join(dir, 'roce.pcap');
    writeFileSync(pcap, lldpTarget.emit(ir).files['lldpdu.pcap'] as Uint8Array);
    const packets = tsharkPdml(pcap);
    expect(packets.length).toBe(2);
    packets.forEach((pkt, i) => {
      expect(find(pkt, 'lldp.port.id')!.show).toBe(ir.ports[i].name);
      expect(find(pkt, 'lldp.chassis.id.mac')!.show).toBe(ir.mac);
      const all = fields(pkt);
      const values = (name: string) => all.filter((f) => f.name === name).map((f) => Number(f.show));
      // ETS-CFG comes first, so the first 8 pgid_prio/per/tsa fields are its tables.
      for (let p = 0; p < 8; p++) expect(values(`lldp.dcbx.feature.pg.pgid_prio${p}`)[0]).toBe(ir.prioTc[p]);
      for (let t = 0; t < 8; t++) expect(values(`lldp.dcbx.feature.pg.per${t}`)[0]).toBe(ir.tcs[t].bwPercent);
      const tsaCode = { strict: 0, cbs: 1, ets: 2, vendor: 255 } as const;
      for (let t = 0; t < 8; t++) expect(Number(all.find((f) => f.name === `lldp.dcbx.ieee.ets.tsa${t}`)!.value)).toBe(tsaCode[ir.tcs[t].tsa]);
      for (let p = 0; p < 8; p++) expect(values(`lldp.dcbx.feature.pfc.prio${p}`)[0]).toBe(ir.pfc.enabled[p] ? 1 : 0);
      expect(values('lldp.dcbx.ieee.app.prio')).toEqual(ir.app.map((a) => a.priority));
      expect(values('lldp.dcbx.feature.app.proto')).toEqual(ir.app.map((a) => a.protocol));
    });
  });

  test('our decoder reads the frames back to the IR (round trip)', () => {
    const { config } = loadConfig('examples/configs/converged.yaml');
    const ir = buildIr(config, defaultDevice, opts);
    const [rec] = readPcap(lldpTarget.emit(ir).files['lldpdu.pcap'] as Uint8Array);
    const pdu = decodeLldpdu(rec.data);
    const ets = pdu.tlvs.find((t) => t.type === 'ets_cfg') as unknown as { prio_tc: number[]; tsa: string[]; bw: number[] };
    expect(ets.prio_tc).toEqual(ir.prioTc);
    expect(ets.tsa).toEqual(ir.tcs.map((t) => t.tsa));
    expect(ets.bw).toEqual(ir.tcs.map((t) => t.bwPercent));
    const pfc = pdu.tlvs.find((t) => t.type === 'pfc') as unknown as { enable: number[]; cap: number };
    expect(pfc.enable).toEqual([1, 6]);
    const app = pdu.tlvs.find((t) => t.type === 'app') as unknown as { app: { selector: string; protocol: number; priority: number }[] };
    expect(app.app.map((a) => [a.protocol, a.priority])).toEqual(ir.app.map((a) => [a.protocol, a.priority]));
  });
});
