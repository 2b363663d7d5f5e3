// docs/rtl.md quotes the reference RTL's synthesis figures (cells, flip-flops, logic depth) that
// scripts/rtl-cost.mjs gets from Yosys; this fails when the page no longer matches what Yosys gives
// for today's rtl/*.sv (run `node scripts/rtl-cost.mjs` to update it).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../host/core/loader.js';
import { requireTool } from './helpers.js';

requireTool('yosys');

describe('synthesis figures in docs/rtl.md', () => {
  it('are what Yosys gives for the reference RTL today', () => {
    const r = spawnSync(process.execPath, [join(packageRoot(), 'scripts', 'rtl-cost.mjs'), '--check'], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    // the table has a row per module with three positive figures, flip-flops fewer than cells
    const page = readFileSync(join(packageRoot(), 'docs', 'rtl.md'), 'utf8');
    for (const m of ['dcb_ets_sel', 'dcb_pfc_acct']) {
      const row = new RegExp(`^\\| \`${m}\` \\| (\\d+) \\| (\\d+) \\| (\\d+) \\|$`, 'm').exec(page);
      expect(row, m).not.toBeNull();
      const [cells, flops, depth] = row!.slice(1).map(Number);
      expect(flops).toBeGreaterThan(0);
      expect(flops).toBeLessThan(cells);
      expect(depth).toBeGreaterThan(0);
    }
    // the state the modules hold: 8 x 24-bit deficits + 3-bit cur; 9 x 32-bit occupancies + 9 XOFF bits
    expect(page).toMatch(/^\| `dcb_ets_sel` \| \d+ \| 195 \|/m);
    expect(page).toMatch(/^\| `dcb_pfc_acct` \| \d+ \| 297 \|/m);
  });
});
