// Hostile input files: devices, FIFOs, oversized files and stdin, maps of many keys, huge values,
// capture streams of many interface blocks or absurd record lengths. Each case runs the built CLI
// as nobody (when root), killed after a timeout, and must refuse with exit 2 and one clear line
// within 5 s of CPU (host/io/input.ts, host/config/document-limits.ts, host/capture/pcap-stream.ts).
import { execFileSync } from 'node:child_process';
import { truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bounded, removeFolder, testFolder } from './hostile-helpers.js';

let dir: string;
beforeAll(() => {
  dir = testFolder('hostile-files');
});
afterAll(() => removeFolder(dir));

const CONFIG = 'port: {name: e0, speed: 100G}\n';

/** A refusal: exit 2, the rule in stderr, under 5 s of CPU and 400 MB. */
function refused(args: string[], rule: RegExp, input?: Buffer | string) {
  const r = bounded(args, { input, timeoutMs: 30_000, cwd: dir, unprivileged: true });
  expect(r.stderr).toMatch(rule);
  expect(r.status).toBe(2);
  expect(r.cpuS).toBeLessThan(5);
  expect(r.rssMB).toBeLessThan(400);
  return r;
}

function pcapngBlock(type: number, body: Buffer): Buffer {
  const padded = Buffer.concat([body, Buffer.alloc((4 - (body.length % 4)) % 4)]);
  const len = 12 + padded.length;
  const head = Buffer.alloc(8);
  head.writeUInt32LE(type, 0);
  head.writeUInt32LE(len, 4);
  const tail = Buffer.alloc(4);
  tail.writeUInt32LE(len, 0);
  return Buffer.concat([head, padded, tail]);
}

const SHB = (() => {
  const b = Buffer.alloc(16);
  b.writeUInt32LE(0x1a2b3c4d, 0);
  b.writeUInt16LE(1, 4);
  b.writeBigInt64LE(-1n, 8);
  return pcapngBlock(0x0a0d0d0a, b);
})();
const IDB = (() => {
  const b = Buffer.alloc(8);
  b.writeUInt16LE(1, 0); // Ethernet
  return pcapngBlock(1, b);
})();

describe('non-regular files are refused by fstat before any read', () => {
  it.each([
    ['validate', ['validate', '/dev/zero']],
    ['codegen', ['codegen', '/dev/zero', '--target', 'linux', '--out', 'cg']],
    ['dcbx decode', ['dcbx', 'decode', '/dev/zero']],
    ['audit --sonic', ['audit', 'CONFIG', '--sonic', '/dev/zero']],
    ['vectors --stimulus', ['vectors', 'qcn-rp', '--stimulus', '/dev/zero']],
    ['run', ['run', '/dev/zero']],
    ['sweep', ['sweep', '/dev/zero', '--param', 'seed=1,2']],
  ])('%s /dev/zero: exit 2, "is a device"', (_, args) => {
    writeFileSync(join(dir, 'CONFIG'), CONFIG);
    refused(args, /"\/dev\/zero" is a device, not a regular file/);
  });

  it('a FIFO without a writer does not hang validate, run or sweep-merge (its run.json a FIFO)', () => {
    execFileSync('mkfifo', [join(dir, 'fifo.yaml')]);
    refused(['validate', 'fifo.yaml'], /"fifo.yaml" is a FIFO \(named pipe\), not a regular file/);
    refused(['run', 'fifo.yaml'], /is a FIFO/);
    execFileSync('mkdir', ['-p', join(dir, 'shard')]);
    execFileSync('mkfifo', [join(dir, 'shard', 'run.json')]);
    refused(['sweep-merge', 'shard', '--out', 'merged'], /shard: not a dcbkit sweep output/);
  });
});

