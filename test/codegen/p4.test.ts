// P4 target: P4Info and WriteRequest validated by protoc --encode (text format) and by
// @bufbuild/protobuf fromJson with a descriptor set protoc builds here (JSON; both reject unknown
// fields and enum values), plus the checks no schema tool does: canonical bytestrings, every id
// referenced exists in the P4Info with the right widths, dcb.p4 declares the same ids/params,
// and the entries read back (JSON and BMv2 CLI) equal the IR. No p4c here, so dcb.p4 is checked
// by interpreting it: the table entries are looked up as the ingress pipeline would for every
// port, PCP and DSCP (IPv4 and IPv6) and compared with what the config means; the PFC actions and
// the deparser are run by a small interpreter to build the frame byte by byte.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createFileRegistry, fromBinary, fromJson, toJson, type Registry } from '@bufbuild/protobuf';
import { FileDescriptorSetSchema } from '@bufbuild/protobuf/wkt';
import { buildIr } from '../../codegen/ir.js';
import { parseDevice } from '../../codegen/device.js';
import { canonicalBytes, macValue, p4Target, parseDeviceId, tofinoWeight } from '../../codegen/p4.js';
import { PFC_SESSION_BASE } from '../../codegen/p4-program.js';
import { codegenFiles } from '../../host/commands/codegen.js';
import { InputError } from '../../host/errors/errors.js';
import fc from 'fast-check';
import { requireTool } from '../helpers.js';
import { arbConfigInput, losslessConfig, losslessInput, parsed, testHeadroom, type ConfigInput } from './fixtures.js';
import { actionOf, applyOf, LEAK, newScope, runAction, serialise, type Scope } from './p4-interp.js';
import { schemasDir } from './schemas.js';

const P4RT = () => join(schemasDir(), 'p4runtime');
const dir = mkdtempSync(join(tmpdir(), 'dcbkit-p4-'));
let registry: Registry;

function protocEncode(type: string, proto: string, text: string) {
  return spawnSync('protoc', ['-I', P4RT(), '-I', '/usr/include', `--encode=${type}`, proto], { input: text });
}

