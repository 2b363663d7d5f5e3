// Issue 10 at the command line: runaway sweeps and runs are refused or capped with a clear
// message instead of killing Node, and the printed tables show what was asked for.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'dcbkit-hardening-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const tiny = 'test/fixtures/sweep-tiny.yaml';

describe('sweep --jobs', () => {
  it('caps 100 workers at the points, says so on stderr and in --json, and finishes', () => {
    const r = runCli(['sweep', tiny, '--param', 'seed=1,2,3', '--jobs', '100', '--json']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^note: --jobs 100 capped to [1-3]: /m);
    const out = JSON.parse(r.stdout);
    expect(out.jobs_capped).toMatchObject({ requested: 100 });
    expect(out.jobs_capped.used).toBeLessThanOrEqual(3);
    expect(out.points).toHaveLength(3);
  });

  it('prints the chosen --metric in the table', () => {
    const r = runCli(['sweep', tiny, '--param', 'seed=1,2', '--metric', 'pause_frames', '--metric', 'jain', '--jobs', '1']);
    expect(r.status, r.stderr).toBe(0);
    const head = r.stdout.split('\n')[0].trim().split(/\s+/);
    expect(head).toContain('pause_frames');
    expect(head).toContain('jain');
    expect(r.stderr).not.toMatch(/capped/);
  });
});
