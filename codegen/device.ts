// Device description for code generation: what the target hardware has (ports with their speeds,
// cable lengths and lanes, shared buffer, cell size, queues and priority groups per port). The DCB
// config describes what one port should do; the device says where it is applied and what the
// silicon can hold, so a config the device cannot express is rejected per target (docs/codegen.md).
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { InputError } from '../host/errors.js';
import { parseOrThrow } from '../host/problems.js';
import { interfaceName } from '../host/config/fields.js';
import YAML from 'yaml';
import { cableToMetres, speedToBps } from './ir.js';

export const devicePortSchema = z.strictObject({
  name: interfaceName(),
  /** Data-plane port number used by P4 tables (egress_port) and the register image. */
  index: z.number().int().min(0).max(511),
  speed: z.union([z.string(), z.number().int().positive()]),
  cable: z.union([z.string(), z.number().nonnegative()]),
  /** SONiC PORT.lanes (comma-separated lane numbers). */
  lanes: z.string().regex(/^[0-9]+(,[0-9]+)*$/, 'comma-separated lane numbers').optional(),
});

export const deviceSchema = z.strictObject({
  name: z.string().min(1).default('generic-8q'),
  /** SONiC DEVICE_METADATA hwsku / platform strings. */
  hwsku: z.string().min(1).default('dcbkit-generic'),
  platform: z.string().min(1).default('x86_64-dcbkit_generic-r0'),
  /** Ports the config is applied to; empty = the config's own port only, at index 0. */
  ports: z.array(devicePortSchema).max(512).default([]),
  /** Total shared packet buffer in bytes (ingress lossless pool). */
  buffer_bytes: z.number().int().positive().max(2 ** 40).default(33554432),
  /** Buffer cell size in bytes: thresholds and headroom are rounded up to whole cells. */
  cell_bytes: z.number().int().min(1).max(65536).default(256),
  /** Egress queues per port (a TC needs a queue of its own). */
  queues_per_port: z.number().int().min(1).max(16).default(8),
  /** Ingress priority groups per port. */
  pgs_per_port: z.number().int().min(1).max(8).default(8),
  /** Headroom model (host/headroom.ts): ieee (802.1Qbb component model) or sonic. */
  headroom_profile: z.enum(['ieee', 'sonic']).default('ieee'),
  /** DCBX flavour of the LLDPDU the lldp target emits: IEEE 802.1Qaz TLVs, CEE 1.01, or auto
   * (CEE when the config gives the CEE `pg` view, as `dcbkit dcbx encode` does). */
  dcbx: z.enum(['auto', 'ieee', 'cee']).default('auto'),
  /** SONiC dynamic threshold (alpha = 2^dynamic_th) for the lossless PG profiles. */
  dynamic_th: z.number().int().min(-8).max(7).default(0),
});

export type DeviceInput = z.input<typeof deviceSchema>;
export type Device = z.output<typeof deviceSchema>;

export const defaultDevice: Device = deviceSchema.parse({});

export function parseDevice(value: unknown): Device {
  const d = parseOrThrow(deviceSchema, value, 'device');
  const problems: { path: string; rule: string }[] = [];
  const seenNames = new Set<string>();
  const seenIndex = new Set<number>();
  d.ports.forEach((p, i) => {
    if (seenNames.has(p.name)) problems.push({ path: `device.ports[${i}].name`, rule: `duplicate port name ${p.name}` });
    if (seenIndex.has(p.index)) problems.push({ path: `device.ports[${i}].index`, rule: `duplicate port index ${p.index}` });
    try {
      speedToBps(p.speed);
    } catch {
      problems.push({ path: `device.ports[${i}].speed`, rule: 'a speed like 100G or a number of bit/s' });
    }
    try {
      cableToMetres(p.cable);
    } catch {
      problems.push({ path: `device.ports[${i}].cable`, rule: 'a length like 300m or 2km, or a number of metres' });
    }
    seenNames.add(p.name);
    seenIndex.add(p.index);
  });
  if (problems.length) throw new InputError(problems);
  return d;
}

/** Reads a device description (YAML or JSON). */
export function loadDevice(file: string): Device {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new InputError({ path: 'device', rule: `cannot read ${file}: ${(e as Error).message}` });
  }
  let value: unknown;
  try {
    value = YAML.parse(text);
  } catch (e) {
    throw new InputError({ path: 'device', rule: `not valid YAML/JSON: ${(e as Error).message}` });
  }
  return parseDevice(value);
}
