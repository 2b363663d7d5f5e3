// `dcbkit dcbx <encode|decode|negotiate>` (docs/design.md §5):
//   encode <config> [--src MAC] [--mode ieee|cee] [--pcap F] [--hex] [--json]: the LLDPDU the port
//     advertises on its own (no peer yet);
//   decode <pcap> | --hex HEX [--json] [--fcs]: every frame, JSON Lines with --json;
//   negotiate <a> <b> [--mode] [--duration S] [--pcap F] [--json]: two agents exchange LLDPDUs
//     until `--duration`; prints each side's operational ETS/PFC/APP, transitions and LLDPDUs.
import { readInputBytes } from '../io/input.js';
import type { CommandModule } from 'yargs';
import { InputError } from '../errors/errors.js';
import { DecodeError, parseHex, toHex } from '../frames/bytes.js';
import { parseSourceMac } from '../units/units.js';
import { quantityCheck } from '../units/grammar.js';
import { writeFileAtomic } from '../io/output.js';
import { writePcap } from '../capture/pcap.js';
import { decodeCapture, decodeHexFrame, decodeRecord, problem as decodeProblem, type DecodedFrame } from '../dcbx/decode.js';
import { CaptureStream } from '../capture/pcap-stream.js';
import { parseCetOui } from '../dcbx/cet.js';
import { loadConfig, type DcbConfig } from '../config/index.js';
import { formatProblem, type Problem } from '../errors/errors.js';
import { appendFcs } from '../frames/fcs.js';
import { checkAdvertisable, encodeConfigLldpdu, type DcbxMode } from '../dcbx/advertise.js';
import { simulate, type SimResult } from '../dcbx/simulate.js';

function flat(v: unknown, nested = false): string {
  if (Array.isArray(v)) return v.every((x) => typeof x !== 'object') ? v.join(',') : `[${v.map((x) => flat(x)).join('; ')}]`;
  if (v && typeof v === 'object') {
    const body = Object.entries(v).map(([k, x]) => `${k}=${flat(x, true)}`).join(' ');
    return nested ? `{${body}}` : body;
  }
  return String(v);
}

/** Human-readable form of decoded frames: one header line per frame, one line per TLV. */
export function describeFrames(frames: DecodedFrame[]): string {
  const out: string[] = [];
  for (const f of frames) {
    const { frame, t_ps, kind, tlvs, ...rest } = f;
    out.push(`frame ${frame}${t_ps !== undefined ? ` t=${t_ps} ps` : ''} ${kind} ${flat(rest)}`);
    if (Array.isArray(tlvs)) for (const t of tlvs as Record<string, unknown>[]) {
      const { type, ...body } = t;
      out.push(`  ${String(type)} ${flat(body)}`);
    }
  }
  return out.join('\n') + (out.length ? '\n' : '');
}

