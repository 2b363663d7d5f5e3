// `dcbkit audit --linux IFACE`: what a Linux host's DCB NIC runs, read back with iproute2 `dcb -j
// ets|pfc|app|buffer show dev IFACE` (the dcbnl ieee_ets, ieee_pfc, dcb_app and dcbnl_buffer objects
// the driver holds) and `lldptool` (lldpad's adminStatus and, per TLV lldptool.sh configures,
// enableTx, willing, the ETS tables and the APP entries), compared with what codegen/linux.ts's
// dcb.sh and lldptool.sh write for the config. Both sides go through dcbView / lldpadView.
//
// Invariants: every reply is checked against the shape iproute2 prints before it is read; a tool
// that is missing, fails or prints something else is an InputError naming --linux and the command.
//
// The JSON of `dcb -j` (iproute2 dcb/dcb_ets.c, dcb_pfc.c, dcb_app.c, dcb_buffer.c; lib/json_print.c):
// ets {willing: bool, ets_cap, cbs: bool, tc_bw[8], pg_bw[8], tc_tsa[8] of "strict"|"cbs"|"ets"|
// "vendor", prio_tc[8], reco_tc_bw[8], reco_tc_tsa[8], reco_prio_tc[8]}; pfc {pfc_cap,
// macsec_bypass: bool, delay, prio_pfc[8] of bool, and requests[8], indications[8] only with -s};
// app {ethtype_prio, dscp_prio, stream_port_prio, dgram_port_prio, port_prio: [[protocol, priority],
// ...] (protocols in decimal), default_prio: [priority, ...]} with empty arrays left out; buffer
// {prio_buffer[8], buffer_size[8] in bytes, total_size}.
//
// lldptool (open-lldp lldptool_cmds.c print_arg_value) prints each queried setting as `arg=value`:
// `lldptool -t -i IF -V TLV -c enableTx willing tsa` gives `enableTx=yes`, `willing=no` and the
// tsa string as lldptool.sh set it, an unset one `arg=` with nothing after it; `-V APP -c app`
// lists the entries as `N:(PRIORITY,SELECTOR,PROTOCOL) ...` (EtherTypes in hex).
import { spawnSync } from 'node:child_process';
import { z } from 'zod';
import { InputError } from '../errors/errors.js';
import { interfaceNameRule } from '../config/fields.js';
import type { DcbState, DcbAppKeyword, DcbEtsTable, LldpadIntent } from '../../codegen/linux.js';
import { View, intSet } from './view.js';

const u8 = z.number().int().min(0).max(255);
const eight = <T extends z.ZodType>(t: T) => z.array(t).length(8);
const TSA_WORDS = ['strict', 'cbs', 'ets', 'vendor', '???'] as const;

const etsJson = z.object({
  willing: z.boolean(),
  tc_bw: eight(u8),
  tc_tsa: eight(z.enum(TSA_WORDS)),
  prio_tc: eight(u8),
  reco_tc_bw: eight(u8),
  reco_tc_tsa: eight(z.enum(TSA_WORDS)),
  reco_prio_tc: eight(u8),
});
const pfcJson = z.object({ prio_pfc: eight(z.boolean()) });
const appPairs = z.array(z.tuple([z.number().int().min(0).max(65535), u8]));
const appJson = z.object({
  ethtype_prio: appPairs.optional(),
  default_prio: z.array(u8).optional(),
  dscp_prio: appPairs.optional(),
  stream_port_prio: appPairs.optional(),
  dgram_port_prio: appPairs.optional(),
  port_prio: appPairs.optional(),
});
const bufferJson = z.object({ prio_buffer: eight(u8), buffer_size: eight(z.number().int().min(0)) });

