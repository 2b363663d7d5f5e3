// `dcbkit run`: JSON summary on stdout, and bad scenarios -> exit 2 with `path: rule`, nothing written.
import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { runCli } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'dcbkit-sim-'));
const base = {
  name: 'cli', duration: '20us',
  defaults: {
    link: { speed: '100G', cable: '10m' }, buffer: { size: '1MB', headroom: 'auto' },
    dcb: { ets: { prio_tc: [0, 0, 1, 1, 2, 2, 3, 3], tsa: ['ets', 'ets', 'ets', 'strict', 'strict', 'strict', 'strict', 'strict'], bw: [40, 40, 20, 0, 0, 0, 0, 0] }, pfc: { enable: [3] } },
  },
  hosts: [{ name: 'h0' }, { name: 'h1' }, { name: 'h2' }],
  switches: [{ name: 'sw' }],
  links: [{ a: 'h0', b: 'sw' }, { a: 'h1', b: 'sw' }, { a: 'h2', b: 'sw' }],
  traffic: { incast: [{ senders: ['h0', 'h1'], dst: 'h2', priority: 3 }] },
};
function file(name: string, doc: unknown): string {
  const p = join(dir, name);
  writeFileSync(p, stringify(doc));
  return p;
}

describe('dcbkit run', () => {
  it('--json prints the summary with the contract keys', () => {
    const r = runCli(['run', file('ok.yaml', base), '--json']);
    expect(r.status).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(s.sim.packet_hops_per_s).toBeGreaterThan(0);
    expect(s.drops.lossless).toBe(0);
    expect('max_share_error_pp' in s.ets).toBe(true);
    expect(s.flows).toHaveLength(2);
  });

  it('--out writes summary.json', () => {
    const out = join(dir, 'out-ok');
    const r = runCli(['run', file('ok2.yaml', base), '--out', out]);
    expect(r.status).toBe(0);
    expect(existsSync(join(out, 'summary.json'))).toBe(true);
  });

  const bad: [string, unknown, RegExp][] = [
    ['a link to an unknown node', { ...base, links: [...base.links, { a: 'h2', b: 'nowhere' }] }, /^links\[3\]\.b: unknown node "nowhere"/m],
    ['a priority mapped to no TC', { ...base, defaults: { ...base.defaults, dcb: { ...base.defaults.dcb, ets: { ...base.defaults.dcb.ets, prio_tc: [0, 0, 1, 1, 2, 2, 3] } } } }, /^defaults\.dcb\.ets\.prio_tc: /m],
    ['a buffer smaller than its headroom', { ...base, defaults: { ...base.defaults, buffer: { size: '100KB', headroom: 'auto' } } }, /^defaults\.buffer\.size: the buffer \(100000 B\) is smaller than the headroom/m],
    ['a flow between unconnected hosts', { ...base, hosts: [...base.hosts, { name: 'h3' }, { name: 'h4' }], links: [...base.links, { a: 'h3', b: 'h4' }], traffic: { flows: [{ src: 'h0', dst: 'h3', priority: 0 }] } }, /^traffic: hosts h0 and h3 are not connected/m],
    ['a duration that is not a time', { ...base, duration: 'soon' }, /^duration: a time must look like/m],
  ];
  for (const [what, doc, rule] of bad) {
    it(`rejects ${what}: exit 2, path: rule, nothing written`, () => {
      const out = join(dir, `out-${what.replace(/\W+/g, '-')}`);
      const r = runCli(['run', file(`${what.replace(/\W+/g, '-')}.yaml`, doc), '--json', '--out', out]);
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(rule);
      expect(existsSync(out)).toBe(false);
    });
  }
});
