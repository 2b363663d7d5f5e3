// `dcbkit headroom --speed 100G --cable 300m --mtu 9216 [--json] [--profile ieee|sonic|sonic-2023]
// [--interface-delay BT] [--asic spectrumN | --asic-table FILE --lanes N --small-packet-percent N --shared-headroom-pool
// --gearbox-delay T]`: the PFC headroom of one lossless priority (host/analysis/headroom.ts, docs/design.md §4.1). `--json` prints
// {"headroom_bytes": N, "components": {...bits per component...}, ...}; all flags are checked
// before anything is printed (bad flags: `path: rule` on stderr, exit 2).
import type { CommandModule } from 'yargs';
import { InputError, type Problem } from '../errors/errors.js';
import {
  ASIC_NAMES, computeHeadroom, HEADROOM_PROFILES, parseAsicTable, parseInterfaceDelay, SONIC_LOSSLESS_MTU, SONIC_PORT_MTU,
  type AsicName, type HeadroomProfile, type HeadroomResult, type SonicParams,
} from '../analysis/headroom.js';
import { readDocument } from '../config/load.js';
import { parseCable, parseMtu, parsePortSpeed, parseRate, PORT_SPEED_NAMES, quantityCheck } from '../units/units.js';

/** The default --mtu of the ieee profile (the config's port MTU default). */
const IEEE_MTU = 9216;

interface HeadroomArgs {
  speed: string;
  cable: string;
  mtu?: string;
  'lossless-mtu'?: string;
  'asic-table'?: string;
  'interface-delay'?: string;
  profile: string;
  asic?: string;
  lanes?: string;
  'small-packet-percent'?: string;
  'shared-headroom-pool'?: boolean;
  'gearbox-delay'?: string;
  json?: boolean;
}

/** computeHeadroom's input names -> the flags that set them. */
const FLAG_OF: Record<string, string> = {
  speed: '--speed', cable: '--cable', mtu: '--mtu', lossless_mtu: '--lossless-mtu', interface_delay: '--interface-delay', profile: '--profile',
  asic: '--asic', asic_table: '--asic-table', lanes: '--lanes', small_packet_percent: '--small-packet-percent', gearbox_delay: '--gearbox-delay',
};

/** The SONiC plugin flags given on the command line (undefined when none is), checked one by one. */
function sonicFlags(args: HeadroomArgs, problems: Problem[]): Partial<SonicParams> | undefined {
  const p: Partial<SonicParams> = {};
  const before = problems.length;
  if (args.asic !== undefined) {
    if (ASIC_NAMES.includes(args.asic as AsicName)) p.asic = args.asic as AsicName;
    else problems.push({ path: '--asic', rule: `must be one of ${ASIC_NAMES.join(', ')} (got "${args.asic}")` });
  }
  const table = args['asic-table'];
  if (table !== undefined) {
    if (args.asic !== undefined) problems.push({ path: '--asic-table', rule: 'give --asic (a preset) or --asic-table (an ASIC_TABLE entry), not both' });
    try {
      p.asicTable = parseAsicTable(readDocument(table), '--asic-table');
      p.asic = 'custom';
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      problems.push(...e.problems.map((q) => (q.path === table ? { path: '--asic-table', rule: `${table}: ${q.rule}` } : q)));
    }
  }
  if (args.lanes !== undefined) {
    if (/^\d{1,2}$/.test(args.lanes.trim()) && Number(args.lanes) >= 1 && Number(args.lanes) <= 64) p.lanes = Number(args.lanes);
    else problems.push({ path: '--lanes', rule: `must be a whole number of lanes 1..64; only 8 changes the result (got "${args.lanes}")` });
  }
  const percent = args['small-packet-percent'];
  if (percent !== undefined) {
    if (/^\d{1,3}$/.test(percent.trim()) && Number(percent) <= 100) p.smallPacketPercent = Number(percent);
    else problems.push({ path: '--small-packet-percent', rule: `must be a whole percentage 0..100 (got "${percent}")` });
  }
  if (args['shared-headroom-pool']) p.sharedHeadroomPool = true; // yargs gives an absent boolean as false
  const gearbox = args['gearbox-delay'];
  if (gearbox !== undefined) {
    const { value: ps, rule } = quantityCheck('time', gearbox, 'ns');
    if (ps !== undefined && ps < 1e18) p.gearboxDelayNs = ps / 1e3;
    else problems.push({ path: '--gearbox-delay', rule: rule ?? `must be below 1e9 ns (got "${gearbox}")` });
  }
  if (Object.keys(p).length === 0 && problems.length === before) return undefined;
  if (!args.profile.startsWith('sonic')) {
    problems.push({ path: '--profile', rule: `--asic, --asic-table, --lanes, --small-packet-percent, --shared-headroom-pool and --gearbox-delay apply to the sonic profiles only (got "${args.profile}")` });
  }
  return p;
}