describe('sizes are bounded before the contents are read', () => {
  it('a 65 MiB (sparse) config is refused from its size, with the 64 MiB figure', () => {
    writeFileSync(join(dir, 'big.yaml'), CONFIG);
    truncateSync(join(dir, 'big.yaml'), 65 * 1024 * 1024);
    refused(['validate', 'big.yaml'], /"big.yaml" is more than 64 MiB, the limit of a document file/);
  });

  it('stdin over 64 MiB is refused while it is read', () => {
    refused(['validate', '-'], /standard input holds more than 64 MiB/, Buffer.alloc(65 * 1024 * 1024, 0x20));
  });

  it('50,000 unknown keys: every one named, in linear time (was 57 s: the parser\'s quadratic uniqueKeys)', () => {
    writeFileSync(join(dir, 'keys.yaml'), CONFIG + Array.from({ length: 50_000 }, (_, i) => `k${i}: 1\n`).join(''));
    const r = refused(['validate', 'keys.yaml'], /k49999: unknown key/);
    expect(r.stderr.split('\n').filter((l) => l.includes('unknown key'))).toHaveLength(50_000);
  });

  it('a repeated key among 50,000 is still found, with both lines', () => {
    writeFileSync(join(dir, 'dup.yaml'), CONFIG + Array.from({ length: 50_000 }, (_, i) => `k${i}: 1\n`).join('') + 'k7: 2\n');
    refused(['validate', 'dup.yaml'], /line 50002: not valid YAML: the key "k7" is repeated \(first on line 9\)/);
  });

  it('more than 2,000,000 entries is refused before parsing', () => {
    writeFileSync(join(dir, 'lines.yaml'), CONFIG + '#\n'.repeat(2_000_000));
    refused(['validate', 'lines.yaml'], /has 2000002 lines and commas, more than the 2000000 entries a document may hold/);
  });

  it('a 50 MB value is refused and quoted by at most a short prefix (was echoed whole)', () => {
    writeFileSync(join(dir, 'value.yaml'), `port: {name: e0, speed: "${'A'.repeat(50_000_000)}"}\n`);
    const r = refused(['validate', 'value.yaml'], /holds a value of 50000002 characters, more than the 1048576 a value may have/);
    expect(r.stderr.length).toBeLessThan(500);
    // the same value in JSON reaches the schema, whose message keeps 80 characters of it
    writeFileSync(join(dir, 'value.json'), JSON.stringify({ port: { name: 'e0', speed: 'A'.repeat(50_000_000) } }));
    const j = refused(['validate', 'value.json'], /got "A{80}\.\.\." \(50000000 characters\)/);
    expect(j.stderr.length).toBeLessThan(1000);
  });
});

describe('capture streams', () => {
  const frame = Buffer.concat([Buffer.from('0180c200000e020000000001' + '88cc', 'hex'), Buffer.from('0207040200000000010403020001060200780000', 'hex')]);
  const epb = (() => {
    const b = Buffer.alloc(20);
    b.writeUInt32LE(frame.length, 12);
    b.writeUInt32LE(frame.length, 16);
    return pcapngBlock(6, Buffer.concat([b, frame]));
  })();

  it('40,000 interface blocks on stdin decode as fast as the file (was > 115 s: quadratic)', () => {
    const capture = Buffer.concat([SHB, ...Array.from({ length: 40_000 }, () => IDB), epb]);
    writeFileSync(join(dir, 'many-idb.pcapng'), capture);
    const stream = bounded(['dcbx', 'decode', '-', '--json'], { input: capture, timeoutMs: 30_000, unprivileged: true });
    const file = bounded(['dcbx', 'decode', join(dir, 'many-idb.pcapng'), '--json'], { timeoutMs: 30_000, unprivileged: true });
    expect(stream.stderr).toBe('');
    expect(stream.status).toBe(0);
    expect(stream.stdout).toBe(file.stdout);
    expect(JSON.parse(stream.stdout).frame).toBe(0);
    expect(stream.cpuS).toBeLessThan(5);
  });

  it('a pcap record length of 2^32 - 1 is refused at its header, not buffered', () => {
    const header = Buffer.alloc(24);
    header.writeUInt32LE(0xa1b2c3d4, 0);
    header.writeUInt16LE(2, 4);
    header.writeUInt16LE(4, 6);
    header.writeUInt32LE(65535, 16);
    header.writeUInt32LE(1, 20);
    const record = Buffer.alloc(16);
    record.writeUInt32LE(0xffffffff, 8);
    record.writeUInt32LE(0xffffffff, 12);
    refused(['dcbx', 'decode', '-'], /stdin: byte 32: pcap record of 4294967295 bytes is over 262144/, Buffer.concat([header, record, Buffer.alloc(8 * 1024 * 1024)]));
  });

  it('a pcapng block length of 2^31 is refused at its header', () => {
    const block = Buffer.alloc(12);
    block.writeUInt32LE(6, 0);
    block.writeUInt32LE(0x80000000, 4);
    refused(['dcbx', 'decode', '-'], /pcapng block length 2147483648 is over 16777216 bytes/, Buffer.concat([SHB, IDB, block, Buffer.alloc(8 * 1024 * 1024)]));
  });
});
