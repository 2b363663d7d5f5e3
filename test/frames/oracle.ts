// Test helper: runs tshark (the independent decoder oracle) over a pcap and returns one row of
// named fields per frame. `-T fields` with occurrence=a and aggregator "," keeps repeated fields.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { requireTool } from '../helpers.js';
import { writePcap } from '../../host/capture/pcap.js';

export const LUA = join(import.meta.dirname, '..', 'wireshark', 'dcbkit.lua');

// One temporary directory per test file that imports this module, removed after its tests.
const tmpRoot = mkdtempSync(join(tmpdir(), 'dcbkit-test-'));
afterAll(() => rmSync(tmpRoot, { recursive: true, force: true }));

/** A fresh path under the test file's temporary directory. */
export function tmpFile(name: string): string {
  return join(mkdtempSync(join(tmpRoot, 'f-')), name);
}

export function pcapOf(frames: Uint8Array[]): string {
  const f = tmpFile('frames.pcap');
  writeFileSync(f, writePcap(frames.map((data, i) => ({ t_ps: BigInt(i) * 1_000_000n, data }))));
  return f;
}

export function tsharkFields(pcap: string, fields: string[], extra: string[] = []): Record<string, string>[] {
  requireTool('tshark');
  const args = ['-r', pcap, '-T', 'fields', '-E', 'occurrence=a', '-E', 'aggregator=,', '-E', 'separator=\t', ...extra];
  for (const f of fields) args.push('-e', f);
  const r = spawnSync('tshark', args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`tshark failed (${r.status}): ${r.stderr}`);
  return r.stdout
    .split('\n')
    .filter((l) => l.length > 0)
    .map((line) => {
      const cols = line.split('\t');
      return Object.fromEntries(fields.map((f, i) => [f, cols[i] ?? '']));
    });
}

/** tshark -T json, parsed: one `layers` object per frame. */
export function tsharkJson(pcap: string, extra: string[] = []): Record<string, unknown>[] {
  requireTool('tshark');
  const r = spawnSync('tshark', ['-r', pcap, '-T', 'json', ...extra], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`tshark failed (${r.status}): ${r.stderr}`);
  return (JSON.parse(r.stdout) as { _source: { layers: Record<string, unknown> } }[]).map((p) => p._source.layers);
}

/** Numbers as tshark prints them (decimal or 0x-hex). */
export const num = (s: string): number => Number(s);
