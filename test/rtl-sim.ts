// Builds and runs the reference RTL's testbenches (rtl/tb/) under Verilator and Icarus Verilog,
// timing each step, for test/rtl.test.ts. Verilator models share one object directory (each its own
// --prefix), so its runtime library is compiled once per test run, and build without C++
// optimisation: the testbenches run for well under a second, the builds dominate.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { packageRoot } from '../host/core/loader.js';

export const ROOT = packageRoot();
export const rtl = (f: string) => join(ROOT, 'rtl', f);
/** The C model and its DPI glue, compiled into every Verilator model that imports dcbkit_dpi. */
export const DPI_C = [rtl('dcbkit_dpi.c'), ...['ets', 'pfc', 'credit', 'qcn_cp', 'qcn_rp', 'rng'].map((k) => join(ROOT, 'cmodel', `${k}.c`))];
export const LAYOUT_PKG = join(ROOT, 'build', 'dcb_layout_pkg.sv');

export interface Timed { status: number; out: string; ms: number }

export function timed(cmd: string, args: string[], cwd?: string): Timed {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', maxBuffer: 64 << 20 });
  return { status: r.status ?? -1, out: `${r.stdout ?? ''}${r.stderr ?? ''}`, ms: performance.now() - t0 };
}

function must(what: string, r: Timed): Timed {
  if (r.status !== 0) throw new Error(`${what} failed (${r.status}):\n${r.out.slice(-4000)}`);
  return r;
}

/** verilator --binary --timing -Wall (lint warnings fail the build); returns the executable and the build time. */
export function verilatorBuild(mdir: string, name: string, top: string, sources: string[], cSources: string[] = []): { exe: string; ms: number } {
  const args = ['--binary', '--timing', '-Wall', '-j', '2', '--prefix', name, '--top-module', top, '-Mdir', mdir,
    '-MAKEFLAGS', 'OPT_FAST=-O0 OPT_SLOW=-O0 OPT_GLOBAL=-O0', ...sources, ...cSources];
  if (cSources.length) args.push('-CFLAGS', `-I${join(ROOT, 'build')} -I${join(ROOT, 'cmodel')}`);
  const r = must(`verilator ${name}`, timed('verilator', args));
  return { exe: join(mdir, name), ms: r.ms };
}

/** iverilog -g2012; returns the vvp file and the build time. */
export function icarusBuild(out: string, sources: string[]): { exe: string; ms: number } {
  const r = must(`iverilog ${out}`, timed('iverilog', ['-g2012', '-o', out, ...sources]));
  return { exe: out, ms: r.ms };
}

/** Runs a testbench; `pass` is its RESULT PASS line, when it printed one. */
export function runBench(sim: 'verilator' | 'icarus', exe: string, plusargs: string[]): Timed & { pass?: string } {
  const r = sim === 'verilator' ? timed(exe, plusargs) : timed('vvp', ['-n', exe, ...plusargs]);
  return { ...r, pass: /^RESULT PASS .*$/m.exec(r.out)?.[0] };
}
