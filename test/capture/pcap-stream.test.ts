// host/capture/pcap-stream.ts: a capture cut into arbitrary chunks, as a pipe delivers it, gives the records,
// warnings and errors the file readers give for the same bytes (pcap in both byte orders and
// resolutions, pcapng from editcap), and a stream that stops inside a record is a typed error.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeFrame } from '../../host/frames/index.js';
import { DecodeError } from '../../host/frames/bytes.js';
import { readCapture, writePcap } from '../../host/capture/pcap.js';
import { CaptureStream } from '../../host/capture/pcap-stream.js';
import { controlFrameArb } from '../frames/arbitraries.js';
import { requireTool } from '../helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'dcbkit-pcapstream-'));
const records = fc.sample(controlFrameArb, { seed: 7, numRuns: 12 }).map((f, i) => ({ t_ps: BigInt(i) * 1_000_123_000n, data: encodeFrame(f) }));
const pcap = writePcap(records);

function editcap(format: string, bytes: Uint8Array, extra: string[] = []): Uint8Array {
  const src = join(dir, `in-${format}.pcap`);
  const out = join(dir, `out-${format}`);
  writeFileSync(src, bytes);
  const r = spawnSync(requireTool('editcap'), [...extra, '-F', format, src, out], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return readFileSync(out);
}

/** Feeds `bytes` cut at `cuts` (sorted offsets); returns what came out, or the error. */
function streamed(bytes: Uint8Array, cuts: number[]) {
  const s = new CaptureStream();
  const out = [];
  let at = 0;
  try {
    for (const c of [...cuts, bytes.length]) {
      out.push(...s.push(bytes.subarray(at, c)));
      at = c;
    }
    s.end();
  } catch (e) {
    if (e instanceof DecodeError) return { error: { code: e.code, offset: e.offset } };
    throw e;
  }
  return { records: out.map((r) => ({ t_ps: r.t_ps, data: [...r.data] })), warnings: s.warnings };
}
function fromFile(bytes: Uint8Array) {
  try {
    const c = readCapture(bytes);
    return { records: c.records.map((r) => ({ t_ps: r.t_ps, data: [...r.data] })), warnings: c.warnings };
  } catch (e) {
    if (e instanceof DecodeError) return { error: { code: e.code, offset: e.offset } };
    throw e;
  }
}
const cutsOf = (len: number) => fc.uniqueArray(fc.integer({ min: 0, max: len }), { maxLength: 12 }).map((a) => a.sort((x, y) => x - y));

describe('CaptureStream', () => {
  const inputs: [string, () => Uint8Array][] = [
    ['pcap (ns, little-endian, as dcbkit writes)', () => pcap],
    ['pcap (us, via editcap)', () => editcap('pcap', pcap)],
    ['pcapng (editcap)', () => editcap('pcapng', pcap)],
  ];
  for (const [name, make] of inputs) {
    it(`${name}: any chunking gives the file reader's records`, () => {
      const bytes = make();
      const want = fromFile(bytes);
      expect(want.records).toHaveLength(records.length);
      fc.assert(fc.property(cutsOf(bytes.length), (cuts) => {
        expect(streamed(bytes, cuts)).toEqual(want);
      }), { numRuns: 60, seed: 3 });
    });
  }

  it('a stream that stops inside a record, or before the header, is a truncated error at its start', () => {
    const bytes = editcap('pcapng', pcap);
    for (const cut of [2, 30, bytes.length - 5]) {
      const r = streamed(bytes.subarray(0, cut), []);
      expect(r.error?.code).toBe('truncated');
    }
    expect(streamed(pcap.subarray(0, 24 + 16 + 3), [10, 30]).error).toEqual({ code: 'truncated', offset: 24 });
  });

  it('damage gives the error the file reader gives (a length that runs past the end: at its record)', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: pcap.length - 1 }), fc.integer({ min: 0, max: 255 }), cutsOf(pcap.length), (at, value, cuts) => {
      const bytes = Uint8Array.from(pcap);
      bytes[at] = value;
      const file = fromFile(bytes);
      const s = streamed(bytes, cuts);
      if (!file.error) {
        expect(s).toEqual(file);
        return;
      }
      // a stream cannot tell a too-long record from one still arriving until it ends (the file
      // reader may instead trip over what follows): it then names that record's first byte, which
      // is at or before the byte the file reader names; at the same byte, the same error
      expect(s.error).toBeDefined();
      expect(s.error!.offset).toBeLessThanOrEqual(file.error.offset);
      if (s.error!.offset === file.error.offset) expect(s.error).toEqual(file.error);
      else expect(s.error!.code).toBe('truncated');
    }), { numRuns: 200, seed: 11 });
  });
});
