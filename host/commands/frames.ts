// `dcbkit frames <pfc|pause|cnm|ce>`: builds one control frame (docs/design.md §5) and writes it as a pcap
// (--pcap FILE, atomically) and/or prints its hex (--hex; the default when no --pcap is given).
// --json prints {"frame": {...decoded fields...}, "hex": "..."} instead of the bare hex line.
import type { Argv, CommandModule } from 'yargs';
import { InputError } from '../errors/errors.js';
import { toHex } from '../frames/bytes.js';
import { encodeFrame, type ControlFrame } from '../frames/index.js';
import { writeFileAtomic } from '../io/output.js';
import { writePcap } from '../capture/pcap.js';
import { parseMac } from '../frames/bytes.js';
import { parseSourceMac } from '../units/units.js';

export const DEFAULT_SRC = '02:00:00:00:00:01';
export const MAC_CONTROL_DST = '01:80:c2:00:00:01';

/** Parses `3:65535,4:4660` into priority -> value (each value 0..max). */
export function parsePrioValues(text: string, path: string, max = 0xffff): Map<number, number> {
  const out = new Map<number, number>();
  if (text.trim() === '') return out;
  for (const item of text.split(',')) {
    const m = /^\s*([0-7])\s*:\s*(0x[0-9a-fA-F]+|\d+)\s*$/.exec(item);
    if (!m) throw new InputError({ path, rule: `"${item}" is not priority:value (priority 0..7, value an integer)` });
    const p = Number(m[1]);
    const v = Number(m[2]);
    if (v > max) throw new InputError({ path, rule: `value ${v} for priority ${p} exceeds ${max}` });
    if (out.has(p)) throw new InputError({ path, rule: `priority ${p} is given twice` });
    out.set(p, v);
  }
  return out;
}

function intArg(v: unknown, path: string, lo: number, hi: number): number {
  const n = typeof v === 'string' && /^0x[0-9a-f]+$/i.test(v) ? parseInt(v, 16) : Number(v);
  if (!Number.isInteger(n) || n < lo || n > hi) throw new InputError({ path, rule: `${String(v)} is not an integer ${lo}..${hi}` });
  return n;
}

function vector(map: Map<number, number>): number[] {
  const v = new Array<number>(8).fill(0);
  for (const [p, x] of map) v[p] = x;
  return v;
}

interface OutArgs {
  pcap?: string;
  hex?: boolean;
  json?: boolean;
  fcs?: boolean;
}

/** Library form: the frame's bytes (with FCS when asked). */
export function buildFrameBytes(frame: ControlFrame, fcs = false): Uint8Array {
  return encodeFrame(frame, { fcs });
}

function emit(frame: ControlFrame, args: OutArgs | A): void {
  const bytes = buildFrameBytes(frame, args.fcs);
  if (args.pcap !== undefined) writeFileAtomic(args.pcap, writePcap([{ t_ps: 0n, data: bytes }]), '--pcap');
  if (args.json) process.stdout.write(JSON.stringify({ frame, hex: toHex(bytes) }) + '\n');
  else if (args.hex || args.pcap === undefined) process.stdout.write(toHex(bytes) + '\n');
}

