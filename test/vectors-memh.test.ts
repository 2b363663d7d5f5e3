// `dcbkit vectors KERNEL --format memh` (host/vectors/memh.ts): every word of every shipped vector
// set decodes, with the manifest alone, back to its JSON line (text-identical) and to its stimulus
// event; the packing is checked bit by bit on a hand-worked ETS word; bad flags and values that have
// no word form exit 2 and write nothing.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateMemh, generateVectors } from '../host/commands/vectors.js';
import { packageRoot } from '../host/core/loader.js';
import { decodeWord, type WordLayout } from '../host/vectors/memh.js';
import { Rand, randomCredit, randomEts, randomPfc, randomQcnCp, randomQcnRp } from './cmodel-stimuli.js';
import { runCli } from './helpers.js';

const SHIPPED = join(packageRoot(), 'examples', 'vectors');
const kernelOf = (file: string) => file.replace(/\.json$/, '').replace(/-(zero-bw|pause|msb|dcqcn)$/, '');
const tmp = mkdtempSync(join(tmpdir(), 'dcbkit-memh-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const words = (text: string) => text.split('\n').filter((l) => l.length > 0);

describe('memh words decode back to the JSON lines', () => {
  for (const f of readdirSync(SHIPPED).filter((x) => x.endsWith('.json'))) {
    it(f, () => {
      const stimulus = JSON.parse(readFileSync(join(SHIPPED, f), 'utf8'));
      const kernel = kernelOf(f);
      const files = generateMemh(kernel, stimulus);
      const manifest = JSON.parse(files.get('manifest.json')!) as { kernel: string; stimulus: WordLayout; expected: WordLayout; config_word: WordLayout };
      expect(manifest.kernel).toBe(kernel);
      const lines = generateVectors(kernel, stimulus);
      const expected = words(files.get('expected.memh')!);
      expect(expected.length).toBe(lines.length);
      expected.forEach((w, i) => {
        expect(w.length).toBe(Math.ceil(manifest.expected.word_bits / 4));
        expect(JSON.stringify(decodeWord(manifest.expected, w))).toBe(JSON.stringify(lines[i]));
      });
      const events = words(files.get('stimulus.memh')!);
      expect(events.length).toBe(stimulus.events.length);
      // the stimulus word holds the validated event (defaults filled): compare values, not key order
      events.forEach((w, i) => {
        const decoded = decodeWord(manifest.stimulus, w);
        for (const [k, v] of Object.entries(stimulus.events[i])) {
          expect(decoded[k], `event ${i}.${k}`).toEqual(k === 'tcs' ? [...new Set(v as number[])].sort() : v);
        }
      });
      expect(words(files.get('config.memh')!)).toHaveLength(1);
      expect(files.get(`dcbkit_${kernel.replace(/-/g, '_')}_pkg.sv`)).toMatch(/^package dcbkit_\w+_pkg;/m);
    });
  }
});

describe('memh words decode back to the JSON lines of random stimuli', () => {
  // negative values, nulls, missing keys and every event type, in random configurations
  const cases: [string, string, (r: Rand) => Record<string, unknown>][] = [
    ['ets', 'ets', (r) => randomEts(r, 400)],
    ['pfc', 'pfc', (r) => randomPfc(r, 400)],
    ['credit', 'credit', (r) => randomCredit(r, 400)],
    ['qcn-cp (qau-pc)', 'qcn-cp', (r) => randomQcnCp(r, 400, r.chance(0.5) ? 'linear' : 'msb')],
    ['qcn-cp (dcqcn)', 'qcn-cp', (r) => randomQcnCp(r, 400, 'dcqcn')],
    ['qcn-rp (qau-pc)', 'qcn-rp', (r) => randomQcnRp(r, 400, 'qau-pc')],
    ['qcn-rp (dcqcn)', 'qcn-rp', (r) => randomQcnRp(r, 400, 'dcqcn')],
  ];
  cases.forEach(([title, kernel, make], i) => {
    it(title, () => {
      const r = new Rand(0x3e3 + i);
      for (let d = 0; d < 5; d++) {
        const stimulus = make(r);
        const files = generateMemh(kernel, stimulus);
        const manifest = JSON.parse(files.get('manifest.json')!) as { expected: WordLayout };
        const lines = generateVectors(kernel, stimulus);
        const expected = words(files.get('expected.memh')!);
        expect(expected.length).toBe(lines.length);
        expected.forEach((w, k) => expect(JSON.stringify(decodeWord(manifest.expected, w)), `line ${k}`).toBe(JSON.stringify(lines[k])));
      }
    });
  });
});

describe('memh packing', () => {
  it('an ETS tx line, field by field', () => {
    const files = generateMemh('ets', {
      max_frame: 1518,
      ets: { prio_tc: [0, 0, 1, 1, 2, 2, 3, 3], tsa: ['ets', 'ets', 'ets', 'strict', 'strict', 'strict', 'strict', 'strict'], bw: [40, 40, 20, 0, 0, 0, 0, 0] },
      events: [{ type: 'enq', prio: 2, bytes: 1000 }, { type: 'enq', prio: 2, bytes: 64 }, { type: 'tx' }, { type: 'block', tcs: [3, 0] }],
    });
    const m = JSON.parse(files.get('manifest.json')!) as { expected: WordLayout; stimulus: WordLayout; config: unknown };
    const at = (l: WordLayout, name: string) => l.fields.find((x) => x.name === name)!;
    // fields follow each other from bit 0: type (2), tc_valid (1), tc (3), bytes (16), cur (3), deficit[0..7] (24 each)
    expect(['type', 'tc_valid', 'tc', 'bytes', 'cur', 'deficit[0]', 'deficit[1]'].map((n) => at(m.expected, n).lsb)).toEqual([0, 2, 3, 6, 22, 25, 49]);
    expect(at(m.expected, 'type').enum).toEqual({ enq: 0, tx: 1, block: 2 });
    // tx of the 1000-byte frame of TC 1 (a 64-byte one stays queued): quantum 40 x ceil(1538 / 20) = 3080,
    // deficit 3080 - 1020 = 2060
    const w = BigInt(`0x${words(files.get('expected.memh')!)[2]}`);
    const field = (n: string) => Number((w >> BigInt(at(m.expected, n).lsb)) & ((1n << BigInt(at(m.expected, n).width)) - 1n));
    expect([field('type'), field('tc_valid'), field('tc'), field('bytes'), field('cur'), field('deficit[1]')]).toEqual([1, 1, 1, 1000, 1, 2060]);
    // the block event: tcs [3, 0] is the mask 0b1001, below it its _valid bit
    const s = BigInt(`0x${words(files.get('stimulus.memh')!)[3]}`);
    expect(Number((s >> BigInt(at(m.stimulus, 'tcs').lsb)) & 0xffn)).toBe(0b1001);
    expect(decodeWord(m.stimulus, words(files.get('stimulus.memh')!)[3])).toEqual({ type: 'block', tcs: [0, 3] });
    expect(m.config).toMatchObject({ max_frame: 1518, bw: [40, 40, 20, 0, 0, 0, 0, 0] });
  });
});

describe('vectors --format memh on the command line', () => {
  const stim = join(SHIPPED, 'ets.json');
  it('writes the vectors, the package, the decoder and the replay Makefile', () => {
    const out = join(tmp, 'ets');
    const r = runCli(['vectors', 'ets', '--stimulus', stim, '--format', 'memh', '--out', out]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['Makefile', 'config.memh', 'dcbkit_ets_pkg.sv', 'decode_memh.py', 'expected.memh', 'manifest.json', 'stimulus.memh']);
    expect(r.stdout).toBe('');
  });
  it('bad flags and unpackable values: exit 2, one line naming the flag or field, nothing written', () => {
    const cases: [string[], RegExp][] = [
      [['--format', 'memh'], /^--out: --format memh writes a directory/],
      [['--format', 'hex', '--out', join(tmp, 'x1')], /^--format: must be jsonl or memh, got "hex"/],
      [['--out', join(tmp, 'x2')], /^--out: only with --format memh/],
    ];
    for (const [flags, msg] of cases) {
      const r = runCli(['vectors', 'ets', '--stimulus', stim, ...flags]);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(msg);
      expect(r.stdout).toBe('');
    }
    const named = join(tmp, 'named.json');
    writeFileSync(named, JSON.stringify({ events: [{ type: 'enq', bytes: 100, src: '02:00:00:00:00:01' }] }));
    const r = runCli(['vectors', 'qcn-cp', '--stimulus', named, '--format', 'memh', '--out', join(tmp, 'x3')]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^events\[0\]\.src: a memh word holds integers only/);
    expect(existsSync(join(tmp, 'x3'))).toBe(false);
  });
});
