// Document kinds that `dcbkit validate` understands, told apart by their top-level keys. The list is
// host/documents/kinds.ts (most specific first, the DCB config last as the fallback); another module,
// e.g. the simulator's scenario, adds its kind there:
//
//     export const scenarioKind: DocumentKind = { name: 'scenario', detect: (d) => 'flows' in d, ... };
//
// A kind validates a parsed YAML/JSON value and returns its normalised form, warnings and a short
// human summary; it throws InputError (`path: rule` problems) when the document is invalid.
import type { Problem } from '../errors/errors.js';
import { parseConfig, type DcbConfig } from '../config/schema.js';

export interface ValidatedDocument {
  /** the normalised document (printed by `validate --json` as `config` for configs, `document` otherwise) */
  value: unknown;
  warnings: Problem[];
  /** one or a few lines for humans: what the document sets up */
  summary: string[];
}

export interface DocumentKind {
  name: string;
  describe: string;
  /** true when the top-level keys say the document is of this kind */
  detect(doc: Record<string, unknown>): boolean;
  validate(doc: unknown): ValidatedDocument;
}

function percentList(c: DcbConfig): string {
  const parts: string[] = [];
  for (let t = 7; t >= 0; t--) {
    const prios = [...Array(8).keys()].filter((p) => c.ets.prio_tc[p] === t);
    if (!prios.length) continue;
    const tsa = c.ets.tsa[t];
    parts.push(`TC${t} ${tsa === 'ets' ? `ets ${c.ets.bw[t]}%` : tsa} {${prios.join(',')}}`);
  }
  return parts.join(', ');
}

/** A speed in bit/s as people write it: 100G, 2500M. */
export function gbps(bps: number): string {
  return bps % 1e9 === 0 ? `${bps / 1e9}G` : `${bps / 1e6}M`;
}

/** A one-line-per-feature summary of a normalised config (the human output of `validate`). */
export function summariseConfig(c: DcbConfig): string[] {
  const lossless = c.pause.enable ? 'PAUSE (whole port)' : c.pfc.enable.length ? `PFC on ${c.pfc.enable.join(',')}` : 'no PFC';
  const lines = [
    `port ${c.port.name}: ${gbps(c.port.speed)}, mtu ${c.port.mtu}, cable ${c.port.cable} m, mac ${c.port.mac}`,
    `ets${c.ets.willing ? ' (willing)' : ''}: ${percentList(c)}`,
    `flow control: ${lossless}${c.credit.priorities.length ? `, credit on ${c.credit.priorities.join(',')}` : ''}` +
      (c.pfc.enable.length ? `, headroom ${c.pfc.headroom === 'auto' ? 'auto' : `${c.pfc.headroom} B`}, xoff ${c.pfc.xoff} B, xon ${c.pfc.xon} B` : ''),
  ];
  if (c.pg) lines.push(`pg (CEE): prio_pgid [${c.pg.prio_pgid.join(',')}], pg_bw [${c.pg.pg_bw.join(',')}]`);
  if (c.app.length) lines.push(`app: ${c.app.map((e) => `${e.selector_name} ${e.selector === 1 ? '0x' + e.protocol.toString(16).padStart(4, '0') : e.protocol} -> ${e.priority}`).join(', ')}`);
  if (c.qcn.cp.priorities.length) lines.push(`qcn: cp on ${c.qcn.cp.priorities.join(',')}, rp profile ${c.qcn.rp.profile}`);
  return lines;
}

export const configKind: DocumentKind = {
  name: 'config',
  describe: 'DCB port configuration (port, ets/pg, pfc, pause, app, qcn, credit)',
  detect: (d) => ['port', 'ets', 'pg', 'pfc', 'pause', 'app', 'qcn', 'credit'].some((k) => k in d),
  validate: (doc) => {
    const { config, warnings } = parseConfig(doc);
    return { value: config, warnings, summary: summariseConfig(config) };
  },
};
