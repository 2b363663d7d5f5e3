// `dcbkit bench --quick --json`: the report's shape (DESIGN.md §5). Never a time: speed is
// reported by the command, not asserted by tests.
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers.js';

const numOrNull = (x: unknown) => x === null || (typeof x === 'number' && Number.isFinite(x) && x > 0);

describe('dcbkit bench --quick --json', () => {
  it('prints one JSON document with pipeline, kernels and versions', () => {
    const r = runCli(['bench', '--quick', '--json']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const rep = JSON.parse(lines[0]);
    for (const k of ['ns_per_packet', 'c_ns_per_packet', 'ratio_wasm_c', 'instructions_per_packet']) {
      expect(rep.pipeline).toHaveProperty(k);
      expect(numOrNull(rep.pipeline[k])).toBe(true);
    }
    // A null instruction count always comes with its reason.
    if (rep.pipeline.instructions_per_packet === null) expect(typeof rep.pipeline.instructions_reason).toBe('string');
    expect(Object.keys(rep.kernels)).toEqual(['ets_dwrr_select', 'pfc_accounting', 'pfc_accounting_only', 'credit_send', 'qcn_cp_packet']);
    const dwrr = rep.kernels.ets_dwrr_select;
    expect(typeof dwrr.ns_per_op).toBe('number');
    expect(dwrr.samples).toBeGreaterThan(0);
    expect(typeof dwrr.rme_pct).toBe('number');
    for (const k of Object.values(rep.kernels) as { ns_per_op: number | null; reason?: string }[]) {
      if (k.ns_per_op === null) expect(typeof k.reason).toBe('string');
    }
    for (const v of ['node', 'v8', 'assemblyscript', 'gcc', 'cpu']) expect(rep.versions).toHaveProperty(v);
    expect(rep.versions.node).toBe(process.versions.node);
    expect(rep.method.quick).toBe(true);
  });

  it('prints a human table without --json', () => {
    const r = runCli(['bench', '--quick']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^port pipeline: /);
    expect(r.stdout).toMatch(/ets_dwrr_select: [\d.]+ ns\/op p50/);
  });
});
