// Device description for code generation: what the target hardware has (ports with their speeds,
// cable lengths and lanes, shared buffer, cell size, queues and priority groups per port). The DCB
// config describes what one port should do; the device says where it is applied and what the
// silicon can hold, so a config the device cannot express is rejected per target (docs/codegen.md).
import { readInputText } from '../host/io/input.js';
import { z } from 'zod';
import { InputError } from '../host/errors/errors.js';
import { parseOrThrow } from '../host/errors/problems.js';
import { parseDocumentText } from '../host/config/load.js';
import { cable, interfaceName, speed } from '../host/config/fields.js';

export const devicePortSchema = z.strictObject({
  name: interfaceName(),
  /** Data-plane port number used by P4 tables (egress_port) and the register image. */
  index: z.number().int().min(0).max(511),
  /** Parsed like the config's port.speed / port.cable: bit/s and metres. */
  speed: speed(),
  cable: cable(),
  /** SONiC PORT.lanes (comma-separated lane numbers). */
  lanes: z.string().regex(/^[0-9]+(,[0-9]+)*$/, 'comma-separated lane numbers').optional(),
});

export const deviceSchema = z.strictObject({
  name: z.string().min(1).default('generic-8q'),
  /** Names of the hardware (kept for device files; the sonic target leaves DEVICE_METADATA to the switch). */
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
  /** Headroom model (host/analysis/headroom.ts): ieee (802.1Qbb component model) or sonic. */
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
    seenNames.add(p.name);
    seenIndex.add(p.index);
  });
  if (problems.length) throw new InputError(problems);
  return d;
}

/** Reads a device description (YAML or JSON). */
export function loadDevice(file: string): Device {
  const text = readInputText(file, 'device');
  return parseDevice(parseDocumentText(text, 'device'));
}