function readInput(path: string): Uint8Array {
  return readInputBytes(path, path, 'capture');
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type A = Record<string, any>;

const decodeCmd: CommandModule<object, A> = {
  command: 'decode [pcap]',
  describe: 'decode LLDPDUs (and PFC/PAUSE/CNM/CE frames) from a pcap or pcapng file or --hex',
  builder: (y) =>
    y
      .positional('pcap', { type: 'string', describe: "pcap or pcapng file, or '-' for a stream on stdin printed as it arrives (frames other than LLDP and DCB control frames are skipped and counted; non-Ethernet interfaces are skipped with a warning)" })
      .option('hex', { type: 'string', describe: 'one frame as hex instead of a pcap' })
      .option('json', { type: 'boolean', default: false, describe: 'JSON Lines: one object per frame' })
      .option('fcs', { type: 'boolean', default: false, describe: 'frames end with their FCS (checked and removed)' })
      .option('cet-oui', { type: 'string', default: '0A-DC-B0', describe: 'OUI of the CET credit capability TLV' }),
  handler: async (a) => {
    if ((a.pcap === undefined) === (a.hex === undefined)) {
      throw new InputError({ path: 'pcap|--hex', rule: a.pcap === undefined ? 'required: give a pcap file or --hex HEX' : 'give a pcap file or --hex, not both' });
    }
    const opts = { fcs: a.fcs as boolean, cetOui: parseCetOui(String(a.cetOui), '--cet-oui'), warn: (w: Problem) => process.stderr.write(`warning: ${formatProblem(w)}\n`) };
    const show = (frames: DecodedFrame[]) => (a.json ? frames.map((f) => JSON.stringify(f) + '\n').join('') : describeFrames(frames));
    // yargs hands a lone '-' over as an empty string (no file has an empty name)
    if (a.pcap === '-' || a.pcap === '') {
      await decodeStdin(opts, (frames) => process.stdout.write(show(frames)), (skipped) => process.stdout.write(skippedLine(skipped, a.json as boolean)));
      return;
    }
    const { frames, skipped } = a.hex !== undefined ? { frames: [decodeHexFrame(parseHex(String(a.hex), '--hex'), opts)], skipped: 0 } : decodeCapture(readInput(a.pcap), opts);
    process.stdout.write(show(frames) + skippedLine(skipped, a.json as boolean));
  },
};

/** The closing line when frames were skipped: `{"skipped": N}` (JSON Lines) or `skipped: N ...`. */
function skippedLine(skipped: number, json: boolean): string {
  if (skipped === 0) return '';
  return json ? JSON.stringify({ skipped }) + '\n' : `skipped: ${skipped} frame(s) that are not LLDP or DCB control frames\n`;
}

/**
 * `dcbx decode -`: a pcap or pcapng stream on stdin, each LLDP/DCB frame printed as its record
 * completes (host/capture/pcap-stream.ts); the skipped count closes the output when the stream ends. A bad
 * record stops the command with exit 2 after the frames before it were printed.
 */
async function decodeStdin(opts: Parameters<typeof decodeRecord>[2] & { warn: (p: Problem) => void }, print: (f: DecodedFrame[]) => void, done: (skipped: number) => void): Promise<void> {
  const stream = new CaptureStream();
  let index = 0;
  let skipped = 0;
  let warned = 0;
  const emit = (records: ReturnType<CaptureStream['push']>) => {
    for (; warned < stream.warnings.length; warned++) opts.warn(stream.warnings[warned]);
    const frames: DecodedFrame[] = [];
    for (const r of records) {
      const f = decodeRecord(r, index++, opts);
      if (f) frames.push(f);
      else skipped++;
    }
    if (frames.length) print(frames);
  };
  try {
    for await (const chunk of process.stdin) emit(stream.push(chunk as Uint8Array));
    stream.end();
    emit([]); // the warnings end() completed
  } catch (e) {
    if (e instanceof DecodeError) throw decodeProblem('stdin', e);
    throw e;
  }
  done(skipped);
}

/** Loads a config for DCBX; problems name the file when two configs are involved. */
function loadPort(path: string, label?: string): DcbConfig {
  try {
    const { config, warnings } = loadConfig(path);
    for (const w of warnings) process.stderr.write(`warning: ${label ? `${label}: ` : ''}${formatProblem(w)}\n`);
    return config;
  } catch (e) {
    if (e instanceof InputError && label) throw new InputError(e.problems.map((p) => ({ path: p.path.startsWith(path) ? p.path : `${label}: ${p.path}`, rule: p.rule })));
    throw e;
  }
}

function modeOf(a: A, cfg: DcbConfig): DcbxMode {
  if (a.mode !== undefined && a.mode !== 'ieee' && a.mode !== 'cee') throw new InputError({ path: '--mode', rule: 'must be ieee or cee' });
  return (a.mode as DcbxMode | undefined) ?? (cfg.pg ? 'cee' : 'ieee');
}

function withLabel<T>(label: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof InputError) throw new InputError(e.problems.map((p) => ({ path: `${label}: ${p.path}`, rule: p.rule })));
    throw e;
  }
}

const encodeCmd: CommandModule<object, A> = {
  command: 'encode <config>',
  describe: 'the LLDPDU (IEEE 802.1Qaz or CEE DCBX TLVs) a port with this config advertises',
  builder: (y) =>
    y
      .positional('config', { type: 'string', demandOption: true })
      .option('src', { type: 'string', describe: 'source MAC (default port.mac)' })
      .option('mode', { type: 'string', describe: 'ieee | cee (default: cee when the config has pg, else ieee)' })
      .option('pcap', { type: 'string', describe: 'write the LLDPDU to this pcap file' })
      .option('hex', { type: 'boolean', describe: 'print the frame as hex (default without --pcap)' })
      .option('fcs', { type: 'boolean', default: false, describe: 'append the FCS' })
      .option('json', { type: 'boolean', default: false, describe: 'print {lldpdu, hex} as JSON' }),
  handler: (a) => {
    const cfg = loadPort(a.config);
    // A source address, as in configs and `frames --src`: unicast and not all zeros (host/units/units.ts).
    if (a.src !== undefined) parseSourceMac(a.src, '--src');
    const mode = modeOf(a, cfg);
    let bytes = encodeConfigLldpdu(cfg, mode, a.src);
    if (a.fcs) bytes = appendFcs(bytes);
    if (a.pcap !== undefined) writeFileAtomic(a.pcap, writePcap([{ t_ps: 0n, data: bytes }]), '--pcap');
    if (a.json) {
      const [frame] = decodeCapture(writePcap([{ t_ps: 0n, data: bytes }]), { fcs: a.fcs }).frames;
      process.stdout.write(JSON.stringify({ mode, lldpdu: frame, hex: toHex(bytes) }) + '\n');
    } else if (a.hex || a.pcap === undefined) process.stdout.write(toHex(bytes) + '\n');
  },
};

