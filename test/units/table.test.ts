// docs/units.md's table of spellings, row by row: each written form read as its kind gives the value
// the table states, or is refused with the suggestion it states. Then the same grammar at each place
// a user writes a quantity: a scenario, a config, a CLI flag.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { quantityCheck, type QuantityKind } from '../../host/units/grammar.js';
import { runCli } from '../helpers.js';

const doc = readFileSync(new URL('../../docs/units.md', import.meta.url), 'utf8');
const table = doc.slice(doc.indexOf('<!-- units-table:start -->'), doc.indexOf('<!-- units-table:end -->'));
const rows = table
  .split('\n')
  .filter((l) => l.startsWith('| `'))
  .map((l) => {
    const cells = l.split('|').slice(1, -1).map((c) => c.trim());
    return { written: cells[0].slice(1, -1), from: cells[1], kind: cells[2] as QuantityKind, reads: cells[3] };
  });

describe('docs/units.md spellings', () => {
  it('has rows of every kind, from tc, ns-3 and SONiC', () => {
    expect(new Set(rows.map((r) => r.kind))).toEqual(new Set(['rate', 'time', 'size', 'length']));
    for (const tool of ['tc', 'ns-3', 'SONiC', 'dcb']) expect(rows.some((r) => r.from.includes(tool))).toBe(true);
  });

  it.each(rows.map((r) => [r.written, r.kind, r.reads, r] as const))('%s as a %s: %s', (_w, _k, _r, row) => {
    const got = quantityCheck(row.kind, row.written);
    const refused = /^refused: (.*)$/.exec(row.reads);
    if (refused) {
      expect(got.value).toBeUndefined();
      expect(got.rule).toContain(refused[1]);
    } else {
      expect(got.rule).toBeUndefined();
      expect(got.value).toBe(Number(row.reads));
    }
  });
});

describe('one grammar at every input', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dcbkit-units-'));
  const scenario = (duration: string) => {
    const text = readFileSync(new URL('../../examples/sim-tiny/scenario.yaml', import.meta.url), 'utf8').replace(/^duration: .*$/m, `duration: ${duration}`);
    const f = join(dir, `tiny-${duration}.yaml`);
    writeFileSync(f, text);
    return f;
  };

  it('a scenario refuses duration: 0.02 with the rule and a did-you-mean; run exits 2 writing nothing', () => {
    const v = runCli(['validate', scenario('0.02')]);
    expect(v.status).toBe(2);
    expect(v.stderr).toContain('duration: a time needs a unit');
    expect(v.stderr).toContain('did you mean 0.02s?');
    const out = join(dir, 'run-out');
    const r = runCli(['run', scenario('0.02'), '--out', out]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
  });

  it('a config refuses a bare speed and cable, and takes tc and ns-3 spellings', () => {
    const bad = join(dir, 'bare.yaml');
    writeFileSync(bad, 'port: {speed: 100000, cable: 100}\n');
    const v = runCli(['validate', bad]);
    expect(v.status).toBe(2);
    expect(v.stderr).toContain('port.speed: a rate needs a unit');
    expect(v.stderr).toContain('did you mean 100G?');
    expect(v.stderr).toContain('port.cable:');
    expect(v.stderr).toContain('did you mean 100m?');
    const good = join(dir, 'tc.yaml');
    writeFileSync(good, 'port: {speed: 100Gbit, cable: 2km}\n');
    expect(runCli(['validate', good, '--json']).status).toBe(0);
  });

  it('CLI flags follow the same grammar: --cable 100, --max-memory 2000000, --duration 60', () => {
    const cable = runCli(['headroom', '--speed', '100Gbit', '--cable', '100']);
    expect(cable.status).toBe(2);
    expect(cable.stderr.trim()).toMatch(/^--cable: .*did you mean 100m\?$/);
    expect(runCli(['headroom', '--speed', '100Gbit', '--cable', '100m']).status).toBe(0);
    const mem = runCli(['run', 'examples/sim-tiny/scenario.yaml', '--max-memory', '2000000']);
    expect(mem.status).toBe(2);
    expect(mem.stderr).toContain('--max-memory: a size');
    const dcbx = runCli(['dcbx', 'negotiate', 'examples/configs/converged.json', 'examples/configs/converged.json', '--duration', '60']);
    expect(dcbx.status).toBe(2);
    expect(dcbx.stderr).toContain('--duration: a time needs a unit');
    expect(dcbx.stderr).toContain('did you mean 60s?');
    const gear = runCli(['headroom', '--speed', '100G', '--cable', '3m', '--profile', 'sonic', '--gearbox-delay', '40']);
    expect(gear.status).toBe(2);
    expect(gear.stderr).toContain('did you mean 40ns?');
  });
});