function common<T>(y: Argv<T>): Argv<T> {
  return y
    .option('src', { type: 'string', default: DEFAULT_SRC, describe: 'source MAC (the port MAC)' })
    .option('pcap', { type: 'string', describe: 'write the frame to this pcap file' })
    .option('hex', { type: 'boolean', describe: 'print the frame as hex (default without --pcap)' })
    .option('fcs', { type: 'boolean', default: false, describe: 'append the 4-byte FCS (64-byte frame)' })
    .option('json', { type: 'boolean', default: false, describe: 'print {frame, hex} as JSON' }) as Argv<T>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type A = Record<string, any>;

const subcommands: CommandModule<object, A>[] = [
  {
    command: 'pfc',
    describe: 'PFC frame (802.1Qbb): --pause prio:quanta,...',
    builder: (y) => common(y).option('pause', { type: 'string', demandOption: true, describe: 'e.g. 3:65535,4:4660 (0 = XON)' })
      .option('dst', { type: 'string', default: MAC_CONTROL_DST }),
    handler: (a) => {
      const pause = parsePrioValues(String(a.pause), '--pause');
      if (pause.size === 0) throw new InputError({ path: '--pause', rule: 'name at least one priority' });
      parseSourceMac(a.src, '--src');
      parseMac(a.dst, '--dst');
      emit({ kind: 'pfc', dst: a.dst, src: a.src, enable: [...pause.keys()].sort(), time: vector(pause) }, a);
    },
  },
  {
    command: 'pause',
    describe: '802.3x PAUSE frame: --time quanta (0 = resume)',
    builder: (y) => common(y).option('time', { type: 'string', demandOption: true }).option('dst', { type: 'string', default: MAC_CONTROL_DST }),
    handler: (a) => {
      parseSourceMac(a.src, '--src');
      parseMac(a.dst, '--dst');
      emit({ kind: 'pause', dst: a.dst, src: a.src, time: intArg(a.time, '--time', 0, 0xffff) }, a);
    },
  },
  {
    command: 'cnm',
    describe: 'QCN congestion notification message (802.1Qau)',
    builder: (y) => common(y)
      .option('qf', { type: 'string', demandOption: true, describe: 'quantized feedback 0..63' })
      .option('dst', { type: 'string', demandOption: true, describe: 'the reaction point (source of the sampled frame)' })
      .option('cpid', { type: 'string', default: '0000000000000000', describe: 'congestion point id, 16 hex digits' })
      .option('qoff', { type: 'string', default: '0', describe: 'cnmQOffset, raw signed 16-bit' })
      .option('qdelta', { type: 'string', default: '0', describe: 'cnmQDelta, raw signed 16-bit' })
      .option('prio', { type: 'string', default: '0', describe: 'encapsulated priority 0..7' })
      .option('encap-dst', { type: 'string', default: '00:00:00:00:00:00', describe: 'destination MAC of the sampled frame' })
      .option('vlan', { type: 'string', describe: 'VLAN id of the sampled frame (tag copied with --prio as PCP)' }),
    handler: (a) => {
      parseSourceMac(a.src, '--src');
      parseMac(a.dst, '--dst');
      parseMac(a.encapDst, '--encap-dst');
      const cpid = String(a.cpid).replace(/^0x/i, '');
      if (!/^[0-9a-fA-F]{16}$/.test(cpid)) throw new InputError({ path: '--cpid', rule: 'must be 16 hex digits (8 octets)' });
      const prio = intArg(a.prio, '--prio', 0, 7);
      const frame: ControlFrame = {
        kind: 'cnm', dst: a.dst, src: a.src,
        ...(a.vlan !== undefined ? { vlan: { pcp: prio, dei: 0, vid: intArg(a.vlan, '--vlan', 0, 4095) } } : {}),
        qf: intArg(a.qf, '--qf', 0, 63), cpid: cpid.toLowerCase(),
        q_off: intArg(a.qoff, '--qoff', -32768, 32767), q_delta: intArg(a.qdelta, '--qdelta', -32768, 32767),
        encap_priority: prio, encap_dst: a.encapDst, encap_msdu: '',
      };
      emit(frame, a);
    },
  },
  {
    command: 'ce',
    describe: 'credit-exchange frame: --grant --cl prio:CL,... | --sync --tbs prio:TBS,... [--request prio:units,...]',
    builder: (y) => common(y)
      .option('grant', { type: 'boolean', describe: 'opcode 0x0111: absolute credit limits' })
      .option('sync', { type: 'boolean', describe: 'opcode 0x0110: total blocks sent (and requests)' })
      .option('channel', { type: 'string', default: '0', describe: '16-bit channel id' })
      .option('cl', { type: 'string', describe: 'grant: prio:CL,...' })
      .option('tbs', { type: 'string', describe: 'sync: prio:TBS,...' })
      .option('request', { type: 'string', describe: 'sync: prio:units,...' })
      .option('dst', { type: 'string', default: MAC_CONTROL_DST }),
    handler: (a) => {
      if (!!a.grant === !!a.sync) throw new InputError({ path: '--grant|--sync', rule: 'give exactly one of --grant and --sync' });
      parseSourceMac(a.src, '--src');
      parseMac(a.dst, '--dst');
      const channel = intArg(a.channel, '--channel', 0, 0xffff);
      if (a.grant) {
        if (a.tbs !== undefined || a.request !== undefined) throw new InputError({ path: '--tbs|--request', rule: 'only with --sync' });
        const cl = parsePrioValues(String(a.cl ?? ''), '--cl');
        if (cl.size === 0) throw new InputError({ path: '--cl', rule: 'a grant names at least one priority (prio:CL)' });
        emit({ kind: 'ce-grant', dst: a.dst, src: a.src, channel, enable: [...cl.keys()].sort(), cl: vector(cl) }, a);
      } else {
        if (a.cl !== undefined) throw new InputError({ path: '--cl', rule: 'only with --grant' });
        const tbs = parsePrioValues(String(a.tbs ?? ''), '--tbs');
        const req = parsePrioValues(String(a.request ?? ''), '--request');
        const enable = [...new Set([...tbs.keys(), ...req.keys()])].sort();
        if (enable.length === 0) throw new InputError({ path: '--tbs', rule: 'a sync names at least one priority (prio:TBS)' });
        emit({ kind: 'ce-sync', dst: a.dst, src: a.src, channel, enable, tbs: vector(tbs), request: vector(req) }, a);
      }
    },
  },
];

export const framesCommand: CommandModule<object, object> = {
  command: 'frames <kind>',
  describe: 'build a PFC, PAUSE, CNM or credit-exchange frame (--pcap FILE, --hex)',
  builder: (y) => {
    for (const c of subcommands) y.command(c);
    return y.demandCommand(1, 'give a frame kind: pfc | pause | cnm | ce');
  },
  handler: () => {},
};
