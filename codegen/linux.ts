// Linux host target: tc.batch (the ETS qdisc, sch_ets: PRIO then DRR), dcb.sh (iproute2 `dcb ets |
// pfc | app | buffer | maxrate`, i.e. the dcbnl ieee_ets / ieee_pfc / dcb_app / dcbnl_buffer /
// ieee_maxrate objects a DCB NIC driver programs) and lldptool.sh (lldpad's ETS-CFG, ETS-REC, PFC
// and APP TLV settings). Syntax from iproute2 man/man8/tc-ets.8, dcb-*.8 and lldptool-*.8.
//
// tc ets numbers bands the other way round from 802.1Qaz: band 0 is the highest strict band. So
// strict TCs take bands 0.. from the highest TC down, then the ETS TCs follow with byte quanta
// (quantum = bw x quantum unit, every quantum >= one frame). skb priorities 0..7 map through
// prio -> TC -> band; skb priorities 8..15 carry no 802.1p meaning and follow priority 0.
//
// Interface names reach the scripts through shellQuote and tc.batch through tcBatchWord: a name is
// only what the kernel allows (host/config/fields.ts interfaceNameRule), and that still admits
// ; $ ` ' " # and friends.
import type { Ir, IrPort, IrTc, Quantisation } from './ir.js';
import { cumulativeRound, irProblemsFor } from './ir.js';
import type { CodegenTarget, Emitted } from './target.js';
import { problem } from './target.js';
import type { Problem } from '../host/errors.js';
import { classifyScript } from './linux-classify.js';
import { shellQuote, tcBatchWord } from './shell.js';

/** TCs in tc ets band order: strict (and cbs) highest TC first, then ETS TCs highest first. */
export function bandOrder(ir: Ir): IrTc[] {
  const used = ir.tcs.filter((t) => t.used);
  const strict = used.filter((t) => t.tsa === 'strict' || t.tsa === 'cbs').sort((a, b) => b.tc - a.tc);
  const ets = used.filter((t) => t.tsa === 'ets').sort((a, b) => b.tc - a.tc);
  return [...strict, ...ets];
}

/** tc ets requires quantum >= 1: a 0 % ETS TC gets 1 byte, the smallest share tc can express. */
export function tcQuantum(t: IrTc): number {
  return Math.max(1, t.quantumBytes);
}

function check(ir: Ir): Problem[] {
  const out = irProblemsFor(ir, 'linux');
  for (const t of ir.tcs) {
    if (t.used && t.tsa === 'vendor') out.push(problem('linux', `ets.tsa[${t.tc}]`, 'TSA vendor has no tc ets band type (strict or quantum)'));
  }
  ir.ports.forEach((p, i) => {
    if (tcBatchWord(p.name) === undefined) {
      out.push(problem('linux', `ports[${i}].name`, `${JSON.stringify(p.name)} cannot be written in tc -batch ('#' starts a comment there; a leading quote needs the other quote free)`));
    }
  });
  return out;
}

const onOff = (b: boolean) => (b ? 'on' : 'off');

function etsArgs(prefix: string, t: DcbEtsTable): string {
  return [
    `${prefix}tc-tsa ${t.tcTsa.map((x, i) => `${i}:${x}`).join(' ')}`,
    `${prefix}tc-bw ${t.tcBw.map((b, i) => `${i}:${b}`).join(' ')}`,
    `${prefix}prio-tc ${t.prioTc.map((x, p) => `${p}:${x}`).join(' ')}`,
  ].join(' ');
}

/** dcb app keywords per 802.1Qaz selector; EtherType 0 is the default priority (dcb-app.8: ET >= 0x600). */
const APP_KEYWORD: Record<string, DcbAppKeyword> = {
  ethertype: 'ethtype-prio',
  stream: 'stream-port-prio',
  dgram: 'dgram-port-prio',
  any: 'port-prio',
  dscp: 'dscp-prio',
};

export type DcbAppKeyword = 'ethtype-prio' | 'default-prio' | 'dscp-prio' | 'stream-port-prio' | 'dgram-port-prio' | 'port-prio';

/** An ETS table as `dcb ets` reads and shows it (TSA keywords strict, cbs, ets, vendor). */
export interface DcbEtsTable {
  tcTsa: string[];
  tcBw: number[];
  prioTc: number[];
}

/**
 * What dcb.sh programs on one port, in the shape `dcb -j ... show` reports it back, so that
 * `dcbkit audit --linux` compares a device with the very values the script writes. `null` marks
 * what the script leaves to the driver: the ETS recommendation when the config has none, and the
 * size of a lossy receive buffer.
 */
