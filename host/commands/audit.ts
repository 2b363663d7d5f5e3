// `dcbkit audit <config> [--device D] --linux IFACE [--no-lldptool] | --sonic FILE | --sonic-redis URL [--json]`:
// reads what a device runs and compares it with what the config means (host/audit/, docs/audit.md).
// Exit 0 when they agree; 1 with one `path: running X, intended Y` line per difference on stdout;
// 2 on bad input (the config, the device file, the flags, or a device that cannot be read).
import type { CommandModule } from 'yargs';
import { loadConfig } from '../config/index.js';
import { InputError, formatProblem } from '../errors/errors.js';
import { defaultDevice, loadDevice } from '../../codegen/device.js';
import { auditDevice, type AuditReport, type AuditSource } from '../audit/index.js';
import { formatDifference } from '../audit/view.js';

interface Args {
  config: string;
  device?: string;
  linux?: string;
  lldptool: boolean;
  sonic?: string;
  'sonic-redis'?: string;
  json?: boolean;
}

/** The one device source the flags name; none or several is a problem naming them. */
export function sourceOf(args: Pick<Args, 'linux' | 'sonic' | 'sonic-redis' | 'lldptool'>): AuditSource {
  const given = (['linux', 'sonic', 'sonic-redis'] as const).filter((k) => args[k] !== undefined);
  if (given.length !== 1) {
    const which = given.length ? `got ${given.map((k) => `--${k}`).join(' and ')}` : 'got none';
    throw new InputError({ path: given.length ? `--${given[1]}` : '--linux', rule: `give exactly one device to read: --linux IFACE, --sonic FILE or --sonic-redis URL; ${which}` });
  }
  for (const k of given) {
    const v: unknown = args[k];
    if (Array.isArray(v)) throw new InputError({ path: `--${k}`, rule: `given ${v.length} times; give it once (one device per audit)` });
    if (typeof v !== 'string' || v === '') throw new InputError({ path: `--${k}`, rule: 'needs a value' });
  }
  if (args.linux !== undefined) return { kind: 'linux', iface: args.linux, lldptool: args.lldptool };
  if (args.sonic !== undefined) return { kind: 'sonic', file: args.sonic };
  return { kind: 'sonic-redis', url: args['sonic-redis']! };
}

/** Library form: config file (+ device file) and a device source -> the audit report. */
export async function auditFiles(configPath: string, source: AuditSource, devicePath?: string): Promise<AuditReport & { warnings: string[] }> {
  const { config, warnings } = loadConfig(configPath);
  const device = devicePath ? loadDevice(devicePath) : defaultDevice;
  return { ...(await auditDevice(config, device, source)), warnings: warnings.map(formatProblem) };
}

export const auditCommand: CommandModule<object, Args> = {
  command: 'audit <config>',
  describe: 'compare what a Linux host (dcb, lldptool) or a SONiC switch (CONFIG_DB) runs with a DCB config (exit 0 same, 1 differences, 2 bad input)',
  builder: (y) =>
    y
      .positional('config', { type: 'string', demandOption: true, describe: 'DCB config (YAML or JSON)' })
      .option('device', { type: 'string', describe: 'device description, as for codegen (its ports are the ones audited)' })
      .option('linux', { type: 'string', describe: 'interface to read with dcb -j ... show and lldptool' })
      .option('lldptool', { type: 'boolean', default: true, describe: 'with --linux, also read lldpad (--no-lldptool: the NIC runs DCBX itself, or no lldpad)' })
      .option('sonic', { type: 'string', describe: 'CONFIG_DB dump (sonic-cfggen -d --print-data > FILE, or a config_db.json)' })
      .option('sonic-redis', { type: 'string', describe: "a SONiC redis server to read CONFIG_DB (db 4) from: unix:PATH or HOST:PORT" })
      .option('json', { type: 'boolean', describe: 'print {ok, target, source, compared, differences: [{path, running, intended}]} as one JSON document' }) as never,
  handler: async (args) => {
    const report = await auditFiles(args.config, sourceOf(args), args.device);
    for (const w of report.warnings) process.stderr.write(`warning: ${w}\n`);
    const { warnings: _, ...doc } = report;
    if (args.json) process.stdout.write(JSON.stringify(doc) + '\n');
    else if (report.ok) process.stdout.write(`ok: ${report.source} runs what ${args.config} means (${report.compared} settings compared)\n`);
    else process.stdout.write(report.differences.map((d) => formatDifference(d) + '\n').join(''));
    if (!report.ok) process.exitCode = 1;
  },
};
