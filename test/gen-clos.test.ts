// `dcbkit gen clos`: the printed scenario validates and runs, has the fat tree's shape and the
// asked traffic pattern, is the same per seed, and bad flags exit 2 naming the flag.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { measureEngine } from '../bench/clos-engine.js';
import { benchClos } from '../host/sim/bench.js';
import { runCli } from './helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'dcbkit-gen-clos-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface Flow { src: string; dst: string }
const flowsOf = (yamlText: string): Flow[] => (parse(yamlText) as { traffic: { flows: Flow[] } }).traffic.flows;

describe('dcbkit gen clos', () => {
  it('prints a k = 4 fat tree that validate accepts and run runs without lossless drops', () => {
    const g = runCli(['gen', 'clos', '--k', '4', '--flows', '8', '--duration', '20us', '--seed', '7']);
    expect(g.status).toBe(0);
    const doc = parse(g.stdout) as { hosts: unknown[]; switches: unknown[]; links: unknown[]; seed: number; duration: string };
    expect([doc.hosts.length, doc.switches.length, doc.links.length]).toEqual([16, 20, 48]);
    expect([doc.seed, doc.duration]).toEqual([7, '20us']);
    const file = join(tmp, 'k4.yaml');
    writeFileSync(file, g.stdout);
    const v = runCli(['validate', file]);
    expect(v.status).toBe(0);
    // The lossless priority 3 has a TC of its own: no "TC mixes PFC and non-PFC priorities" warning.
    expect(v.stdout + v.stderr).not.toMatch(/warning/);
    const r = runCli(['run', file, '--json']);
    expect(r.status).toBe(0);
    const s = JSON.parse(r.stdout) as { flows: unknown[]; drops: { lossless: number }; sim: { packet_hops: number } };
    expect(s.flows).toHaveLength(8);
    expect(s.drops.lossless).toBe(0);
    expect(s.sim.packet_hops).toBeGreaterThan(100);
  });

  it('is the same per seed and differs between seeds', () => {
    const a = (seed: string) => runCli(['gen', 'clos', '--k', '4', '--flows', '6', '--duration', '5us', '--seed', seed]).stdout;
    expect(a('3')).toBe(a('3'));
    expect(flowsOf(a('3'))).not.toEqual(flowsOf(a('4')));
  });

  it('permutation: every host sends once and receives once, never to itself', () => {
    const f = flowsOf(runCli(['gen', 'clos', '--k', '4', '--flows', '16', '--duration', '5us', '--pattern', 'permutation']).stdout);
    expect(f).toHaveLength(16);
    expect(new Set(f.map((x) => x.src)).size).toBe(16);
    expect(new Set(f.map((x) => x.dst)).size).toBe(16);
    expect(f.every((x) => x.src !== x.dst)).toBe(true);
  });

  it('incast: distinct senders, one destination that is not a sender', () => {
    const f = flowsOf(runCli(['gen', 'clos', '--k', '4', '--flows', '15', '--duration', '5us', '--pattern', 'incast']).stdout);
    expect(new Set(f.map((x) => x.dst)).size).toBe(1);
    expect(new Set(f.map((x) => x.src)).size).toBe(15);
    expect(f.some((x) => x.src === f[0].dst)).toBe(false);
  });

  it('bad flags exit 2, each named with its rule, nothing printed', () => {
    const cases: [string[], RegExp][] = [
      [['--k', '5', '--flows', '2', '--duration', '5us'], /^--k: an even whole number/m],
      [['--k', '4', '--flows', '0', '--duration', '5us'], /^--flows: a whole number of flows/m],
      [['--k', '4', '--flows', '17', '--duration', '5us', '--pattern', 'permutation'], /^--flows: permutation allows at most 16 flows/m],
      // Random traffic is bounded too (64 a host, 10^6 in all): 10^11 flows used to run gen out of memory.
      [['--k', '4', '--flows', '1025', '--duration', '5us'], /^--flows: random allows at most 1024 flows on the 16 hosts/m],
      [['--k', '64', '--flows', '99999999999', '--duration', '5us'], /^--flows: random allows at most 1000000 flows/m],
      [['--k', '4', '--flows', '2', '--duration', '5us', '--pattern', 'ring'], /^--pattern: one of random, permutation, incast/m],
      [['--k', '4', '--flows', '2', '--duration', 'soon'], /^--duration: /m],
      [['--k', '4', '--flows', '2', '--duration', '5us', '--speed', 'fast'], /^--speed: /m],
      [['--k', '4', '--flows', '2', '--duration', '5us', '--seed', '-1'], /^--seed: /m],
    ];
    for (const [args, re] of cases) {
      const r = runCli(['gen', 'clos', ...args]);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(re);
    }
    // All at once, each line naming its flag.
    const all = runCli(['gen', 'clos', '--k', '3', '--flows', '0', '--duration', 'soon', '--speed', 'fast']);
    expect(all.stderr.trim().split('\n').map((l) => l.split(':')[0])).toEqual(['--k', '--flows', '--duration', '--speed']);
  });

  it('bench fabric_clos times the scenario gen clos prints: the same packet-hops as run of it', () => {
    const b = benchClos({ quick: true });
    const file = join(tmp, 'bench-k4.yaml');
    writeFileSync(file, runCli(['gen', 'clos', '--k', '4', '--flows', '16', '--duration', '200us']).stdout);
    const s = JSON.parse(runCli(['run', file, '--json']).stdout) as { sim: { packet_hops: number; events: number } };
    expect([b.k, b.packet_hops, b.events]).toEqual([4, s.sim.packet_hops, s.sim.events]);
    expect(b.packet_hops_per_s / (b.packet_hops / b.wall_s)).toBeCloseTo(1, 3);
  });

  it('the engine-only measurement (docs/sim.md) runs the same simulation as `run` and times only the engine', () => {
    const m = measureEngine(4, 16, '50us');
    const file = join(tmp, 'engine.yaml');
    writeFileSync(file, runCli(['gen', 'clos', '--k', '4', '--flows', '16', '--duration', '50us']).stdout);
    const s = JSON.parse(runCli(['run', file, '--json']).stdout) as { sim: { packet_hops: number; events: number } };
    expect([m.packet_hops, m.events]).toEqual([s.sim.packet_hops, s.sim.events]);
    expect(m.ns_per_event).toBeCloseTo((m.engine_s * 1e9) / m.events, 0);
    expect(m.engine_cpu_s).toBeGreaterThan(0);
    expect(m.ns_per_event_cpu).toBeCloseTo((m.engine_cpu_s * 1e9) / m.events, 0);
    expect(m.packet_hops_per_s).toBe(Math.round(m.packet_hops / m.engine_s));
  });
});