export interface DcbState {
  ets: DcbEtsTable & { willing: boolean; reco: DcbEtsTable | null };
  pfc: { prioPfc: boolean[] };
  app: { keyword: DcbAppKeyword; protocol: number; priority: number }[];
  buffer: { prioBuffer: number[]; bufferSize: (number | null)[] };
}

export function dcbIntent(ir: Ir, port: IrPort): DcbState {
  const rec = ir.ets.recommendation;
  const sizes: (number | null)[] = Array(8).fill(null);
  for (const g of port.pgs) if (g.lossless) sizes[g.pg] = g.sizeBytes;
  return {
    ets: {
      willing: ir.ets.willing,
      tcTsa: ir.tcs.map((t) => t.tsa),
      tcBw: ir.tcs.map((t) => t.bwPercent),
      prioTc: [...ir.prioTc],
      reco: rec ? { tcTsa: [...rec.tsa], tcBw: [...rec.bwPercent], prioTc: [...rec.prioTc] } : null,
    },
    pfc: { prioPfc: [...ir.pfc.enabled] },
    app: ir.app.map((a) => ({ keyword: a.selector === 'ethertype' && a.protocol === 0 ? 'default-prio' : APP_KEYWORD[a.selector], protocol: a.protocol, priority: a.priority })),
    // Receive buffers = priority groups; only lossless PG sizes are set, others keep the driver's.
    buffer: { prioBuffer: ir.prioTc.map((t) => ir.tcPg[t]), bufferSize: sizes },
  };
}

/** lldpad's settings per TLV as lldptool.sh sets them (`-T -V TLV arg=value ...`), in order. */
export interface LldpadIntent {
  adminStatus: 'rxtx';
  tlvs: { tlv: 'ETS-CFG' | 'ETS-REC' | 'PFC' | 'APP'; args: [string, string][] }[];
  /** APP entries as lldptool's app=PRIORITY,SELECTOR,PROTOCOL. */
  apps: string[];
}

export function lldpadIntent(ir: Ir): LldpadIntent {
  const lt = (tsa: string[]) => tsa.map((t, i) => `${i}:${t === 'cbs' ? 'strict' : t}`).join(',');
  const map = (prioTc: number[]) => prioTc.map((t, p) => `${p}:${t}`).join(',');
  const yesNo = (b: boolean) => (b ? 'yes' : 'no');
  const rec = ir.ets.recommendation;
  const en = ir.pfc.enabled.flatMap((on, p) => (on ? [p] : []));
  const tlvs: LldpadIntent['tlvs'] = [
    { tlv: 'ETS-CFG', args: [['enableTx', 'yes'], ['willing', yesNo(ir.ets.willing)], ['tsa', lt(ir.tcs.map((t) => t.tsa))], ['up2tc', map(ir.prioTc)], ['tcbw', ir.tcs.map((t) => t.bwPercent).join(',')]] },
  ];
  if (rec) tlvs.push({ tlv: 'ETS-REC', args: [['enableTx', 'yes'], ['tsa', lt(rec.tsa)], ['up2tc', map(rec.prioTc)], ['tcbw', rec.bwPercent.join(',')]] });
  tlvs.push({ tlv: 'PFC', args: [['enableTx', 'yes'], ['willing', yesNo(ir.pfc.willing)], ['enabled', en.length ? en.join(',') : 'none']] });
  if (ir.app.length) tlvs.push({ tlv: 'APP', args: [['enableTx', 'yes']] });
  return { adminStatus: 'rxtx', tlvs, apps: ir.app.map((a) => `${a.priority},${a.selectorCode},${a.protocol}`) };
}

function dcbAppWords(app: DcbState['app']): string {
  const groups = new Map<DcbAppKeyword, string[]>();
  for (const a of app) {
    const words = groups.get(a.keyword) ?? [];
    if (a.keyword === 'default-prio') words.push(String(a.priority));
    else words.push(`${a.keyword === 'ethtype-prio' ? '0x' + a.protocol.toString(16) : a.protocol}:${a.priority}`);
    groups.set(a.keyword, words);
  }
  return [...groups].map(([k, v]) => `${k} ${v.join(' ')}`).join(' ');
}