/** Collects every flag problem before failing, so one run reports all of them. */
function parseArgs(args: HeadroomArgs) {
  const problems: Problem[] = [];
  const attempt = <T>(f: () => T): T | undefined => {
    try {
      return f();
    } catch (e) {
      if (e instanceof InputError) problems.push(...e.problems);
      else throw e;
      return undefined;
    }
  };
  const sonic = args.profile.startsWith('sonic');
  // the sonic profiles take any speed the plugin takes (a whole number of Mb/s); ieee needs its speed table
  const speedBps = attempt(() => (sonic ? parseSonicSpeed(String(args.speed)) : parsePortSpeed(String(args.speed), '--speed')));
  const cableM = attempt(() => parseCable(String(args.cable), '--cable'));
  // defaults: what the profile's world ships (SONiC: port MTU 9100, lossless MTU 1024)
  const mtu = attempt(() => parseMtu(args.mtu ?? String(sonic ? SONIC_PORT_MTU : IEEE_MTU), '--mtu'));
  const losslessText = args['lossless-mtu'] ?? (sonic ? String(SONIC_LOSSLESS_MTU) : undefined);
  const losslessMtu = losslessText === undefined ? undefined : attempt(() => parseMtu(losslessText, '--lossless-mtu'));
  const interfaceDelayBt = args['interface-delay'] === undefined ? undefined : attempt(() => parseInterfaceDelay(args['interface-delay']!, '--interface-delay'));
  if (!HEADROOM_PROFILES.includes(args.profile as HeadroomProfile)) {
    problems.push({ path: '--profile', rule: `must be one of ${HEADROOM_PROFILES.join(', ')} (got "${args.profile}")` });
  }
  const sonicParams = sonicFlags(args, problems);
  if (problems.length) throw new InputError(problems);
  return { speedBps: speedBps!, cableM: cableM!, mtu: mtu!, losslessMtu, interfaceDelayBt, profile: args.profile as HeadroomProfile, sonic: sonicParams };
}

/** A speed for the sonic profiles: any rate (100M, 1G, 2.5G, 100G) that is a whole number of Mb/s. */
function parseSonicSpeed(text: string): number {
  const bps = parseRate(text);
  if (bps === undefined || !(bps >= 1e6 && bps <= 1.6e12 && Number.isInteger(bps / 1e6))) {
    throw new InputError({ path: '--speed', rule: `must be a speed like 100M, 1G, 100G (a whole number of Mb/s up to 1.6T) (got ${JSON.stringify(text)})` });
  }
  return bps;
}

/** 100M, 2.5G, 100G: the speed as a person writes it. */
const speedText = (bps: number) => (bps < 1e9 ? `${bps / 1e6}M` : `${bps / 1e9}G`);