beforeAll(() => {
  requireTool('protoc');
  const fds = join(dir, 'p4rt.fds');
  const r = spawnSync('protoc', ['-I', P4RT(), '-I', '/usr/include', '--include_imports', `--descriptor_set_out=${fds}`, 'p4/v1/p4runtime.proto', 'p4/config/v1/p4info.proto'], { encoding: 'utf8' });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  registry = createFileRegistry(fromBinary(FileDescriptorSetSchema, readFileSync(fds)));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const b64 = (s: string) => [...Buffer.from(s, 'base64')];
const num = (s: string) => b64(s).reduce((a, b) => a * 256 + b, 0);
/** Configs go through the parser, as the CLI hands them to codegen. */

describe('p4 target', () => {
  const device = parseDevice({ cell_bytes: 256, ports: [{ name: 'Ethernet0', index: 0, speed: '100G', cable: '300m' }, { name: 'Ethernet4', index: 260, speed: '100G', cable: '5m' }] });
  const ir = buildIr(losslessConfig(), device, { headroom: testHeadroom });
  const files = p4Target.emit(ir).files as Record<string, string>;

  test('protoc --encode accepts p4info.txtpb and write_request.txtpb, and rejects a misspelt field', () => {
    expect(p4Target.check(ir)).toEqual([]);
    const info = protocEncode('p4.config.v1.P4Info', 'p4/config/v1/p4info.proto', files['p4info.txtpb']);
    expect(info.stderr.toString()).toBe('');
    expect(info.status).toBe(0);
    const req = protocEncode('p4.v1.WriteRequest', 'p4/v1/p4runtime.proto', files['write_request.txtpb']);
    // The only remark: Replica.egress_port is deprecated since P4Runtime 1.4 (chosen on purpose, see the replica test).
    const remarks = req.stderr.toString().split('\n').filter(Boolean);
    expect(remarks.length).toBe(2); // one per clone session (ports 0 and 260)
    for (const r of remarks) expect(r).toMatch(/warning: text format contains deprecated field "egress_port"$/);
    expect(req.status).toBe(0);
    const bad = protocEncode('p4.v1.WriteRequest', 'p4/v1/p4runtime.proto', files['write_request.txtpb'].replace('table_id', 'tabel_id'));
    expect(bad.status).not.toBe(0);
    expect(bad.stderr.toString()).toMatch(/no field named "tabel_id"/);
  });

  test('@bufbuild/protobuf fromJson accepts the JSON files and rejects unknown keys and enums', () => {
    const W = registry.getMessage('p4.v1.WriteRequest')!;
    const I = registry.getMessage('p4.config.v1.P4Info')!;
    expect(() => fromJson(I, JSON.parse(files['p4info.json']), { registry })).not.toThrow();
    expect(() => fromJson(W, JSON.parse(files['write_request.json']), { registry })).not.toThrow();
    expect(() => fromJson(W, JSON.parse(files['write_request.json'].replace('"tableId"', '"tabelId"')), { registry })).toThrow(/tabelId/);
    expect(() => fromJson(W, JSON.parse(files['write_request.json'].replace('"INSERT"', '"UPSERT"')), { registry })).toThrow(/UPSERT/);
    // The text and JSON forms are the same message.
    const fromText = protocEncode('p4.v1.WriteRequest', 'p4/v1/p4runtime.proto', files['write_request.txtpb']).stdout;
    expect(toJson(W, fromBinary(W, fromText), { registry })).toEqual(toJson(W, fromJson(W, JSON.parse(files['write_request.json']), { registry }), { registry }));
  });

  test('canonical bytestrings and cross-references against the P4Info', () => {
    const info: Json = JSON.parse(files['p4info.json']);
    const req: Json = JSON.parse(files['write_request.json']);
    const tables = new Map<number, Json>(info.tables.map((t: Json) => [t.preamble.id, t]));
    const actions = new Map<number, Json>(info.actions.map((a: Json) => [a.preamble.id, a]));
    for (const t of info.tables) expect(t.preamble.id >>> 24).toBe(0x02);
    for (const a of info.actions) expect(a.preamble.id >>> 24).toBe(0x01);
    for (const r of info.registers) expect(r.preamble.id >>> 24).toBe(0x16);
    for (const c of info.counters) expect(c.preamble.id >>> 24).toBe(0x12);
    const canonical = (bytes: number[], width: number) => {
      expect(bytes.length).toBeGreaterThan(0);
      if (bytes.length > 1) expect(bytes[0]).not.toBe(0); // no leading zero bytes
      expect(bytes.length).toBeLessThanOrEqual(Math.ceil(width / 8));
      expect(bytes.reduce((a, b) => a * 256 + b, 0)).toBeLessThan(2 ** width);
    };
    for (const u of req.updates) {
      const te = u.entity.tableEntry;
      if (!te) continue;
      const t = tables.get(te.tableId)!;
      expect(t, `table ${te.tableId}`).toBeDefined();
      expect(te.match.map((m: Json) => m.fieldId)).toEqual(t.matchFields.map((f: Json) => f.id));
      te.match.forEach((m: Json, i: number) => canonical(b64(m.exact.value), t.matchFields[i].bitwidth));
      const aid = te.action.action.actionId;
      expect(t.actionRefs.map((r: Json) => r.id)).toContain(aid);
      const a = actions.get(aid)!;
      expect(te.action.action.params.map((p: Json) => p.paramId)).toEqual(a.params.map((p: Json) => p.id));
      te.action.action.params.forEach((p: Json, i: number) => canonical(b64(p.value), a.params[i].bitwidth));
    }
    expect([...canonicalBytes(0, 8)]).toEqual([0]);
    expect([...canonicalBytes(260, 9)]).toEqual([1, 4]);
    expect(() => canonicalBytes(512, 9)).toThrow(RangeError);
  });

  test('dcb.p4 declares the tables, actions, parameters and registers of the P4Info with the same ids', () => {
    const info: Json = JSON.parse(files['p4info.json']);
    const src = files['dcb.p4'];
    for (const a of info.actions) {
      const params = (a.params ?? []).map((p: Json) => `bit<${p.bitwidth}> ${p.name}`).join(', ');
      expect(src).toContain(`@id(0x${a.preamble.id.toString(16).padStart(8, '0')}) action ${a.preamble.alias}(${params})`);
    }
    for (const t of info.tables) {
      expect(src).toContain(`@id(0x${t.preamble.id.toString(16).padStart(8, '0')}) table ${t.preamble.alias} {`);
      expect(src).toContain(`key = { ${t.matchFields.map((f: Json) => `${f.name}: exact;`).join(' ')} }`);
    }
    for (const r of info.registers) expect(src).toContain(`@id(0x${r.preamble.id.toString(16).padStart(8, '0')}) register<bit<${r.typeSpec.bitstring.bit.bitwidth}>>(${r.size}) ${r.preamble.alias};`);
    for (const c of info.counters) expect(src).toContain(`@id(0x${c.preamble.id.toString(16).padStart(8, '0')}) counter(${c.size}, CounterType.packets) ${c.preamble.alias};`);
    // Balanced braces and parentheses (no p4c here: a cheap structural check).
    expect(src.split('{').length).toBe(src.split('}').length);
    expect(src.split('(').length).toBe(src.split(')').length);
  });

  test('round trip: the entries (JSON and BMv2 CLI) give back the IR', () => {
    const req: Json = JSON.parse(files['write_request.json']);
    const info: Json = JSON.parse(files['p4info.json']);
    const tableName = new Map<number, string>(info.tables.map((t: Json) => [t.preamble.id, t.preamble.name]));
    const rows = req.updates
      .filter((u: Json) => u.entity.tableEntry)
      .map((u: Json) => ({
        table: tableName.get(u.entity.tableEntry.tableId)!,
        match: u.entity.tableEntry.match.map((m: Json) => num(m.exact.value)),
        params: u.entity.tableEntry.action.action.params.map((p: Json) => num(p.value)),
      }));
    const of = (table: string) => rows.filter((r: Json) => r.table === table);
    const prio = new Map(of('DcbIngress.prio_tc').map((r: Json) => [r.match[0], r.params]));
    for (let p = 0; p < 8; p++) {
      const t = ir.tcs[ir.prioTc[p]];
      expect(prio.get(p)).toEqual([t.tc, t.queue, t.pg]);
    }
    expect(of('DcbIngress.dscp_classify').map((r: Json) => [r.match[0], r.params[0]])).toEqual([[26, 3]]);
    for (const r of of('DcbEgress.tc_sched')) {
      const t = ir.tcs[r.match[0]];
      expect(r.params).toEqual([t.tsa === 'ets' ? 2 : 0, t.bwPercent, tofinoWeight(t.bwPercent), t.quantumBytes]);
    }
    // ECN on TC 3 (the parser's defaults): kmin 5000 B -> 20 cells of 256 (ceil 19.5), kmax 200000 B -> 782 (ceil 781.25), pmax 1 %, Qeq 26000 B -> 102 cells (ceil 101.6), w 2
    expect(of('DcbEgress.ecn_mark').map((r: Json) => [r.match, r.params])).toEqual([[[3], [20, 782, 1, 102, 2]]]);
    // PFC: xoff 4 x 9216 = 36864 B = 144 cells, xon 2 x 9216 = 72 cells; PG 3 = priority 3 (mask 0x08), PG 4 (0x10)
    expect(of('DcbIngress.pfc_threshold').map((r: Json) => [r.match, r.params])).toEqual([
      [[0, 3], [144, 72, 0x08, 65535]], [[0, 4], [144, 72, 0x10, 65535]],
      [[260, 3], [144, 72, 0x08, 65535]], [[260, 4], [144, 72, 0x10, 65535]],
    ]);
    const sessions = req.updates.filter((u: Json) => u.entity.packetReplicationEngineEntry).map((u: Json) => u.entity.packetReplicationEngineEntry.cloneSessionEntry);
    expect(sessions.map((s: Json) => [s.sessionId, s.replicas[0].egressPort])).toEqual([[PFC_SESSION_BASE, 0], [PFC_SESSION_BASE + 260, 260]]);
    // Every port that sends PFC frames has its source MAC: the config's port.mac.
    expect(of('DcbEgress.pfc_src_mac').map((r: Json) => [r.match, r.params])).toEqual([[[0], [0x020000000001]], [[260], [0x020000000001]]]);
    // BMv2 CLI carries exactly the same entries, each value read as simple_switch_CLI reads it
    // (behavioral-model tools/runtime_CLI.py parse_param): a 48-bit value as six colon-separated hex
    // octets when it has a colon, otherwise int(x, 0); a MAC is written the readable way.
    const cliValue = (s: string) => (s.includes(':') ? s.split(':').reduce((v, o) => (/^[0-9a-f]{2}$/i.test(o) ? v * 256 + parseInt(o, 16) : NaN), 0) : Number(s));
    const cli = files['bmv2_cli.txt'].split('\n').filter((l) => l.startsWith('table_add')).map((l) => {
      const [head, tail] = l.split(' => ');
      const w = head.split(' ');
      return { table: w[1], match: w.slice(3).map(cliValue), params: tail.split(' ').map(cliValue) };
    });
    expect(cli).toEqual(rows);
    expect(files['bmv2_cli.txt']).toContain('table_add DcbEgress.pfc_src_mac DcbEgress.make_pfc_frame 260 => 02:00:00:00:00:01\n');
    expect(files['bmv2_cli.txt']).not.toMatch(/\b2199023255553\b/); // the same MAC in decimal
    expect(files['bmv2_cli.txt']).toContain(`mirroring_add ${PFC_SESSION_BASE + 260} 260`);
  });

  test('device_id: 0 by default (BMv2 --device-id), the value given otherwise; a bad one is an input error', () => {
    expect(files['write_request.txtpb']).toMatch(/^device_id: 0$/m);
    const seven = p4Target.emit(ir, { deviceId: 7 }).files as Record<string, string>;
    expect(seven['write_request.txtpb']).toMatch(/^device_id: 7$/m);
    expect(JSON.parse(seven['write_request.json']).deviceId).toBe('7');
    for (const bad of [-1, 1.5, Number.NaN, '3']) {
      expect(() => parseDeviceId(bad)).toThrow(InputError);
      try {
        parseDeviceId(bad);
      } catch (e) {
        expect((e as InputError).problems[0].path).toBe('device-id');
      }
    }
    // Through the library form of the CLI command (what --device-id feeds).
    const cfg = join(dir, 'lossless.json');
    writeFileSync(cfg, JSON.stringify(losslessInput()));
    const out = codegenFiles(cfg, ['p4'], undefined, { deviceId: 42 }).files.get('p4/write_request.txtpb') as string;
    expect(out).toMatch(/^device_id: 42$/m);
    expect(() => codegenFiles(cfg, ['p4'], undefined, { deviceId: -3 })).toThrow(/device-id/);
  });

  test('clone replicas carry egress_port: Replica.port and egress_port are one oneof, so both cannot be set', () => {
    expect(files['write_request.txtpb']).toContain('egress_port: 260');
    const both = files['write_request.txtpb'].replace('egress_port: 260', 'egress_port: 260\n              port: "\\001\\004"');
    const r = protocEncode('p4.v1.WriteRequest', 'p4/v1/p4runtime.proto', both);
    expect(r.status).not.toBe(0);
    expect(r.stderr.toString()).toMatch(/oneof/);
  });

  test('pkg_info is what p4c writes from the @pkginfo annotation on main, plus arch "v1model"', () => {
    const src = files['dcb.p4'];
    const ann = /@pkginfo\(([^)]*)\)\s*V1Switch\(/.exec(src);
    expect(ann).not.toBeNull();
    const kv = Object.fromEntries([...ann![1].matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    const info: Json = JSON.parse(files['p4info.json']);
    expect(info.pkgInfo).toEqual({ ...kv, arch: 'v1model' });
    // Text format in field-number order (name 1, version 2, arch 5, organization 6), as protoc prints it.
    const text = /pkg_info \{\n([\s\S]*?)\n\}/.exec(files['p4info.txtpb'])![1];
    expect(text.split('\n').map((l) => l.trim().split(':')[0])).toEqual(['name', 'version', 'arch', 'organization']);
  });

  test('the PFC frame, built by interpreting make_pfc_frame and the deparser: 802.3 Annex 31B, 60 B, nothing of the packet', () => {
    const src = files['dcb.p4'];
    const req: Json = JSON.parse(files['write_request.json']);
    const info: Json = JSON.parse(files['p4info.json']);
    const macTable = info.tables.find((t: Json) => t.preamble.name === 'DcbEgress.pfc_src_mac').preamble.id;
    const macOf = new Map<number, bigint>(req.updates.filter((u: Json) => u.entity.tableEntry?.tableId === macTable).map((u: Json) => [num(u.entity.tableEntry.match[0].exact.value), BigInt(num(u.entity.tableEntry.action.action.params[0].value))]));
    expect(macOf.get(260)).toBe(BigInt(macValue('02:00:00:00:00:01')));
    // The clone's metadata reaches egress only through field list PFC_FIELDS: whatever the frame reads from meta must be in it.
    const fieldList = Number(/const bit<8> PFC_FIELDS = (\d+);/.exec(src)![1]);
    const preserved = [...src.matchAll(new RegExp(`@field_list\\(${fieldList}\\) bit<\\d+> (\\w+);`, 'g'))].map((m) => `meta.${m[1]}`);
    const read = [...new Set([...actionOf(src, 'make_pfc_frame').body.matchAll(/meta\.\w+/g)].map((m) => m[0]))];
    expect(read.sort()).toEqual(['meta.pfc_mask', 'meta.pfc_time']);
    for (const f of read) expect(preserved).toContain(f);

    const leakAll = (h: string, fields: string[]) => Object.fromEntries(fields.map((f) => [`hdr.${h}.${f}`, LEAK]));
    const original = (valid: string[]) => ({ ...leakAll('ethernet', ['dst_addr', 'src_addr', 'ether_type']), ...leakAll('vlan', ['pcp', 'dei', 'vid', 'ether_type']), ...leakAll('ipv4', ['version', 'dscp', 'ecn']), ...leakAll('ipv6', ['version', 'dscp']), valid });
    for (const [valid, time, mask] of [[['ethernet', 'vlan', 'ipv4'], 65535, 0x08], [['ethernet', 'ipv6'], 0, 0x10], [['ethernet'], 4660, 0x18]] as const) {
      const { valid: v, ...fields } = original([...valid]);
      const scope: Scope = newScope({ ...fields, 'meta.pfc_mask': BigInt(mask), 'meta.pfc_time': BigInt(time) }, v);
      runAction(src, 'make_pfc_frame', scope, [macOf.get(260)!]);
      const frame = serialise(src, scope, 1500);
      expect(frame).not.toContain(LEAK);
      const times = [0, 1, 2, 3, 4, 5, 6, 7].flatMap((p) => (mask & (1 << p) ? [time >> 8, time & 0xff] : [0, 0]));
      expect(frame.map(Number)).toEqual([
        0x01, 0x80, 0xc2, 0x00, 0x00, 0x01, // 01-80-C2-00-00-01
        0x02, 0x00, 0x00, 0x00, 0x00, 0x01, // the port's MAC
        0x88, 0x08, 0x01, 0x01, 0x00, mask, // MAC Control, PFC opcode, class-enable vector
        ...times,
        ...new Array(26).fill(0), // pad to 60 B; the MAC appends the FCS (64 B)
      ]);
    }
    // The clone path builds the frame only on a port with a source MAC, and drops it otherwise.
    expect(applyOf(src, 'DcbEgress')).toMatch(/instance_type != INSTANCE_NORMAL\) \{\s*if \(!pfc_src_mac\.apply\(\)\.hit\) \{\s*mark_to_drop\(standard_metadata\);/);
  });

  test('XOFF on the arrival that reaches xoff, XON on the departure that drains to xon, with no arrival in between', () => {
    const src = files['dcb.p4'];
    // Entry for (port 260, PG 3): xoff 144, xon 72 cells, mask 0x08, pause 65535.
    const scope = newScope({ 'standard_metadata.ingress_port': 260n, 'meta.pg': 3n, 'meta.pfc_xoff_th': 144n, 'meta.pfc_xon_th': 72n, 'meta.pfc_pause_time': 65535n }, []);
    const sent: [string, number, bigint][] = [];
    for (let i = 1; i <= 150; i++) {
      runAction(src, 'pfc_arrive', scope);
      if (scope.fields.get('meta.pfc_send') === 1n) sent.push(['arrival', i, scope.fields.get('meta.pfc_time') as bigint]);
    }
    for (let i = 1; i <= 150; i++) {
      runAction(src, 'pfc_depart', scope);
      if (scope.fields.get('meta.pfc_send') === 1n) sent.push(['departure', i, scope.fields.get('meta.pfc_time') as bigint]);
    }
    // 150 in: XOFF at the 144th. Out: occupancy 150 -> 72 at the 78th departure: XON (pause time 0).
    expect(sent).toEqual([['arrival', 144, 65535n], ['departure', 78, 0n]]);
    expect(scope.registers.get('pfc_occupancy')!.get(260n * 8n + 3n)).toBe(0n);
    expect(scope.registers.get('pfc_paused')!.get(260n * 8n + 3n)).toBe(0n);
    // Both are wired: ingress sends the XOFF clone after pfc_arrive, egress the XON clone after pfc_depart of every lossless departure.
    expect(applyOf(src, 'DcbIngress')).toMatch(/pfc_arrive\(\);\s*if \(meta\.pfc_send == 1\) \{\s*clone_preserving_field_list\(CloneType\.I2E, PFC_SESSION_BASE \+ \(bit<32>\)standard_metadata\.ingress_port, PFC_FIELDS\);/);
    expect(applyOf(src, 'DcbEgress')).toMatch(/if \(meta\.pfc_tracked == 1\) \{\s*pfc_depart\(\);\s*if \(meta\.pfc_send == 1\) \{\s*clone_preserving_field_list\(CloneType\.E2E, PFC_SESSION_BASE \+ \(bit<32>\)standard_metadata\.ingress_port, PFC_FIELDS\);/);
  });

  test('QCN CP state per (egress port, TC); a negative feedback is counted there', () => {
    const egress = applyOf(files['dcb.p4'], 'DcbEgress');
    expect(egress).toMatch(/bit<32> cp = \(bit<32>\)standard_metadata\.egress_port \* 8 \+ \(bit<32>\)meta\.tc;/);
    expect(egress).toMatch(/qcn_q_old\.read\(q_old, cp\);/);
    expect(egress).toMatch(/qcn_q_old\.write\(cp, q\);/);
    expect(egress).toMatch(/if \(fb < 0\) \{\s*qcn_congestion\.count\(cp\);/);
    expect(files['dcb.p4']).not.toContain('qcn_congested');
  });

  test('the ingress entries mean what the config means, for every port, PCP and DSCP (IPv4 and IPv6)', () => {
    // Runs DcbIngress's apply over the write_request's rows (table miss = default nop) and compares
    // priority, TC, queue, PG and the PFC decision with the parsed config read directly.
    const src = files['dcb.p4'];
    const ingress = applyOf(src, 'DcbIngress');
    expect(ingress).toMatch(/if \(hdr\.vlan\.isValid\(\)\) \{\s*pcp_classify\.apply\(\);\s*\} else if \(hdr\.ipv4\.isValid\(\)\) \{\s*meta\.dscp = hdr\.ipv4\.dscp;\s*dscp_classify\.apply\(\);\s*\} else if \(hdr\.ipv6\.isValid\(\)\) \{\s*meta\.dscp = hdr\.ipv6\.dscp;\s*dscp_classify\.apply\(\);/);
    const info: Json = JSON.parse(files['p4info.json']);
    expect(info.tables.find((t: Json) => t.preamble.name === 'DcbIngress.dscp_classify').matchFields[0].name).toBe('meta.dscp');
    const check = (raw: ConfigInput, dev: ReturnType<typeof parseDevice>) => {
      const cfg = parsed(raw);
      const cir = buildIr(cfg, dev, { headroom: testHeadroom });
      if (p4Target.check(cir).length) return false; // a config the target refuses has no entries to interpret
      const out = p4Target.emit(cir).files as Record<string, string>;
      const pinfo: Json = JSON.parse(out['p4info.json']);
      const names = new Map<number, string>(pinfo.tables.map((t: Json) => [t.preamble.id, t.preamble.name]));
      const rows = new Map<string, number[]>();
      for (const u of JSON.parse(out['write_request.json']).updates as Json[]) {
        const te = u.entity.tableEntry;
        if (te) rows.set(`${names.get(te.tableId)}/${te.match.map((m: Json) => num(m.exact.value)).join(',')}`, te.action.action.params.map((p: Json) => num(p.value)));
      }
      const lookup = (table: string, ...key: number[]) => rows.get(`${table}/${key.join(',')}`);
      const dscpPrio = (d: number) => cfg.app?.find((a) => a.selector_name === 'dscp' && a.protocol === d)?.priority ?? 0;
      for (const port of cir.ports) {
        const packets = [
          ...[0, 1, 2, 3, 4, 5, 6, 7].map((pcp) => ({ vlan: pcp, prio: pcp })),
          ...Array.from({ length: 64 }, (_, d) => [{ ipv4: d, prio: dscpPrio(d) }, { ipv6: d, prio: dscpPrio(d) }]).flat(),
          { prio: 0 }, // untagged, neither IPv4 nor IPv6
        ];
        for (const pkt of packets) {
          let prio = 0;
          if ('vlan' in pkt) prio = lookup('DcbIngress.pcp_classify', pkt.vlan)?.[0] ?? prio;
          else if ('ipv4' in pkt) prio = lookup('DcbIngress.dscp_classify', pkt.ipv4)?.[0] ?? prio;
          else if ('ipv6' in pkt) prio = lookup('DcbIngress.dscp_classify', pkt.ipv6)?.[0] ?? prio;
          const [tc, queue, pg] = lookup('DcbIngress.prio_tc', prio)!;
          const pfc = lookup('DcbIngress.pfc_threshold', port.index, pg);
          const want = cfg.ets!.prio_tc[pkt.prio];
          expect({ pkt, port: port.index, prio, tc, queue, pg }).toEqual({ pkt, port: port.index, prio: pkt.prio, tc: want, queue: cir.tcs[want].queue, pg: cir.tcs[want].pg });
          const lossless = cfg.pfc!.enable.includes(pkt.prio);
          expect(pfc !== undefined, `port ${port.index} priority ${pkt.prio} lossless`).toBe(lossless);
          if (pfc) {
            expect(pfc[2] & (1 << pkt.prio)).not.toBe(0); // the frame pauses this priority
            expect(pfc.slice(0, 2)).toEqual([Math.ceil(cfg.pfc!.xoff! / cir.cellBytes), Math.ceil(cfg.pfc!.xon! / cir.cellBytes)]);
            expect(lookup('DcbEgress.pfc_src_mac', port.index)).toEqual([macValue(cfg.port.mac!)]);
          }
        }
      }
      return true;
    };
    const twoPorts = parseDevice({ cell_bytes: 256, ports: [{ name: 'Ethernet0', index: 0, speed: '100G', cable: '300m' }, { name: 'Ethernet4', index: 260, speed: '100G', cable: '5m' }] });
    expect(check(losslessInput(), twoPorts)).toBe(true);
    // Priorities and TCs that differ, several DSCPs to one priority: lossless priorities 5 and 6 share TC 1.
    const shuffled = losslessInput();
    shuffled.ets = { willing: false, prio_tc: [0, 2, 3, 4, 5, 1, 1, 6], tsa: ['ets', 'ets', 'ets', 'ets', 'strict', 'strict', 'strict', 'strict'], bw: [10, 20, 30, 40, 0, 0, 0, 0] };
    shuffled.pfc = { ...shuffled.pfc, enable: [5, 6] };
    shuffled.app = [10, 26, 46].map((d, i) => ({ selector: 'dscp', protocol: d, priority: [5, 6, 2][i] }));
    expect(check(shuffled, twoPorts)).toBe(true);
    let interpreted = 0;
    fc.assert(fc.property(arbConfigInput, (raw) => void (interpreted += check(raw, twoPorts) ? 1 : 0)), { numRuns: 25, seed: 9 });
    expect(interpreted).toBeGreaterThan(10);
  });

  test('10-bit DWRR weights: ceil(1023 x bw / 100) and the share error is reported', () => {
    // 10/20/30/40 % -> 103/205/307/410 (sum 1025): shares 10.0488/20/29.9512/40 %
    expect([10, 20, 30, 40].map(tofinoWeight)).toEqual([103, 205, 307, 410]);
    const q = p4Target.emit(ir).quantisation;
    expect(q.map((x) => [x.path, x.got])).toEqual([['ets.bw[0]', 10.0488], ['ets.bw[2]', 29.9512]]);
  });

  test('a threshold too large for its parameter is a problem', () => {
    // With 1-byte cells every default threshold still fits bit<19> (< 524288): kmax 200000, xoff 36864.
    const big = buildIr(losslessConfig(), parseDevice({ cell_bytes: 1, buffer_bytes: 2 ** 30 }), { headroom: testHeadroom });
    expect(p4Target.check(big)).toEqual([]);
    const c = { ...losslessInput(), qcn: { cp: { priorities: [3], kmax: 600000 } } };
    expect(p4Target.check(buildIr(parsed(c), parseDevice({ cell_bytes: 1, buffer_bytes: 2 ** 30 }), { headroom: testHeadroom }))).toEqual([
      { path: 'p4: DcbEgress.set_ecn.kmax', rule: 'value 600000 does not fit bit<19>' },
    ]);
  });
});
