// bench/htsim/compare.sh without htsim: its refusals of bad arguments, and the dcbkit half of the
// matched incast it writes, checked against what htsim (Broadcom/csg-htsim 841d9e7 with
// bench/htsim/packet-counter.patch) counted on the same 1 ms: the comparison is only valid while
// dcbkit delivers the frames htsim delivers (docs/bench.md, "Against htsim").
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../host/core/loader.js';
import { runCli } from './helpers.js';

const SCRIPT = join(packageRoot(), 'bench', 'htsim', 'compare.sh');
const dir = mkdtempSync(join(tmpdir(), 'dcbkit-bench-htsim-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function script(args: string[], env: Record<string, string> = {}) {
  // An unreachable repository and an empty cache: a refusal must come before any build is tried.
  const r = spawnSync('bash', [SCRIPT, ...args], {
    encoding: 'utf8', env: { ...process.env, HTSIM_REPO: join(dir, 'no-repo'), HTSIM_CACHE: join(dir, 'cache'), ...env },
  });
  return { status: r.status, stderr: r.stderr };
}

describe('bench/htsim/compare.sh', () => {
  it('refuses a bad run count, duration or --inputs with exit 2, naming the setting and the rule', () => {
    for (const [args, env, words] of [
      [['0'], {}, /RUNS must be a whole number from 1, got '0'/],
      [['two'], {}, /RUNS must be a whole number from 1, got 'two'/],
      [['1'], { DURATION_US: '1.5' }, /DURATION_US must be a whole number of microseconds from 1, got '1.5'/],
      [['1'], { DURATION_US: '2000001' }, /DURATION_US is at most 2000000 \(2 s: htsim's flows of 2 GB must not end\), got '2000001'/],
      [['--inputs'], {}, /--inputs needs a directory/],
    ] as const) {
      const r = script([...args], env);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(words);
      expect(existsSync(join(dir, 'cache'))).toBe(false);
    }
  });

  it("writes inputs on which dcbkit delivers htsim's 7,975 frames in 1 ms and carries its data and ACK frames", () => {
    const inputs = join(dir, 'inputs');
    expect(script(['--inputs', inputs], { DURATION_US: '1000' }).status).toBe(0);
    const topo = readFileSync(join(inputs, 'incast.topo'), 'utf8');
    expect(topo).toMatch(/^Nodes 17$/m);
    expect(readFileSync(join(inputs, 'incast.cm'), 'utf8').trim().split('\n')).toHaveLength(2 + 16);
    const r = runCli(['run', join(inputs, 'incast.json'), '--json']);
    expect(r.status, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout);
    // htsim 841d9e7, -end 1000 with the script's arguments: "dcbkit-count hops 32232 data 16306
    // ack 15926 nack 0 delivered 7975" (1 ms of 1564-B frames at 100 Gb/s is 7,992 frame times).
    const delivered = s.flows.reduce((n: number, f: { bytes_delivered: number }) => n + f.bytes_delivered, 0) / 1544;
    expect(delivered).toBe(7975);
    expect(s.drops.lossless).toBe(0);
    expect(s.flows.every((f: { nacks: number; timeouts: number }) => f.nacks === 0 && f.timeouts === 0)).toBe(true);
    // dcbkit counts its PFC frames as hops and a hop at the frame's start (htsim: at the far end
    // of a 1-us link, where up to 8 frames of 125 ns are still on the wire per busy link).
    const dataAndAcks = s.sim.packet_hops - s.pfc.pause_frames;
    expect(dataAndAcks).toBeGreaterThanOrEqual(32232);
    expect(dataAndAcks - 32232).toBeLessThanOrEqual(17 * 2 * 8);
  });
});