function emit(ir: Ir): Emitted {
  const quantisation: Quantisation[] = [];
  const bands = bandOrder(ir);
  const nstrict = bands.filter((t) => t.tsa !== 'ets').length;
  const quanta = bands.slice(nstrict).map(tcQuantum);
  // What the kernel's offload makes of these quanta (cumulative rounding to percent) is what a
  // DCB NIC gets; any difference from the configured % is a quantisation error.
  const offload = cumulativeRound(quanta, 100);
  bands.slice(nstrict).forEach((t, i) => {
    if (offload[i] !== t.bwPercent) {
      quantisation.push({ target: 'linux', path: `ets.bw[${t.tc}]`, quantity: 'tc ets quantum as offloaded percent weight', wanted: t.bwPercent, got: offload[i], unit: '%', error: offload[i] - t.bwPercent });
    }
  });
  for (const t of ir.tcs) {
    if (!t.used && t.tsa === 'ets' && t.bwPercent > 0) {
      quantisation.push({ target: 'linux', path: `ets.bw[${t.tc}]`, quantity: 'bandwidth of an ETS TC no priority maps to (it gets no tc band)', wanted: t.bwPercent, got: 0, unit: '%', error: -t.bwPercent });
    }
  }
  const bandOfTc = new Map(bands.map((t, i) => [t.tc, i]));
  const priomap = Array.from({ length: 16 }, (_, p) => bandOfTc.get(ir.prioTc[p < 8 ? p : 0])!);

  const tc: string[] = [];
  for (const port of ir.ports) {
    let line = `qdisc replace dev ${tcBatchWord(port.name)} root handle 1: ets bands ${bands.length}`;
    if (nstrict) line += ` strict ${nstrict}`;
    if (quanta.length) line += ` quanta ${quanta.join(' ')}`;
    line += ` priomap ${priomap.join(' ')}`;
    tc.push(line);
  }

  const sh: string[] = [
    '#!/bin/sh',
    '# DCB settings for a dcbnl-capable NIC driver (iproute2 dcb). Generated by dcbkit codegen.',
    '# Ports: ' + ir.ports.map((p) => shellQuote(p.name)).join(' '),
    'set -e',
  ];
  const ll: string[] = ['#!/bin/sh', '# lldpad (open-lldp) DCBX TLV settings. Generated by dcbkit codegen.', 'set -e'];
  const lldpad = lldpadIntent(ir);
  for (const port of ir.ports) {
    const dev = shellQuote(port.name);
    const want = dcbIntent(ir, port);
    let ets = `dcb ets set dev ${dev} willing ${onOff(want.ets.willing)} ${etsArgs('', want.ets)}`;
    if (want.ets.reco) ets += ' ' + etsArgs('reco-', want.ets.reco);
    sh.push(ets);
    sh.push(`dcb pfc set dev ${dev} prio-pfc ${want.pfc.prioPfc.map((on, p) => `${p}:${onOff(on)}`).join(' ')}`);
    if (want.app.length) sh.push(`dcb app replace dev ${dev} ${dcbAppWords(want.app)}`);
    const sizes = want.buffer.bufferSize.flatMap((b, g) => (b === null ? [] : [`${g}:${b}`]));
    sh.push(`dcb buffer set dev ${dev} prio-buffer ${want.buffer.prioBuffer.map((g, p) => `${p}:${g}`).join(' ')}${sizes.length ? ' buffer-size ' + sizes.join(' ') : ''}`);
    // No per-TC rate limit in the config: 0 = unlimited in ieee_maxrate.
    sh.push(`dcb maxrate set dev ${dev} tc-maxrate all:0`);

    ll.push(`lldptool -L -i ${dev} adminStatus=${lldpad.adminStatus}`);
    for (const t of lldpad.tlvs) ll.push(`lldptool -T -i ${dev} -V ${t.tlv} ${t.args.map(([k, v]) => `${k}=${v}`).join(' ')}`);
    for (const a of lldpad.apps) ll.push(`lldptool -T -i ${dev} -V APP app=${a}`);
  }
  if (ir.tcs.some((t) => t.used && t.tsa === 'cbs')) {
    quantisation.push({ target: 'linux', path: 'ets.tsa', quantity: 'TSA cbs advertised by lldptool as strict (lldptool has no cbs keyword)', wanted: 1, got: 0, unit: 'tsa', error: 0 });
  }
  return {
    files: {
      'tc.batch': tc.join('\n') + '\n',
      'dcb.sh': sh.join('\n') + '\n',
      'lldptool.sh': ll.join('\n') + '\n',
      'classify.sh': classifyScript(ir),
    },
    quantisation,
  };
}

export const linuxTarget: CodegenTarget = { name: 'linux', check, emit };