/** Parses one `dcb -j OBJECT show` reply; a reply of another shape is a problem naming the command. */
function parseReply<T extends z.ZodType>(schema: T, text: string, command: string): z.output<T> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new InputError({ path: '--linux', rule: `${command} did not print JSON: ${JSON.stringify(text.slice(0, 80))}` });
  }
  const r = schema.safeParse(json);
  if (!r.success) {
    const i = r.error.issues[0];
    throw new InputError({ path: '--linux', rule: `${command} printed ${i.path.join('.') || 'a document'} that is not what iproute2 dcb prints (${i.message})` });
  }
  return r.data;
}

/** The running state from the four `dcb -j ... show dev IFACE` replies (ets, pfc, app, buffer). */
export function parseDcbShow(replies: { ets: string; pfc: string; app: string; buffer: string }, iface: string): DcbState {
  const cmd = (o: string) => `dcb -j ${o} show dev ${iface}`;
  const ets = parseReply(etsJson, replies.ets, cmd('ets'));
  const pfc = parseReply(pfcJson, replies.pfc, cmd('pfc'));
  const app = parseReply(appJson, replies.app, cmd('app'));
  const buf = parseReply(bufferJson, replies.buffer, cmd('buffer'));
  const pairs = (keyword: DcbAppKeyword, list: [number, number][] | undefined) => (list ?? []).map(([protocol, priority]) => ({ keyword, protocol, priority }));
  return {
    ets: {
      willing: ets.willing,
      tcTsa: ets.tc_tsa,
      tcBw: ets.tc_bw,
      prioTc: ets.prio_tc,
      reco: { tcTsa: ets.reco_tc_tsa, tcBw: ets.reco_tc_bw, prioTc: ets.reco_prio_tc },
    },
    pfc: { prioPfc: pfc.prio_pfc },
    app: [
      ...pairs('ethtype-prio', app.ethtype_prio),
      ...(app.default_prio ?? []).map((priority) => ({ keyword: 'default-prio' as const, protocol: 0, priority })),
      ...pairs('dscp-prio', app.dscp_prio),
      ...pairs('stream-port-prio', app.stream_port_prio),
      ...pairs('dgram-port-prio', app.dgram_port_prio),
      ...pairs('port-prio', app.port_prio),
    ],
    buffer: { prioBuffer: buf.prio_buffer, bufferSize: buf.buffer_size },
  };
}

/** 802.1Qaz APP selector codes of dcb's keywords (EtherType 0 is the default priority). */
const APP_SELECTOR: Record<DcbAppKeyword, number> = {
  'ethtype-prio': 1,
  'default-prio': 1,
  'stream-port-prio': 2,
  'dgram-port-prio': 3,
  'port-prio': 4,
  'dscp-prio': 5,
};
const SELECTOR_NAME = ['', 'ethertype', 'stream', 'dgram', 'any', 'dscp'];

/** `PREFIX.SELECTOR.PROTOCOL` in the config's selector names, EtherTypes in hex: one path per APP entry key. */
function appPath(prefix: string, selector: number, protocol: number): string {
  const name = SELECTOR_NAME[selector] ?? `selector${selector}`;
  return `${prefix}.${name}.${selector === 1 ? '0x' + protocol.toString(16).padStart(4, '0') : protocol}`;
}

/** APP entries (selector, protocol, priority) as one path per (selector, protocol) holding its priorities, in path order. */
function setApps(v: View, prefix: string, entries: { selector: number; protocol: number; priority: number }[]): void {
  const apps = new Map<string, number[]>();
  for (const a of entries) {
    const key = appPath(prefix, a.selector, a.protocol);
    apps.set(key, [...(apps.get(key) ?? []), a.priority]);
  }
  for (const [k, prios] of [...apps].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) v.set(k, intSet(prios));
}

/**
 * The view of a dcb state in the config's key names: ets.willing, ets.prio_tc[p], ets.tsa[t],
 * ets.bw[t], ets.recommendation.*, pfc.enable, app.SELECTOR.PROTOCOL (its priorities), buffer.prio_buffer[p],
 * buffer.size[g]. The same function for the device and for dcbIntent, so both read alike.
 */
