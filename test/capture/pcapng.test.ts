// pcapng input for `dcbx decode` (host/capture/pcapng.ts via readCapture in host/capture/pcap.ts): files made by
// editcap/mergecap from the pcaps dcbkit writes decode like those pcaps; hand-built files cover
// several sections in both byte orders, several interfaces and link types, the timestamp
// resolutions and the simple packet block, cross-checked with tshark; malformed files end in a
// DecodeError (exit 2 at the CLI) and the reader survives 10^5 fuzzed inputs.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeFrame } from '../../host/frames/index.js';
import { toHex } from '../../host/frames/bytes.js';
import { readCapture, writePcap } from '../../host/capture/pcap.js';
import { readPcapng } from '../../host/capture/pcapng.js';
import { controlFrameArb } from '../frames/arbitraries.js';
import { fuzzDecoder } from '../fuzz.js';
import { errorOf, requireTool, runCli } from '../helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'dcbkit-pcapng-'));
const file = (name: string, bytes?: Uint8Array) => {
  const p = join(dir, name);
  if (bytes) writeFileSync(p, bytes);
  return p;
};
const run = (cmd: string, args: string[]) => {
  const r = spawnSync(requireTool(cmd), args, { encoding: 'utf8' });
  expect(r.status, `${cmd} ${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r.stdout;
};
const frames = fc.sample(controlFrameArb, { seed: 42, numRuns: 6 }).map((f) => encodeFrame(f));

// --- a minimal pcapng writer for the hand-built cases -------------------------------------------

class Builder {
  private readonly parts: Uint8Array[] = [];
  constructor(private le = true) {}
  block(type: number, body: Uint8Array): this {
    const padded = (body.length + 3) & ~3;
    const out = new Uint8Array(12 + padded);
    const v = new DataView(out.buffer);
    v.setUint32(0, type, this.le);
    v.setUint32(4, out.length, this.le);
    out.set(body, 8);
    v.setUint32(out.length - 4, out.length, this.le);
    this.parts.push(out);
    return this;
  }
  private fields(spec: [number, 2 | 4 | 8][], extra: Uint8Array[] = []): Uint8Array {
    const size = spec.reduce((s, [, n]) => s + n, 0);
    const out = new Uint8Array(size + extra.reduce((s, e) => s + ((e.length + 3) & ~3), 0));
    const v = new DataView(out.buffer);
    let at = 0;
    for (const [value, n] of spec) {
      if (n === 2) v.setUint16(at, value, this.le);
      else if (n === 4) v.setUint32(at, value, this.le);
      else v.setBigInt64(at, BigInt(value), this.le);
      at += n;
    }
    for (const e of extra) {
      out.set(e, at);
      at += (e.length + 3) & ~3;
    }
    return out;
  }
  private option(code: number, value: Uint8Array): Uint8Array {
    const head = this.fields([[code, 2], [value.length, 2]]);
    const out = new Uint8Array(4 + value.length);
    out.set(head);
    out.set(value, 4);
    return out;
  }
  /** Section header; the byte order of this and the following blocks changes to `le`. */
  section(le: boolean): this {
    this.le = le;
    return this.block(0x0a0d0d0a, this.fields([[0x1a2b3c4d, 4], [1, 2], [0, 2], [-1, 8]]));
  }
  iface(linkType: number, tsresol?: number): this {
    const opts = tsresol === undefined ? [] : [this.option(9, Uint8Array.of(tsresol)), this.fields([[0, 2], [0, 2]])];
    return this.block(1, this.fields([[linkType, 2], [0, 2], [262144, 4]], opts));
  }
  packet(ifc: number, units: bigint, data: Uint8Array): this {
    return this.block(6, this.fields([[ifc, 4], [Number(units >> 32n), 4], [Number(units & 0xffffffffn), 4], [data.length, 4], [data.length, 4]], [data]));
  }
  /** obsolete Packet Block (type 2): interface id u16, drops u16, then as an enhanced packet block */
  obsolete(ifc: number, units: bigint, data: Uint8Array): this {
    return this.block(2, this.fields([[ifc, 2], [0, 2], [Number(units >> 32n), 4], [Number(units & 0xffffffffn), 4], [data.length, 4], [data.length, 4]], [data]));
  }
  simple(data: Uint8Array): this {
    return this.block(3, this.fields([[data.length, 4]], [data]));
  }
  bytes(): Uint8Array {
    const out = new Uint8Array(this.parts.reduce((s, p) => s + p.length, 0));
    let at = 0;
    for (const p of this.parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }
}

/** Two sections (little-, then big-endian), three interfaces in the first, a name resolution block. */
function mixedCapture(): Uint8Array {
  return new Builder()
    .section(true)
    .iface(1, 9) // Ethernet, ns
    .iface(101, 6) // raw IP: skipped
    .iface(1, 0x80 | 20) // Ethernet, 2^-20 s
    .packet(0, 1_500_000_000_123n, frames[0]) // 1500.000000123 s
    .packet(1, 7n, Uint8Array.of(0x45, 0, 0, 20))
    .block(4, new Uint8Array(4)) // name resolution block (end of records only): passed over
    .packet(2, 3n * 2n ** 20n + 1n, frames[1]) // 3 s + 2^-20 s = 3.000000953674... s
    .packet(1, 8n, Uint8Array.of(0x45, 0, 0, 20))
    .section(false)
    .iface(1) // default resolution 10^-6
    .packet(0, 2_000_001n, frames[2]) // 2.000001 s
    .simple(frames[3]) // no timestamp
    .bytes();
}

describe('pcapng input', () => {
  it('pcaps dcbkit writes, converted by editcap -F pcapng, decode to the same JSON', () => {
    const negotiated = file('negotiate.pcap');
    expect(runCli(['dcbx', 'negotiate', 'examples/configs/roce.yaml', 'examples/configs/converged.yaml', '--pcap', negotiated]).status).toBe(0);
    const pfc = file('pfc.pcap', writePcap(frames.map((data, i) => ({ t_ps: 1_000_000_123_000n * BigInt(i + 1), data }))));
    for (const pcap of [negotiated, pfc]) {
      const ng = `${pcap}ng`;
      run('editcap', ['-F', 'pcapng', pcap, ng]);
      expect(toHex(readFileSync(ng).subarray(0, 4))).toBe('0a0d0d0a');
      const fromPcap = runCli(['dcbx', 'decode', pcap, '--json']);
      const fromPcapng = runCli(['dcbx', 'decode', ng, '--json']);
      expect(fromPcap.status).toBe(0);
      expect(fromPcapng.stderr).toBe('');
      expect(fromPcapng.status).toBe(0);
      expect(fromPcapng.stdout.split('\n').length).toBeGreaterThan(frames.length);
      expect(fromPcapng.stdout).toBe(fromPcap.stdout);
    }
  });

  it('mergecap of an Ethernet and a raw-IP capture: the Ethernet frames decode, the others are named in a warning', () => {
    const eth = file('eth.pcap', writePcap(frames.slice(0, 3).map((data, i) => ({ t_ps: BigInt(i * 2 + 1) * 1_000_000_000n, data }))));
    const raw = file('raw.pcap');
    // same records, relabelled as raw IP (link type 101) by editcap
    run('editcap', ['-T', 'rawip', file('eth-src.pcap', writePcap([{ t_ps: 2_000_000_000n, data: frames[4] }, { t_ps: 4_000_000_000n, data: frames[5] }])), raw]);
    const merged = file('merged.pcapng');
    run('mergecap', ['-F', 'pcapng', '-w', merged, eth, raw]);
    const r = runCli(['dcbx', 'decode', merged, '--json']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe('warning: pcapng section 0 interface 1: link type 101 is not Ethernet (1): 2 packet(s) skipped\n');
    expect(r.stdout).toBe(runCli(['dcbx', 'decode', eth, '--json']).stdout);
  });

  it('several sections in both byte orders, interfaces, resolutions and a simple packet block; tshark agrees', () => {
    const bytes = mixedCapture();
    const { records, warnings } = readCapture(bytes);
    expect(records.map((r) => r.t_ps)).toEqual([1_500_000_000_123_000n, 3_000_000_953_674n, 2_000_001_000_000n, undefined]);
    expect(records.map((r) => toHex(r.data))).toEqual(frames.slice(0, 4).map(toHex));
    expect(warnings).toEqual([{ path: 'pcapng section 0 interface 1', rule: 'link type 101 is not Ethernet (1): 2 packet(s) skipped' }]);
    // tshark reads the same file: 6 packets, the 4 Ethernet ones with our bytes and times (ns)
    const p = file('mixed.pcapng', bytes);
    const rows = run('tshark', ['-r', p, '-T', 'fields', '-e', 'frame.time_epoch', '-e', 'frame.len', '-e', 'eth.type']).trim().split('\n').map((l) => l.split('\t'));
    expect(rows).toHaveLength(6);
    const ethRows = rows.filter((row) => row[2] !== '');
    expect(ethRows.map((row) => Number(row[1]))).toEqual(records.map((r) => r.data.length));
    expect(ethRows.slice(0, 3).map((row) => row[0])).toEqual(['1500.000000123', '3.000000953', '2.000001000']);
    const cli = runCli(['dcbx', 'decode', p, '--json']);
    expect(cli.status).toBe(0);
    const lines = cli.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.frame, l.t_ps])).toEqual([[0, 1_500_000_000_123_000], [1, 3_000_000_953_674], [2, 2_000_001_000_000], [3, undefined]]);
  });

  it('reads the obsolete packet block like an enhanced one (big-endian here)', () => {
    const bytes = new Builder().section(false).iface(101).iface(1, 9).obsolete(1, 42n, frames[4]).obsolete(0, 43n, frames[5]).bytes();
    const { records, warnings } = readCapture(bytes);
    expect(records).toEqual([{ t_ps: 42_000n, data: frames[4], orig_len: frames[4].length }]);
    expect(warnings).toEqual([{ path: 'pcapng section 0 interface 0', rule: 'link type 101 is not Ethernet (1): 1 packet(s) skipped' }]);
    const rows = run('tshark', ['-r', file('obsolete.pcapng', bytes), '-T', 'fields', '-e', 'frame.time_epoch', '-e', 'frame.len']).trim().split('\n');
    expect(rows[0]).toBe(`0.000000042\t${frames[4].length}`);
  });

  it('malformed files end in a DecodeError naming the byte, and exit 2 at the CLI', () => {
    const good = mixedCapture();
    const set32 = (b: Uint8Array, at: number, value: number, le = true) => {
      const c = b.slice();
      new DataView(c.buffer).setUint32(at, value, le);
      return c;
    };
    const cases: [string, Uint8Array, string, number][] = [
      // the last block (the simple packet block) starts 16 + padded data bytes before the end
      ['truncated', good.subarray(0, good.length - 2), 'truncated', good.length - (16 + ((frames[3].length + 3) & ~3))],
      ['block length not a multiple of 4', set32(good, 4, 30), 'bad_length', 4],
      ['trailing length differs', set32(good, 24, 0), 'bad_length', 24],
      ['bad byte-order magic', set32(good, 8, 0x12345678), 'bad_value', 8],
      ['packet of an interface not described', new Builder().section(true).packet(0, 0n, frames[0]).bytes(), 'bad_value', 36],
    ];
    for (const [name, bytes, code, offset] of cases) {
      expect(errorOf(() => readCapture(bytes)), name).toMatchObject({ code, offset });
    }
    // readCapture sends a file not opening with a section header to the classic pcap reader
    expect(errorOf(() => readPcapng(new Builder().iface(1).iface(1).bytes()))).toMatchObject({ code: 'wrong_type', offset: 0 });
    expect(errorOf(() => readCapture(new Uint8Array(24)))).toMatchObject({ code: 'wrong_type', offset: 0, message: 'magic 0x0 is neither a classic pcap nor a pcapng file' });
    const r = runCli(['dcbx', 'decode', file('bad.pcapng', set32(good, 4, 30)), '--json']);
    expect(r.status).toBe(2);
    // the message says what is wrong at which byte (the code bad_length is for programs); --json puts it on stdout too
    expect(r.stderr).toBe('pcap: byte 4: pcapng block length 30 is not a multiple of 4 of at least 12\n');
    expect(JSON.parse(r.stdout)).toEqual({ problems: [{ path: 'pcap', rule: 'byte 4: pcapng block length 30 is not a multiple of 4 of at least 12' }] });
  });

  it('survives 10^5 fuzzed inputs: only DecodeErrors, and it returns', () => {
    const seeds = [
      mixedCapture(),
      new Builder(false).section(false).iface(1, 9).packet(0, 5n, frames[5]).simple(frames[4]).bytes(),
      new Builder().section(true).iface(1, 0x80 | 10).obsolete(0, 7n, frames[3]).bytes(),
    ];
    const s = fuzzDecoder(seeds, readCapture, null, { runs: 100_000, seed: 11, maxLen: 400 });
    expect(s.accepted).toBeGreaterThan(0);
    expect(s.errors.size).toBeGreaterThan(2);
  }, 60_000);
});
