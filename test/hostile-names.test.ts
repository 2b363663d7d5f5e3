// Names and small format traps: JSON duplicate keys (last one won silently), control characters in
// names (they reached the terminal and generated linux/*.sh raw), a BOM in JSON (refused with an
// invisible character in the message), negative pcapng times (printed as inexact floats).
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printable } from '../host/errors/errors.js';
import { bounded, removeFolder, testFolder } from './hostile-helpers.js';

let dir: string;
beforeAll(() => {
  dir = testFolder('hostile-names');
});
afterAll(() => removeFolder(dir));

function cli(args: string[], input?: Buffer) {
  const r = bounded(args, { cwd: dir, input, timeoutMs: 30_000, unprivileged: true });
  expect(r.cpuS).toBeLessThan(5);
  return r;
}

describe('JSON reads like YAML', () => {
  it('a repeated key is refused with its line (was: the last one won)', () => {
    writeFileSync(join(dir, 'dup.json'), '{"port": {"name": "a", "speed": "100G"},\n "pfc": {"enable": [3]},\n "port": {"name": "b"}}');
    const r = cli(['validate', 'dup.json']);
    expect(r.stderr).toBe('dup.json: line 3: not valid JSON: the key "port" is repeated in one object; keys must be unique\n');
    expect(r.status).toBe(2);
  });

  it('keys spelt differently but equal after escapes are the same key; equal keys in different objects are not', () => {
    writeFileSync(join(dir, 'esc.json'), '{"port": {"name": "a", "n\\u0061me": "b"}}');
    expect(cli(['validate', 'esc.json']).stderr).toMatch(/the key "name" is repeated/);
    writeFileSync(join(dir, 'ok.json'), '{"port": {"name": "a"}, "pfc": {"enable": [3]}, "app": [{"selector": 1, "protocol": 35078, "priority": 3}, {"selector": 1, "protocol": 35079, "priority": 3}]}');
    const ok = cli(['validate', 'ok.json']);
    expect(ok.stderr).toBe('');
    expect(ok.status).toBe(0);
  });

  it('a byte order mark is accepted in JSON as in YAML (was: refused, the BOM shown raw)', () => {
    writeFileSync(join(dir, 'bom.json'), '\ufeff{"port": {"name": "a", "speed": "100G"}}');
    writeFileSync(join(dir, 'bom.yaml'), '\ufeffport: {name: a, speed: 100G}\n');
    const json = cli(['validate', 'bom.json', '--json']);
    const yaml = cli(['validate', 'bom.yaml', '--json']);
    expect(json.status).toBe(0);
    expect(yaml.status).toBe(0);
    expect(json.stdout).toBe(yaml.stdout);
  });
});

describe('control characters in names', () => {
  it.each([['ESC', '\\e[31m'], ['BEL', '\\a'], ['DEL', '\\x7f'], ['newline', '\\n']])('%s in port.name is refused by validate and codegen, never printed raw, no script written', (_, esc) => {
    writeFileSync(join(dir, 'ctl.yaml'), `port: {name: "e${esc}x", speed: 100G}\npfc: {enable: [3]}\n`);
    for (const args of [['validate', 'ctl.yaml'], ['codegen', 'ctl.yaml', '--target', 'linux', '--out', 'cg']]) {
      const r = cli(args);
      expect(r.stderr).toMatch(/^port\.name: must be an interface name: .*without '\/', ':', whitespace or control characters; got byte 0x[0-9a-f]{2} at 1 in "e\\(u00[0-9a-f]{2}|n)[^"]*x"\n$/);
      expect(r.stderr.slice(0, -1)).not.toMatch(/[\u0000-\u001f\u007f]/); // eslint-disable-line no-control-regex
      expect(r.status).toBe(2);
    }
    expect(existsSync(join(dir, 'cg'))).toBe(false);
  });

  it('every message is printable: control characters escaped, long quoted values cut', () => {
    expect(printable('a\u001b[2Jb\u0007')).toBe('a\\u001b[2Jb\\u0007');
    expect(printable(`got "${'x'.repeat(1000)}" here`)).toBe(`got "${'x'.repeat(80)}..." (1000 characters) here`);
    expect(printable('y'.repeat(10_000))).toMatch(/^y{4000}\.\.\. \(6000 more characters\)$/);
  });
});

describe('pcapng times before the epoch', () => {
  it('an if_tsoffset of -10^15 s prints the exact picoseconds (was an inexact float)', () => {
    const block = (type: number, body: Buffer) => {
      const len = 12 + body.length;
      const b = Buffer.alloc(len);
      b.writeUInt32LE(type, 0);
      b.writeUInt32LE(len, 4);
      body.copy(b, 8);
      b.writeUInt32LE(len, len - 4);
      return b;
    };
    const shb = Buffer.alloc(16);
    shb.writeUInt32LE(0x1a2b3c4d, 0);
    shb.writeUInt16LE(1, 4);
    shb.writeBigInt64LE(-1n, 8);
    const idb = Buffer.alloc(8 + 12 + 4);
    idb.writeUInt16LE(1, 0);
    idb.writeUInt16LE(14, 8); // if_tsoffset
    idb.writeUInt16LE(8, 10);
    idb.writeBigInt64LE(-(10n ** 15n), 12);
    const pfc = Buffer.from('0180c20000010200000000018808010100080000ffff0000000000000000000000000000000000000000000000000000000000000000000000000000', 'hex');
    const epb = Buffer.alloc(20 + pfc.length);
    epb.writeUInt32LE(0, 0);
    epb.writeUInt32LE(0, 4);
    epb.writeUInt32LE(1_234_567, 8); // 1.234567 s in microseconds
    epb.writeUInt32LE(pfc.length, 12);
    epb.writeUInt32LE(pfc.length, 16);
    pfc.copy(epb, 20);
    const capture = Buffer.concat([block(0x0a0d0d0a, shb), block(1, idb), block(6, epb)]);
    writeFileSync(join(dir, 'old.pcapng'), capture);
    const r = cli(['dcbx', 'decode', 'old.pcapng', '--json']);
    expect(r.stderr).toBe('');
    // -10^15 s + 1.234567 s = -999999999999998.765433 s = -999999999999998765433000000 ps
    expect(JSON.parse(r.stdout).t_ps).toBe('-999999999999998765433000000');
  });
});