export function dcbView(s: DcbState): View {
  const v = new View();
  v.set('ets.willing', s.ets.willing ? 'on' : 'off');
  const table = (prefix: string, t: DcbEtsTable | null) => {
    v.array(`${prefix}.prio_tc`, t ? t.prioTc : Array(8).fill(null));
    v.array(`${prefix}.tsa`, t ? t.tcTsa : Array(8).fill(null));
    v.array(`${prefix}.bw`, t ? t.tcBw : Array(8).fill(null));
  };
  table('ets', s.ets);
  table('ets.recommendation', s.ets.reco);
  v.set('pfc.enable', intSet(s.pfc.prioPfc.flatMap((on, p) => (on ? [p] : []))));
  // One path per (selector, protocol); the device may hold several priorities for one.
  setApps(v, 'app', s.app.map((a) => ({ selector: APP_SELECTOR[a.keyword], protocol: a.protocol, priority: a.priority })));
  v.array('buffer.prio_buffer', s.buffer.prioBuffer);
  v.array('buffer.size', s.buffer.bufferSize);
  return v;
}

/**
 * lldpad's settings that lldptool.sh writes and `lldptool -t -c` reads back as stored: enableTx and
 * willing, and the ETS tables (tsa, up2tc, tcbw). PFC `enabled` is left out: lldpad prints its bitmap
 * with a fixed length of 2 (lldp_8021qaz_cmds.c get_arg_enabled), which cuts bitmaps from 100 up.
 */
export const LLDPAD_AUDITED_ARGS = ['enableTx', 'willing', 'tsa', 'up2tc', 'tcbw'];

export interface LldpadSettings {
  adminStatus: string | null;
  /** TLV -> arg -> value (null: lldpad has none). */
  tlvs: Record<string, Record<string, string | null>>;
  /** lldpad's APP entries; null when the config sets none (lldptool.sh leaves APP alone then). */
  apps: { selector: number; protocol: number; priority: number }[] | null;
}

/** What lldptool.sh sets, in the shape lldptool reports it (only the audited arguments). */
export function lldpadIntended(intent: LldpadIntent): LldpadSettings {
  const tlvs: LldpadSettings['tlvs'] = {};
  for (const t of intent.tlvs) tlvs[t.tlv] = Object.fromEntries(t.args.filter(([k]) => LLDPAD_AUDITED_ARGS.includes(k)));
  const apps = intent.apps.map((a) => {
    const [priority, selector, protocol] = a.split(',').map(Number);
    return { selector, protocol, priority };
  });
  return { adminStatus: intent.adminStatus, tlvs, apps: tlvs.APP ? apps : null };
}

/** `0:ets,1:ets ...` or `0:0,1:0 ...` (lldptool's own spelling, commas or spaces) as a list by index, or undefined. */
function indexedList(text: string): string[] | undefined {
  const out: string[] = [];
  for (const tok of text.trim().split(/[,\s]+/)) {
    const m = /^([0-7]):(\w+)$/.exec(tok);
    if (!m) return undefined;
    out[Number(m[1])] = m[2];
  }
  return out;
}

export function lldpadView(s: LldpadSettings): View {
  const v = new View();
  v.set('lldp.adminStatus', s.adminStatus);
  for (const [tlv, args] of Object.entries(s.tlvs)) {
    for (const [k, val] of Object.entries(args)) {
      const path = `lldp.${tlv}.${k}`;
      // the tables per index, so one changed TC reads as one line
      const list = val === null ? undefined : k === 'tcbw' ? val.trim().split(/[,%\s]+/).filter(Boolean) : k === 'tsa' || k === 'up2tc' ? indexedList(val) : undefined;
      if (list && list.length) v.array(path, list);
      else v.set(path, val);
    }
  }
  if (s.apps) setApps(v, 'lldp.APP.app', s.apps);
  return v;
}

