// `dcbkit headroom --speed 100G --cable 300m --mtu 9216 [--json] [--profile ieee|sonic] [--interface-delay BT]`:
// the PFC headroom of one lossless priority (host/headroom.ts, DESIGN.md §4.1). `--json` prints
// {"headroom_bytes": N, "components": {...bits per component...}, ...}; all flags are checked
// before anything is printed (bad flags: `path: rule` on stderr, exit 2).
import type { CommandModule } from 'yargs';
import { InputError, type Problem } from '../errors.js';
import {
  computeHeadroom, HEADROOM_PROFILES, parseCable, parseInterfaceDelay, parseMtu, parseSpeed, speedLabel,
  type HeadroomProfile, type HeadroomResult,
} from '../headroom.js';

interface HeadroomArgs {
  speed: string;
  cable: string;
  mtu: string;
  'lossless-mtu'?: string;
  'interface-delay'?: string;
  profile: string;
  json?: boolean;
}

/** computeHeadroom's input names -> the flags that set them. */
const FLAG_OF: Record<string, string> = {
  speed: '--speed', cable: '--cable', mtu: '--mtu', lossless_mtu: '--lossless-mtu', interface_delay: '--interface-delay', profile: '--profile',
};

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
  const speedBps = attempt(() => parseSpeed(String(args.speed), '--speed'));
  const cableM = attempt(() => parseCable(String(args.cable), '--cable'));
  const mtu = attempt(() => parseMtu(args.mtu, '--mtu'));
  const losslessMtu = args['lossless-mtu'] === undefined ? undefined : attempt(() => parseMtu(args['lossless-mtu']!, '--lossless-mtu'));
  const interfaceDelayBt = args['interface-delay'] === undefined ? undefined : attempt(() => parseInterfaceDelay(args['interface-delay']!, '--interface-delay'));
  if (!HEADROOM_PROFILES.includes(args.profile as HeadroomProfile)) {
    problems.push({ path: '--profile', rule: `must be one of ${HEADROOM_PROFILES.join(', ')} (got "${args.profile}")` });
  }
  if (problems.length) throw new InputError(problems);
  return { speedBps: speedBps!, cableM: cableM!, mtu: mtu!, losslessMtu, interfaceDelayBt, profile: args.profile as HeadroomProfile };
}

function human(r: HeadroomResult): string {
  const lines = [`headroom (${r.profile}) at ${speedLabel(r.speed_bps)}, ${r.cable_m} m cable, MTU ${r.mtu}` +
    (r.lossless_mtu !== r.mtu ? `, lossless MTU ${r.lossless_mtu}` : '')];
  const width = Math.max(...Object.keys(r.components).map((k) => k.length));
  for (const [k, bits] of Object.entries(r.components)) {
    lines.push(`  ${k.padEnd(width)}  ${String(bits).padStart(9)} bits  ${String(Math.ceil(bits / 8)).padStart(7)} B`);
  }
  if (r.profile === 'ieee') {
    lines.push(`  ${'total'.padEnd(width)}  ${String(r.total_bits).padStart(9)} bits`);
    lines.push(`headroom: ${r.headroom_bytes} B`);
  } else {
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
      .option('speed', { type: 'string', demandOption: true, describe: 'port speed: 10G 25G 40G 50G 100G 200G 400G' })
      .option('cable', { type: 'string', demandOption: true, describe: 'cable length, e.g. 300m or 2km' })
      .option('mtu', { type: 'string', default: '9216', describe: 'largest frame, bytes (both frame terms)' })
      .option('lossless-mtu', { type: 'string', describe: 'largest lossless frame when smaller than --mtu' })
      .option('interface-delay', { type: 'string', describe: 'interface delay of one end, bit times (replaces the speed table figure; ieee profile)' })
      .option('profile', { type: 'string', default: 'ieee', describe: 'ieee (component model) | sonic (Mellanox plugin formula)' })
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
    process.stdout.write(args.json ? JSON.stringify(r) + '\n' : human(r));
  },
};
