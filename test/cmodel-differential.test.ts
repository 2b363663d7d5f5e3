// Differential oracle of the C reference model (cmodel/): every vectors run on the Wasm core is
// recorded call by call (test/cmodel-trace.ts) and replayed on the C model, which must return the
// same value and leave the same bytes in every record after every call: so every output field of
// every JSON line, which the vectors command reads from those records, is the same. Inputs: every
// shipped stimulus in examples/vectors/, and 10^5 random events per kernel (test/cmodel-stimuli.ts).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Core, packageRoot } from '../host/core/loader.js';
import { parseOrThrow } from '../host/errors/problems.js';
import { vectorKernels } from '../host/vectors/index.js';
import { Rand, randomCredit, randomEts, randomPfc, randomQcnCp, randomQcnRp } from './cmodel-stimuli.js';
import { TracingCore, buildReplay, replay } from './cmodel-trace.js';
import { requireTool } from './helpers.js';

requireTool('gcc');
const model = buildReplay();
afterAll(() => model.dispose());
const layout = new Core('release');
const c = (n: string) => layout.constant(n);

/** Bytes of the scratch region a run of `kernel` touches: its records and the host's arrays. */
function regionOf(kernel: string, doc: Record<string, unknown>): number {
  switch (kernel) {
    case 'ets': return c('ETS_BYTES') + 32; // the record, then 8 head-of-line wire sizes
    case 'pfc': return c('PFC_SIZE') + 16; // the record, then the 8 u16 time fields of a received PFC frame
    case 'credit': {
      const flows = new Set((doc.events as { prio?: number; channel?: number }[]).map((e) => `${e.prio ?? 0}:${e.channel ?? 0}`));
      return Math.max(1, flows.size) * c('CREDIT_SIZE');
    }
    case 'qcn-cp': return Math.max(c('QCN_CP_SIZE'), c('DCQCN_CP_SIZE'));
    case 'qcn-rp': return c('QCN_RP_SIZE') + c('DCQCN_NP_SIZE');
  }
  throw new Error(`no region for ${kernel}`);
}

/** Runs the document on the traced core and on the C model; returns the number of calls compared. */
function differential(kernel: string, doc: Record<string, unknown>): number {
  const k = vectorKernels.find((v) => v.name === kernel)!;
  const core = new TracingCore(regionOf(kernel, doc));
  k.run(parseOrThrow(k.stimulus, doc), core);
  const got = replay(model.exe, core.trace);
  expect(got.length).toBe(core.results.length);
  const first = got.findIndex((g, i) => g !== core.results[i]);
  if (first >= 0) {
    const calls = core.trace.filter((l) => l.startsWith('c '));
    throw new Error(`${kernel}: call ${first} (${calls[first]}) gives "${got[first]}" (return, record hash) in C, "${core.results[first]}" in Wasm`);
  }
  return got.length;
}

const SHIPPED = join(packageRoot(), 'examples', 'vectors');
const KERNEL_OF = (file: string) => file.replace(/\.json$/, '').replace(/-(zero-bw|pause|msb|dcqcn)$/, '');

describe('C model vs Wasm core on every shipped vector', () => {
  const files = readdirSync(SHIPPED).filter((f) => f.endsWith('.json'));
  it('covers every kernel', () => {
    expect(new Set(files.map(KERNEL_OF))).toEqual(new Set(vectorKernels.map((k) => k.name)));
  });
  for (const f of files) {
    it(f, () => {
      const doc = JSON.parse(readFileSync(join(SHIPPED, f), 'utf8'));
      expect(differential(KERNEL_OF(f), doc)).toBeGreaterThan(0);
    });
  }
});

describe('C model vs Wasm core on 10^5 random events per kernel', () => {
  const EVENTS = 100_000;
  const DOCS = 10; // each with its own configuration
  const cases: [string, string, (r: Rand, n: number) => Record<string, unknown>][] = [
    ['ETS', 'ets', randomEts],
    ['PFC / PAUSE', 'pfc', randomPfc],
    ['credit', 'credit', randomCredit],
    ['QCN CP (qau-pc, linear and msb quantisers)', 'qcn-cp', (r, n) => randomQcnCp(r, n, r.chance(0.5) ? 'linear' : 'msb')],
    ['QCN RP (qau-pc)', 'qcn-rp', (r, n) => randomQcnRp(r, n, 'qau-pc')],
    ['DCQCN CP (ECN marking)', 'qcn-cp', (r, n) => randomQcnCp(r, n, 'dcqcn')],
    ['DCQCN RP and NP', 'qcn-rp', (r, n) => randomQcnRp(r, n, 'dcqcn')],
  ];
  cases.forEach(([title, kernel, make], i) => {
    it(title, () => {
      const r = new Rand(0xc0de + i);
      let calls = 0;
      let events = 0;
      for (let d = 0; d < DOCS; d++) {
        const doc = make(r, EVENTS / DOCS);
        events += (doc.events as unknown[]).length;
        calls += differential(kernel, doc);
      }
      expect(events).toBe(EVENTS);
      // ETS enqueues are the host's (classification); every other event is at least one call
      expect(calls).toBeGreaterThanOrEqual(kernel === 'ets' ? EVENTS / 3 : EVENTS);
    });
  });
});