/** The JSON document of `dcbx negotiate --json`. */
export function negotiationJson(r: SimResult): object {
  return {
    mode: r.mode,
    ...r.agents,
    settled_ps: r.settled_ps,
    transitions: r.log,
    lldpdus: r.lldpdus.map((p) => ({ t_ps: p.t_ps, from: p.from, to: p.to, delivered: p.delivered, hex: toHex(p.bytes) })),
  };
}

function describeNegotiation(r: SimResult): string {
  const out: string[] = [`mode ${r.mode}, settled at ${r.settled_ps} ps, ${r.lldpdus.length} LLDPDUs exchanged`];
  for (const [name, rep] of Object.entries(r.agents)) {
    const o = rep.operational;
    out.push(`${name}: ETS prio_tc=${o.ets.prio_tc.join(',')} tsa=${o.ets.tsa.join(',')} bw=${o.ets.bw.join(',')}; PFC enable=${o.pfc.enable.join(',') || '-'}; APP ${o.app.map((e) => `${String(e.selector)}:${e.protocol}->${e.priority}`).join(' ') || '-'}`);
    out.push(`  state ${JSON.stringify(rep.state)}; peer ${rep.peer ? rep.peer.mac : 'none'}; sent ${rep.lldpdus_sent}, received ${rep.lldpdus_received}`);
    for (const m of rep.mismatches) out.push(`  MISMATCH ${m.feature}: local ${JSON.stringify(m.local)} vs peer ${JSON.stringify(m.peer)} (${m.rule})`);
  }
  for (const e of r.log) {
    if (e.event === 'transition') continue;
    const detail = e.feature ? ` ${e.feature} local=${JSON.stringify(e.local)} peer=${JSON.stringify(e.peer)}` : e.reason ? ` ${e.reason}` : '';
    out.push(`t=${e.t_ps} ps ${e.agent} ${e.event}${detail}`);
  }
  return out.join('\n') + '\n';
}

const negotiateCmd: CommandModule<object, A> = {
  command: 'negotiate <a> <b>',
  describe: 'simulate two ports exchanging LLDPDUs; print the operational ETS/PFC/APP of each',
  builder: (y) =>
    y
      .positional('a', { type: 'string', demandOption: true })
      .positional('b', { type: 'string', demandOption: true })
      .option('mode', { type: 'string', describe: 'ieee | cee (default: cee when both configs have pg, else ieee)' })
      .option('duration', { type: 'string', default: '60s', describe: 'simulated time, e.g. 60s or 500ms (docs/units.md)' })
      .option('pcap', { type: 'string', describe: 'write every LLDPDU exchanged to this pcap' })
      .option('json', { type: 'boolean', default: false }),
  handler: (a) => {
    const ca = loadPort(a.a, 'a');
    const cb = loadPort(a.b, 'b');
    const { value: durationPs, rule } = quantityCheck('time', String(a.duration), 's');
    if (durationPs === undefined) throw new InputError({ path: '--duration', rule: rule! });
    if (!(durationPs > 0 && durationPs <= 3600e12)) throw new InputError({ path: '--duration', rule: `must be above 0 and at most 3600s (got "${a.duration}")` });
    const mode = a.mode !== undefined ? modeOf(a, ca) : ca.pg && cb.pg ? 'cee' : 'ieee';
    withLabel('a', () => checkAdvertisable(ca, mode));
    withLabel('b', () => checkAdvertisable(cb, mode));
    const r = simulate([{ name: 'a', cfg: ca }, { name: 'b', cfg: cb }], { mode, duration_ps: durationPs });
    if (a.pcap !== undefined) writeFileAtomic(a.pcap, writePcap(r.lldpdus.map((p) => ({ t_ps: BigInt(p.t_ps), data: p.bytes }))), '--pcap');
    process.stdout.write(a.json ? JSON.stringify(negotiationJson(r)) + '\n' : describeNegotiation(r));
  },
};

export const dcbxSubcommands: CommandModule<object, A>[] = [encodeCmd, decodeCmd, negotiateCmd];

export const dcbxCommand: CommandModule<object, object> = {
  command: 'dcbx <action>',
  describe: 'DCBX over LLDP: encode a config, decode captures, negotiate two ports',
  builder: (y) => {
    for (const c of dcbxSubcommands) y.command(c);
    return y.demandCommand(1, 'give an action: encode | decode | negotiate');
  },
  handler: () => {},
};


// The library form of `dcbx encode` lives with the advertising rules; re-exported for callers
// that imported it from here.
export { encodeConfigLldpdu } from '../dcbx/advertise.js';
