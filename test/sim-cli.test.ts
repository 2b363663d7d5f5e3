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
    ['a flow between unconnected hosts', { ...base, hosts: [...base.hosts, { name: 'h3' }, { name: 'h4' }], links: [...base.links, { a: 'h3', b: 'h4' }], traffic: { flows: [{ src: 'h0', dst: 'h3', priority: 0 }] } }, /^traffic\.flows\[0\]: hosts h0 and h3 are not connected/m],
    ['a duration that is not a time', { ...base, duration: 'soon' }, /^duration: a time needs a unit: .*got "soon"/m],
  ];
  for (const [what, doc, rule] of bad) {
    it(`rejects ${what}: exit 2, path: rule, nothing written`, () => {
      const out = join(dir, `out-${what.replace(/\W+/g, '-')}`);
      const r = runCli(['run', file(`${what.replace(/\W+/g, '-')}.yaml`, doc), '--json', '--out', out]);
      expect(r.status).toBe(2);
      // --json: the same problems as one JSON document on stdout
      expect((JSON.parse(r.stdout) as { problems: { path: string; rule: string }[] }).problems.map((p) => `${p.path}: ${p.rule}\n`).join('')).toBe(r.stderr);
      expect(r.stderr).toMatch(rule);
      expect(existsSync(out)).toBe(false);
    });
  }

  it('says each problem once, however many nodes share the config that has it', () => {
    // base has 4 nodes using defaults.dcb: a parse per node used to print this line 4 times
    const doc = { ...base, defaults: { ...base.defaults, dcb: { ...base.defaults.dcb, ets: { ...base.defaults.dcb.ets, bw: [40, 30, 20, 0, 0, 0, 0, 0] } } } };
    const r = runCli(['run', file('bw90.yaml', doc), '--json']);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual(['defaults.dcb.ets.bw: bandwidths of ETS TCs sum to 90, must be 100']);
  });

  it('validate and run report the same problems: config rules and structure together', () => {
    const doc = {
      ...base,
      defaults: { ...base.defaults, dcb: { ...base.defaults.dcb, ets: { ...base.defaults.dcb.ets, bw: [40, 30, 20, 0, 0, 0, 0, 0] } } },
      links: [...base.links, { a: 'h2', b: 'nowhere' }],
      dcb_profiles: { unused: { pfc: { enable: [9] } } },
    };
    const f = file('both.yaml', doc);
    const run = runCli(['run', f, '--json']);
    const validate = runCli(['validate', f]);
    expect(run.status).toBe(2);
    expect(validate.status).toBe(2);
    expect(run.stderr).toMatch(/^defaults\.dcb\.ets\.bw: bandwidths of ETS TCs sum to 90, must be 100$/m);
    expect(run.stderr).toMatch(/^links\[3\]\.b: unknown node "nowhere"/m);
    expect(run.stderr).toMatch(/^dcb_profiles\.unused\.pfc\.enable/m);
    expect(validate.stderr).toBe(run.stderr);
  });

  it('names the incast sender or all-to-all pair a flow problem is about', () => {
    const apart = { ...base, hosts: [...base.hosts, { name: 'h3' }, { name: 'h4' }], links: [...base.links, { a: 'h3', b: 'h4' }] };
    const incast = runCli(['run', file('incast-apart.yaml', { ...apart, traffic: { incast: [{ senders: ['h0', 'h3'], dst: 'h2', priority: 3 }] } }), '--json']);
    expect(incast.status).toBe(2);
    expect(incast.stderr.trim().split('\n')).toEqual(['traffic.incast[0].senders[1]: hosts h3 and h2 are not connected']);
    const a2a = runCli(['run', file('a2a-apart.yaml', { ...apart, traffic: { all_to_all: [{ hosts: ['h0', 'h3'], priority: 0 }] } }), '--json']);
    expect(a2a.stderr.trim().split('\n')).toEqual([
      'traffic.all_to_all[0].hosts[0]->hosts[1]: hosts h0 and h3 are not connected',
      'traffic.all_to_all[0].hosts[1]->hosts[0]: hosts h3 and h0 are not connected',
    ]);
  });
});
