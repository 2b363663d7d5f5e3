// lldptool's text output (`lldptool -t [-n] -i IF`, open-lldp lldp_8021qaz_clif.c and
// lldp_dcbx_clif.c printers) checked field by field against TLVs as dcbkit decodes them. Printer
// quirks allowed for: MAX_TCS wire 0 printed as 8 (dcbkit's decoder does the same), DSCP entries
// grouped per priority, CEE SeqNo/AckNo printed as signed 32-bit numbers, "Not Enabled" for a
// disabled CEE feature, the MBC bit compared raw (its label reads the other way round).
import { expect } from 'vitest';
import type { CeeTlv } from '../../host/dcbx/cee.js';
import type { EtsCfgTlv, EtsRecTlv, TsaName } from '../../host/dcbx/ieee.js';
import { selectorCode } from '../../host/dcbx/ieee.js';
import type { LldpTlv } from '../../host/dcbx/lldpdu.js';

/** lldptool's sections: title line -> the indented lines under it. */
export function sections(out: string): Map<string, string[]> {
  const m = new Map<string, string[]>();
  let cur: string[] = [];
  for (const line of out.split('\n')) {
    if (!line.trim()) continue;
    if (/^\S/.test(line)) m.set(line.trim(), (cur = []));
    else cur.push(line.trim());
  }
  return m;
}
const after = (lines: string[], key: string) => lines.find((l) => l.startsWith(key))?.slice(key.length).trim() ?? '';
const TSA_LLDPTOOL: Record<TsaName, string> = { strict: 'strict', cbs: 'cbshaper', ets: 'ets', vendor: 'vendor' };

function checkEts(lines: string[], t: EtsCfgTlv | EtsRecTlv): void {
  expect(after(lines, 'PRIO_MAP:').split(/\s+/)).toEqual(t.prio_tc.map((tc, p) => `${p}:${tc}`));
  expect(after(lines, 'TC Bandwidth:').split(/\s+/)).toEqual(t.bw.map((b) => `${b}%`));
  expect(after(lines, 'TSA_MAP:').split(/\s+/)).toEqual(t.tsa.map((x, tc) => `${tc}:${TSA_LLDPTOOL[x as TsaName]}`));
}

export function checkIeee(s: Map<string, string[]>, tlvs: LldpTlv[]): void {
  for (const t of tlvs) {
    if (t.type === 'ets_cfg') {
      const l = s.get('IEEE 8021QAZ ETS Configuration TLV')!;
      expect(after(l, 'Willing:')).toBe(t.willing ? 'yes' : 'no');
      expect(after(l, 'CBS:')).toBe(t.cbs ? 'supported' : 'not supported');
      expect(Number(after(l, 'MAX_TCS:'))).toBe(t.max_tcs); // lldptool prints wire 0 as 8, like our decoder
      checkEts(l, t);
    } else if (t.type === 'ets_rec') {
      checkEts(s.get('IEEE 8021QAZ ETS Recommendation TLV')!, t);
    } else if (t.type === 'pfc') {
      const l = s.get('IEEE 8021QAZ PFC TLV')!;
      expect(after(l, 'Willing:')).toBe(t.willing ? 'yes' : 'no');
      expect(after(l, 'MACsec Bypass Capable:')).toBe(t.mbc ? 'yes' : 'no'); // raw bit (§5.4 note)
      expect(Number(after(l, 'PFC capable traffic classes:'))).toBe(t.cap);
      expect((after(l, 'PFC enabled:').match(/\d/g) ?? []).map(Number)).toEqual(t.enable);
    } else if (t.type === 'app') {
      const l = s.get('IEEE 8021QAZ APP TLV')!;
      const seen: string[] = [];
      for (const line of l) {
        const m = /Prio (\d)\s+Sel (\d)\s+P-ID\s+.*?:\s*(0x[0-9a-fA-F]+|\d+)\s*$/.exec(line);
        if (m) seen.push(`${m[2]}/${Number(m[3])}/${m[1]}`);
        const d = /^Prio:(\d)\s+dscp:\s*(.*)$/.exec(line);
        if (d) for (const v of d[2].split(',').map((x) => x.trim()).filter((x) => /^\d+$/.test(x))) seen.push(`5/${Number(v)}/${d[1]}`);
      }
      expect(seen.sort()).toEqual(t.app.map((e) => `${selectorCode(e.selector)}/${e.protocol}/${e.priority}`).sort());
    }
  }
}

function flags(h: { enable: boolean; willing: boolean; error: boolean }): string {
  return `${h.enable ? 'Enabled' : 'Not Enabled'}, ${h.willing ? 'Willing' : 'Not Willing'}, ${h.error ? 'Error' : 'No Error'}`;
}

export function checkCee(s: Map<string, string[]>, t: CeeTlv): void {
  const l = s.get('CEE DCBX TLV')!;
  // lldptool prints SeqNo/AckNo as signed 32-bit integers (0xffffffed shows as -19)
  expect(l).toContain(`SeqNo: ${t.control.seq | 0}, AckNo: ${t.control.ack | 0}`);
  const at = (title: string) => l.indexOf(title);
  if (t.pg) {
    const i = at('Priority Groups TLV:');
    expect(l[i + 1]).toBe(flags(t.pg));
    const groups = new Map<number, number[]>();
    t.pg.prio_pgid.forEach((g, p) => groups.set(g, [...(groups.get(g) ?? []), p]));
    const want = [...groups.entries()].sort((x, y) => x[0] - y[0]).map(([g, ps]) => `${g}:[${ps.join(',')}]`);
    expect(after(l, 'PGID Priorities:').split(/\s+/)).toEqual(want);
    expect(after(l, 'PGID Percentages:').split(/\s+/)).toEqual(t.pg.pg_bw.map((b, g) => `${g}:${b}%`));
  }
  if (t.pfc) {
    const i = at('Priority Flow Control TLV:');
    expect(l[i + 1]).toBe(flags(t.pfc));
    expect((l[i + 2].replace('PFC enabled priorities:', '').match(/\d/g) ?? []).map(Number)).toEqual(t.pfc.enable_prios);
  }
  if (t.app) {
    const i = at('Application TLV:');
    expect(l[i + 1]).toBe(flags(t.app));
    const entries = l.slice(i + 2, i + 2 + t.app.app.length);
    expect(entries).toEqual(t.app.app.map((e) => `${e.selector === 'ethertype' ? 'Ethertype' : 'TCP/UDP Port'}: 0x${e.protocol.toString(16).padStart(4, '0')}, Priority Map: 0x${e.priorities.reduce((v, p) => v | (1 << p), 0).toString(16).padStart(2, '0')}`));
  }
}