function human(r: HeadroomResult): string {
  const lines = [`headroom (${r.profile}) at ${speedText(r.speed_bps)}, ${r.cable_m} m cable, MTU ${r.mtu}` +
    (r.lossless_mtu !== r.mtu ? `, lossless MTU ${r.lossless_mtu}` : '')];
  const width = Math.max(...Object.keys(r.components).map((k) => k.length));
  for (const [k, bits] of Object.entries(r.components)) {
    lines.push(`  ${k.padEnd(width)}  ${String(bits).padStart(9)} bits  ${String(Math.ceil(bits / 8)).padStart(7)} B`);
  }
  if (r.profile === 'ieee') {
    lines.push(`  ${'total'.padEnd(width)}  ${String(r.total_bits).padStart(9)} bits`);
    lines.push(`headroom: ${r.headroom_bytes} B`);
  } else {
    const p = r.sonic!;
    const asic = p.asicTable ? `ASIC_TABLE ${p.asicTable.key} (cell ${p.asicTable.cellBytes} B)` : p.asic;
    lines.push(`  ${asic}, ${p.lanes} lanes, small packets ${p.smallPacketPercent} %, shared headroom pool ${p.sharedHeadroomPool ? 'on' : 'off'}`);
    if (r.peer_response_from) lines.push(`  peer response: the ASIC's peer_response_time (no pause quanta for ${speedText(r.speed_bps)} in the plugin's table)`);
    lines.push(`  cell occupancy factor ${r.cell_occupancy}`);
    lines.push(`headroom (xoff): ${r.xoff_bytes} B, xon: ${r.xon_bytes} B, size: ${r.size_bytes} B`);
  }
  for (const a of r.assumptions) lines.push(`note: ${a}`);
  return lines.join('\n') + '\n';
}

export const headroomCommand: CommandModule<object, HeadroomArgs> = {
  command: 'headroom',
  describe: 'PFC headroom for one lossless priority (bytes above the XOFF threshold)',
  builder: (y) =>
    y
      .option('speed', { type: 'string', demandOption: true, describe: `port speed: ${PORT_SPEED_NAMES.join(' ')}; the sonic profiles: any whole Mb/s, e.g. 100M, 1G` })
      .option('cable', { type: 'string', demandOption: true, describe: 'cable length, e.g. 300m or 2km' })
      .option('mtu', { type: 'string', describe: `largest frame, bytes (both frame terms; SONiC's port mtu). Default ${IEEE_MTU}; ${SONIC_PORT_MTU} with the sonic profiles, as SONiC ships` })
      .option('lossless-mtu', { type: 'string', describe: `largest lossless frame when smaller than --mtu. Default --mtu; ${SONIC_LOSSLESS_MTU} with the sonic profiles (SONiC's LOSSLESS_TRAFFIC_PATTERN mtu), where a value above --mtu is computed as the plugin does, with a warning` })
      .option('interface-delay', { type: 'string', describe: 'interface delay of one end, bit times (replaces the speed table figure; ieee profile)' })
      .option('profile', { type: 'string', default: 'ieee', describe: "ieee (component model) | sonic (SONiC's Mellanox plugin, current) | sonic-2023 (the plugin before Sept 2024); the sonic profiles start from SONiC's shipped inputs: port MTU 9100, lossless MTU 1024, 50 % small packets, Spectrum-1, 4 lanes" })
      .option('asic', { type: 'string', describe: `sonic profiles: ${ASIC_NAMES.join(' ')} (default spectrum1)` })
      .option('asic-table', { type: 'string', describe: 'sonic profiles: a file (YAML/JSON) with one ASIC_TABLE entry, {"NAME": {cell_size, pipeline_latency, mac_phy_delay, peer_response_time}}, for an ASIC without a preset' })
      .option('lanes', { type: 'string', describe: 'sonic profiles: lanes of the port (default 4; only 8 changes the result)' })
      .option('small-packet-percent', { type: 'string', describe: 'sonic profiles: share of 64 B frames in lossless traffic, 0..100 (default 50, as SONiC ships)' })
      .option('shared-headroom-pool', { type: 'boolean', describe: 'sonic profiles: the shared headroom pool is on (PG size = xon)' })
      .option('gearbox-delay', { type: 'string', describe: 'sonic profiles: gearbox delay, e.g. 40ns (default 0)' })
      .option('json', { type: 'boolean', describe: 'one JSON document on stdout' }) as never,
  handler: (args) => {
    let r: HeadroomResult;
    try {
      r = computeHeadroom(parseArgs(args));
    } catch (e) {
      // the library names its inputs; on the command line they are the flags
      if (e instanceof InputError) throw new InputError(e.problems.map((p) => ({ ...p, path: p.path.startsWith('--') ? p.path : FLAG_OF[p.path] ?? p.path })));
      throw e;
    }
    for (const w of r.warnings ?? []) process.stderr.write(`warning: ${FLAG_OF[w.path] ?? w.path}: ${w.rule}\n`);
    process.stdout.write(args.json ? JSON.stringify(r) + '\n' : human(r));
  },
};
