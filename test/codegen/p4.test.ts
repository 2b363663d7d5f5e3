// P4 target: P4Info and WriteRequest validated by protoc --encode (text format) and by
// @bufbuild/protobuf fromJson with a descriptor set protoc builds here (JSON; both reject unknown
// fields and enum values), plus the checks no schema tool does: canonical bytestrings, every id
// referenced exists in the P4Info with the right widths, dcb.p4 declares the same ids/params,
// and the entries read back (JSON and BMv2 CLI) equal the IR.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createFileRegistry, fromBinary, fromJson, toJson, type Registry } from '@bufbuild/protobuf';
import { FileDescriptorSetSchema } from '@bufbuild/protobuf/wkt';
import { buildIr } from '../../codegen/ir.js';
import { parseDevice } from '../../codegen/device.js';
import { canonicalBytes, p4Target, PFC_SESSION_BASE, tofinoWeight } from '../../codegen/p4.js';
import { requireTool } from '../helpers.js';
import { losslessConfig, losslessInput, parsed, testHeadroom } from './fixtures.js';
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
    expect(req.stderr.toString()).toBe('');
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
    expect(of('DcbEgress.pfc_threshold').map((r: Json) => [r.match, r.params])).toEqual([
      [[0, 3], [144, 72, 0x08, 65535]], [[0, 4], [144, 72, 0x10, 65535]],
      [[260, 3], [144, 72, 0x08, 65535]], [[260, 4], [144, 72, 0x10, 65535]],
    ]);
    const sessions = req.updates.filter((u: Json) => u.entity.packetReplicationEngineEntry).map((u: Json) => u.entity.packetReplicationEngineEntry.cloneSessionEntry);
    expect(sessions.map((s: Json) => [s.sessionId, num(s.replicas[0].port)])).toEqual([[PFC_SESSION_BASE, 0], [PFC_SESSION_BASE + 260, 260]]);
    // BMv2 CLI carries exactly the same entries.
    const cli = files['bmv2_cli.txt'].split('\n').filter((l) => l.startsWith('table_add')).map((l) => {
      const [head, tail] = l.split(' => ');
      const w = head.split(' ');
      return { table: w[1], match: w.slice(3).map(Number), params: tail.split(' ').map(Number) };
    });
    expect(cli).toEqual(rows);
    expect(files['bmv2_cli.txt']).toContain(`mirroring_add ${PFC_SESSION_BASE + 260} 260`);
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
