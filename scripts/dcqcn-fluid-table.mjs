#!/usr/bin/env node
// Prints the table of docs/qcn.md "Validation against the fluid model": each N:1 incast of
// host/analysis/dcqcn-incast.ts VALIDATION_CASES through the simulator next to the DCQCN fluid
// model's exact fixed point (host/analysis/dcqcn-fluid.ts), as Markdown. Needs `npm run build`.
// Usage: node scripts/dcqcn-fluid-table.mjs [--ai-mbps N] [--kmax BYTES] [--pmax PCT] [--alpha-bits B]
import { fixedPoint } from '../dist/host/analysis/dcqcn-fluid.js';
import { fluidParams, runIncast, VALIDATION_CASES } from '../dist/host/analysis/dcqcn-incast.js';

const args = process.argv.slice(2);
const opt = (name) => { const i = args.indexOf(name); return i < 0 ? undefined : Number(args[i + 1]); };
const over = {};
if (opt('--ai-mbps') !== undefined) over.ai_bps = opt('--ai-mbps') * 1e6;
if (opt('--kmax') !== undefined) over.kmax = opt('--kmax');
if (opt('--pmax') !== undefined) over.pmax_pct = opt('--pmax');
if (opt('--alpha-bits') !== undefined) over.alpha_bits = opt('--alpha-bits');
const r2 = (x) => x.toFixed(2);
console.log('| C | N | p* | q* (B) | queue mean (B) | mean/q* | median/q* | CNP/s model | CNP/s sim | sim/model | flow rate / (C/N), min..max |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
for (const base of VALIDATION_CASES) {
  const k = { ...base, ...over };
  const fp = fixedPoint(fluidParams(k));
  const s = runIncast(k);
  const fr = s.flow_bps.map((f) => f / fp.rc_bps);
  console.log(`| ${k.c_bps / 1e9}G | ${k.n} | ${fp.p.toExponential(2)} | ${Math.round(fp.q_bytes)} | ${Math.round(s.q_mean)} | ${r2(s.q_mean / fp.q_bytes)} | ${r2(s.q_median / fp.q_bytes)} | ${Math.round(fp.cnp_per_s)} | ${Math.round(s.cnp_per_s)} | ${r2(s.cnp_per_s / fp.cnp_per_s)} | ${r2(Math.min(...fr))}..${r2(Math.max(...fr))} |`);
}
