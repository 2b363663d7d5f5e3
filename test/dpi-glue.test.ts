// The DPI-C glue (rtl/dcbkit_dpi.c) checked without a simulator (test/c/dpi_glue_check.c): every
// kernel's dcb_dpi_* calls leave the record exactly as the direct C-model calls do, including the
// packed bit-vector arguments (ETS head sizes, PFC time fields). The random RTL testbenches
// (test/rtl.test.ts) exercise the ETS and PFC functions inside Verilator; this covers the rest.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../host/core/loader.js';
import { requireTool } from './helpers.js';

requireTool('gcc');
requireTool('verilator');
const dir = mkdtempSync(join(tmpdir(), 'dcbkit-dpi-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('DPI-C glue', () => {
  it('gives the C model\'s results for ETS, PFC, credit, DCQCN RP and QCN CP calls', () => {
    const root = packageRoot();
    // svdpi.h (IEEE 1800 Annex I) as the simulator ships it
    const vroot = spawnSync('verilator', ['--getenv', 'VERILATOR_ROOT'], { encoding: 'utf8' }).stdout.trim();
    const exe = join(dir, 'dpi_check');
    const kernels = ['ets', 'pfc', 'credit', 'qcn_cp', 'qcn_rp', 'rng'].map((k) => join(root, 'cmodel', `${k}.c`));
    const cc = spawnSync('gcc', ['-std=c11', '-O2', '-Wall', '-Wextra', '-Werror', '-I', join(root, 'build'), '-I', join(root, 'cmodel'),
      '-I', join(vroot, 'include', 'vltstd'), '-o', exe, join(root, 'test', 'c', 'dpi_glue_check.c'), join(root, 'rtl', 'dcbkit_dpi.c'), ...kernels], { encoding: 'utf8' });
    expect(cc.stderr).toBe('');
    expect(cc.status).toBe(0);
    const r = spawnSync(exe, { encoding: 'utf8' });
    expect(r.stdout.trim().split('\n')).toEqual([
      'ok ets select with packed head sizes',
      'ok pfc receive with packed time fields',
      'ok credit grant and send',
      'ok dcqcn rp cnp',
      'ok qcn cp enqueues',
    ]);
    expect(r.status).toBe(0);
  });
});
