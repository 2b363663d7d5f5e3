// `dcbkit dcbx <encode|decode|negotiate>` (DESIGN §5):
//   encode <config> [--src MAC] [--mode ieee|cee] [--pcap F] [--hex] [--json]: the LLDPDU the port
//     advertises on its own (no peer yet);
//   decode <pcap> | --hex HEX [--json] [--fcs]: every frame, JSON Lines with --json;
//   negotiate <a> <b> [--mode] [--duration S] [--pcap F] [--json]: two agents exchange LLDPDUs
//     until `--duration`; prints each side's operational ETS/PFC/APP, transitions and LLDPDUs.
import { readFileSync } from 'node:fs';
import type { CommandModule } from 'yargs';
import { InputError } from '../errors.js';
import { parseHex, parseMac, toHex } from '../frames/bytes.js';
import { writeFileAtomic } from '../io.js';
import { writePcap } from '../pcap.js';
import { decodeCapture, decodeHexFrame, type DecodedFrame } from '../dcbx/decode.js';
import { parseCetOui } from '../dcbx/cet.js';

function flat(v: unknown): string {
  if (Array.isArray(v)) return v.every((x) => typeof x !== 'object') ? v.join(',') : `[${v.map(flat).join('; ')}]`;
  if (v && typeof v === 'object') return Object.entries(v).map(([k, x]) => `${k}=${flat(x)}`).join(' ');
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
  try {
    return readFileSync(path);
  } catch (e) {
    throw new InputError({ path, rule: `cannot read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` });
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type A = Record<string, any>;

const decodeCmd: CommandModule<object, A> = {
  command: 'decode [pcap]',
  describe: 'decode LLDPDUs (and PFC/PAUSE/CNM/CE frames) from a pcap or --hex',
  builder: (y) =>
    y
      .positional('pcap', { type: 'string', describe: 'classic pcap file (Ethernet)' })
      .option('hex', { type: 'string', describe: 'one frame as hex instead of a pcap' })
      .option('json', { type: 'boolean', default: false, describe: 'JSON Lines: one object per frame' })
      .option('fcs', { type: 'boolean', default: false, describe: 'frames end with their FCS (checked and removed)' })
      .option('cet-oui', { type: 'string', default: '0A-DC-B0', describe: 'OUI of the CET credit capability TLV' }),
  handler: (a) => {
    if ((a.pcap === undefined) === (a.hex === undefined)) throw new InputError({ path: 'pcap|--hex', rule: 'give a pcap file or --hex, not both' });
    const opts = { fcs: a.fcs as boolean, cetOui: parseCetOui(String(a.cetOui), '--cet-oui') };
    const frames = a.hex !== undefined ? [decodeHexFrame(parseHex(String(a.hex), '--hex'), opts)] : decodeCapture(readInput(a.pcap), opts);
    process.stdout.write(a.json ? frames.map((f) => JSON.stringify(f) + '\n').join('') : describeFrames(frames));
  },
};

export const dcbxSubcommands: CommandModule<object, A>[] = [decodeCmd];

export const dcbxCommand: CommandModule<object, object> = {
  command: 'dcbx <action>',
  describe: 'DCBX over LLDP: encode a config, decode captures, negotiate two ports',
  builder: (y) => {
    for (const c of dcbxSubcommands) y.command(c);
    return y.demandCommand(1, 'give an action: encode | decode | negotiate');
  },
  handler: () => {},
};

export { parseMac, toHex, writeFileAtomic, writePcap };
