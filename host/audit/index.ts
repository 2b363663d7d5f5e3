// `dcbkit audit`: is a device running what the config means? The intent is the IR (codegen/ir.ts)
// as the target's own generator writes it (codegen/linux.ts dcbIntent and lldpadIntent,
// codegen/sonic.ts sonicTables); the device is read back (host/audit/linux.ts, sonic.ts, resp.ts)
// and both go through the same view (host/audit/view.ts), so the audit and codegen cannot disagree
// on what a config means. A config the target cannot express is refused as codegen refuses it.
import type { DcbConfig } from '../config/index.js';
import { InputError } from '../errors/errors.js';
import type { Device } from '../../codegen/device.js';
import { buildIr, type Ir } from '../../codegen/ir.js';
import { headroomFromModel } from '../../codegen/index.js';
import { dcbIntent, linuxTarget, lldpadIntent } from '../../codegen/linux.js';
import { sonicTables, sonicTarget } from '../../codegen/sonic.js';
import type { CodegenTarget } from '../../codegen/target.js';
import { checkInterface, dcbView, lldpadIntended, lldpadView, readDcb, readLldpad, runTool, type ToolRunner } from './linux.js';
import { AUDITED_TABLES, configDbFromHashes, loadConfigDbDump, portHasEntries, sonicView } from './sonic.js';
import { maskedUrl, parseRedisUrl, readHashes } from './resp.js';
import { View, comparedCount, diffViews, type Difference } from './view.js';

export type AuditSource =
  | { kind: 'linux'; iface: string; lldptool: boolean }
  | { kind: 'sonic'; file: string }
  | { kind: 'sonic-redis'; url: string };

export interface AuditReport {
  ok: boolean;
  target: 'linux' | 'sonic';
  /** What was read: `linux:IFACE`, `sonic:FILE`, `sonic-redis:URL`. */
  source: string;
  /** Settings compared (every audited path of the intent). */
  compared: number;
  differences: Difference[];
}

/** SONiC's CONFIG_DB number (sonic-swss-common common/database_config.json). */
export const CONFIG_DB = 4;

function irFor(config: DcbConfig, device: Device, target: CodegenTarget): Ir {
  const ir = buildIr(config, device, { headroom: headroomFromModel });
  const problems = target.check(ir);
  if (problems.length) throw new InputError(problems);
  return ir;
}

/** The Linux intent for `iface`: the device port of that name, or the config's one port under another name. */
function linuxPort(ir: Ir, iface: string) {
  const named = ir.ports.find((p) => p.name === iface);
  if (named) return named;
  if (ir.ports.length === 1) return ir.ports[0];
  throw new InputError({ path: '--linux', rule: `${iface} is not a port of device ${ir.device.name} (its ports: ${ir.ports.map((p) => p.name).join(', ')})` });
}

/** Reads the device named by `source` and compares it with what the generators write for `config`. */
export async function auditDevice(config: DcbConfig, device: Device, source: AuditSource, run: ToolRunner = runTool): Promise<AuditReport> {
  let running: View;
  let intended: View;
  if (source.kind === 'linux') {
    checkInterface(source.iface);
    const ir = irFor(config, device, linuxTarget);
    intended = dcbView(dcbIntent(ir, linuxPort(ir, source.iface)));
    running = dcbView(readDcb(source.iface, run));
    if (source.lldptool) {
      const want = lldpadIntended(lldpadIntent(ir));
      intended.merge(lldpadView(want));
      running.merge(lldpadView(readLldpad(source.iface, want, run)));
    }
  } else {
    const ir = irFor(config, device, sonicTarget);
    const ports = ir.ports.map((p) => p.name);
    const address = source.kind === 'sonic-redis' ? parseRedisUrl(source.url) : undefined;
    const db = source.kind === 'sonic'
      ? loadConfigDbDump(source.file)
      : configDbFromHashes(await readHashes(address!, CONFIG_DB, AUDITED_TABLES.map((t) => `${t}|`)));
    // A database without one entry for any port is the wrong database or the wrong switch, not a
    // switch whose every setting differs: one line says so instead of a difference per setting.
    if (!ports.some((port) => portHasEntries(db, port))) {
      const flag = source.kind === 'sonic' ? '--sonic' : '--sonic-redis';
      const inDb = source.kind === 'sonic' ? source.file : `db ${address!.db ?? CONFIG_DB}`;
      throw new InputError({ path: flag, rule: `no tables for ${ports.join(', ')} in ${inDb}: wrong database or port?` });
    }
    intended = sonicView(sonicTables(ir), ports);
    running = sonicView(db, ports);
  }
  const differences = diffViews(running, intended);
  const where = source.kind === 'linux' ? source.iface : source.kind === 'sonic' ? source.file : maskedUrl(source.url);
  return { ok: differences.length === 0, target: source.kind === 'linux' ? 'linux' : 'sonic', source: `${source.kind}:${where}`, compared: comparedCount(intended), differences };
}