/** lldptool's APP list lines, `0:(3,1,0x8906) local hw (pending set)`: priority, selector, protocol. */
export function parseLldptoolApps(text: string): { selector: number; protocol: number; priority: number }[] {
  const out: { selector: number; protocol: number; priority: number }[] = [];
  for (const line of text.split('\n')) {
    const m = /^\s*\d+:\((\d+),(\d+),(0x[0-9a-fA-F]+|\d+)\)/.exec(line);
    if (m) out.push({ priority: Number(m[1]), selector: Number(m[2]), protocol: Number(m[3]) });
  }
  return out;
}

/** `arg=value` lines of lldptool's reply -> arg -> value (an empty value: unset, null). */
export function parseLldptoolArgs(text: string): Map<string, string | null> {
  const out = new Map<string, string | null>();
  for (const line of text.split('\n')) {
    const m = /^([A-Za-z][A-Za-z0-9_]*)=(.*)$/.exec(line.trim());
    if (m) out.set(m[1], m[2] === '' ? null : m[2]);
  }
  return out;
}

/** Runs a tool (no shell) and returns its stdout; a missing tool or a failed run is a problem naming --linux. */
export type ToolRunner = (cmd: string, args: string[]) => string;

/** lldptool fails where lldpad is not running or not installed; the audit of dcb alone needs neither. */
const noLldpadHint = (cmd: string) => (cmd === 'lldptool' ? '; without lldpad, audit the kernel\'s DCB state alone with --no-lldptool' : '');

export const runTool: ToolRunner = (cmd, args) => {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: 20_000, maxBuffer: 16 * 1024 * 1024 });
  const line = `${cmd} ${args.join(' ')}`;
  if (r.error) {
    const code = (r.error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? `${cmd} is not installed (Debian: ${cmd === 'dcb' ? 'iproute2' : 'lldpad'})` : code === 'ETIMEDOUT' ? 'no reply within 20 s' : r.error.message;
    throw new InputError({ path: '--linux', rule: `cannot run ${line}: ${why}${noLldpadHint(cmd)}` });
  }
  if (r.status !== 0) {
    const said = (r.stderr || r.stdout).trim().split('\n')[0] ?? '';
    throw new InputError({ path: '--linux', rule: `${line} failed (exit ${r.status ?? r.signal}): ${said}${noLldpadHint(cmd)}` });
  }
  return r.stdout;
};

export function checkInterface(iface: string): void {
  const broken = interfaceNameRule(iface);
  if (broken) throw new InputError({ path: '--linux', rule: broken });
}

/** Reads the running dcb state of `iface`. */
export function readDcb(iface: string, run: ToolRunner = runTool): DcbState {
  const show = (o: string) => run('dcb', ['-j', o, 'show', 'dev', iface]);
  return parseDcbShow({ ets: show('ets'), pfc: show('pfc'), app: show('app'), buffer: show('buffer') }, iface);
}

/** Reads lldpad's settings for the TLVs and arguments `want` lists. */
export function readLldpad(iface: string, want: LldpadSettings, run: ToolRunner = runTool): LldpadSettings {
  const admin = parseLldptoolArgs(run('lldptool', ['-l', '-i', iface, 'adminStatus'])).get('adminStatus') ?? null;
  const tlvs: LldpadSettings['tlvs'] = {};
  let apps: LldpadSettings['apps'] = null;
  for (const [tlv, args] of Object.entries(want.tlvs)) {
    const names = Object.keys(args);
    const readsApps = tlv === 'APP' && want.apps !== null;
    const text = run('lldptool', ['-t', '-i', iface, '-V', tlv, '-c', ...names, ...(readsApps ? ['app'] : [])]);
    const got = parseLldptoolArgs(text);
    tlvs[tlv] = Object.fromEntries(names.map((n) => [n, got.get(n) ?? null]));
    if (readsApps) apps = parseLldptoolApps(text);
  }
  return { adminStatus: admin, tlvs, apps };
}
