// `dcbkit codegen <config> [--device D] [--device-id N] [--max-share-error PP] [--dpdk-api sched,tm]
//  --target sonic|p4|linux|c-header|lldp|dpdk|sv|all --out DIR [--json]`:
// emits the tables and registers of every requested target from one IR (codegen/), plus
// manifest.json. Every problem of every named target is reported (exit 2, `target: path: rule`)
// before anything is written; a target only `all` brought in that cannot hold the config is left
// out and named, with why, on stdout and in manifest.json's `skipped`. The output tree appears all
// at once or not at all.
import type { CommandModule } from 'yargs';
import { loadConfig } from '../config/index.js';
import { CODEGEN_OUTPUT, checkOutDir, writeTreeAtomicAsync } from '../io/output.js';
import { withStopSignals } from '../io/signals.js';
import { toolVersions } from '../core/versions.js';
import { formatProblem } from '../errors/errors.js';
import { defaultDevice, loadDevice, type Device } from '../../codegen/device.js';
import { generate, splitTargetNames, TARGET_NAMES, type Generated } from '../../codegen/index.js';
import { parseDeviceId } from '../../codegen/p4.js';
import { DEFAULT_MAX_SHARE_ERROR_PP, parseDpdkApi, parseMaxShareError } from '../../codegen/dpdk.js';

/** Per-run settings of the CLI that are not part of the config (each read by one target). */
export interface CodegenRunOptions {
  deviceId?: unknown;
  maxShareErrorPp?: unknown;
  dpdkApi?: unknown;
}

/** Library form: config file (+ device file) -> generated files; throws InputError on any problem. */
export function codegenFiles(
  configPath: string, targets: string[], devicePath?: string, run: CodegenRunOptions = {},
): Omit<Generated, 'warnings'> & { warnings: string[] } {
  const deviceId = parseDeviceId(run.deviceId ?? 0);
  const maxShareErrorPp = parseMaxShareError(run.maxShareErrorPp ?? DEFAULT_MAX_SHARE_ERROR_PP);
  const dpdkApi = run.dpdkApi === undefined ? undefined : parseDpdkApi(run.dpdkApi);
  const { config, warnings } = loadConfig(configPath);
  const device: Device = devicePath ? loadDevice(devicePath) : defaultDevice;
  const out = generate(config, device, targets, { versions: toolVersions(), deviceId, maxShareErrorPp, dpdkApi });
  return { ...out, warnings: [...warnings, ...out.warnings].map(formatProblem) };
}

interface Args {
  config: string;
  device?: string;
  'device-id': number;
  'max-share-error': string;
  'dpdk-api'?: string;
  target: string[];
  out: string;
  json?: boolean;
}

export const codegenCommand: CommandModule<object, Args> = {
  command: 'codegen <config>',
  describe: 'emit SONiC, P4, Linux, C register-map, SystemVerilog register-map (sv), LLDP and DPDK artefacts (and manifest.json) for a DCB config',
  builder: (y) =>
    y
      .positional('config', { type: 'string', demandOption: true, describe: 'DCB config (YAML or JSON)' })
      .option('device', { type: 'string', describe: 'device description (YAML or JSON); default: one port, 8 queues, 32 MiB, 256-B cells' })
      .option('device-id', { type: 'number', default: 0, describe: 'P4Runtime device_id in p4/write_request (BMv2 simple_switch --device-id)' })
      .option('max-share-error', { type: 'string', default: String(DEFAULT_MAX_SHARE_ERROR_PP), describe: 'dpdk: largest rte_sched WRR share error to accept, in percentage points' })
      .option('dpdk-api', { type: 'string', describe: 'dpdk: sched (rte_sched files), tm (tm.testpmd) or sched,tm (default)' })
      .option('target', { type: 'string', array: true, demandOption: true, choices: [...TARGET_NAMES(), 'all'], coerce: splitTargetNames, describe: 'target(s) to emit: repeat the option or give a comma list (sonic,linux)' })
      .option('out', { type: 'string', demandOption: true, describe: 'output directory' })
      .option('json', { type: 'boolean', describe: 'print the manifest as JSON' }) as never,
  handler: async (args) => {
    checkOutDir(args.out, CODEGEN_OUTPUT);
    const { files, manifest, warnings } = codegenFiles(args.config, args.target, args.device, { deviceId: args['device-id'], maxShareErrorPp: args['max-share-error'], dpdkApi: args['dpdk-api'] });
    // SIGINT / SIGTERM before the swap: one line, exit 130 / 143, nothing written (host/io/signals.ts)
    if (!(await withStopSignals(() => writeTreeAtomicAsync(args.out, files, CODEGEN_OUTPUT).then(() => true)))) return;
    for (const w of warnings) process.stderr.write(`warning: ${w}\n`);
    if (args.json) process.stdout.write(JSON.stringify(manifest) + '\n');
    else {
      for (const f of manifest.files) process.stdout.write(`${f.path}  ${f.bytes} B  sha256 ${f.sha256.slice(0, 16)}\n`);
      process.stdout.write(`manifest.json  (${manifest.quantisation.length} quantisation entries, ${manifest.omitted.length} omitted settings)\n`);
      for (const s of manifest.skipped ?? []) process.stdout.write(`left out ${s.target}, which cannot hold this config: ${s.reasons.join('; ')}\n`);
    }
  },
};
