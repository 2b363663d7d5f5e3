// `dcbkit vectors KERNEL --config CONFIG [--device D] [--port NAME] [--tc N]`: the kernel's
// parameters read from the register image that `dcbkit codegen --target c-header` (dcb_regs.bin)
// and `--target sv` (DCB_REGS_IMAGE) produce for the same config and device, so the vectors are
// what a block programmed with that image must give. The image is built by the codegen path itself (codegen/ir.ts,
// the headroom model, every cell and 64-byte-credit rounding of codegen/c-header.ts) and then read
// back field by field, as a driver or the RTL reads it: no threshold or quantum is computed twice.
// This file reads ets, pfc and qcn-cp (one TC's congestion point, `--tc`); the kernels the map has
// no block for (qcn-rp, credit) read the view's config and IR (from-ir.ts).
//
// Without --config the kernels' defaults are those of a default config (`defaultConfigValues`).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { defaultDevice, loadDevice } from '../../codegen/device.js';
import { generate } from '../../codegen/index.js';
import { CREDIT_BYTES, imageField } from '../../codegen/c-header.js';
import type { Device } from '../../codegen/device.js';
import type { Ir } from '../../codegen/ir.js';
import type { DcbConfig } from '../config/types.js';
import { loadConfig, parseConfig } from '../config/index.js';
import { InputError, fsReason } from '../errors/errors.js';
import { TSA_NAMES, TSA_CODE } from '../core/codes.js';

/** What the vectors were derived from, as the manifest records it. */
export interface ConfigSource {
  config: string;
  config_sha256: string;
  device: string;
  port: string;
  /** sha256 of dcb_regs.bin, the image whose fields the kernel was configured with. */
  register_image_sha256: string;
  /** The instance chosen by --tc (qcn-cp) or --priority (qcn-rp, credit). */
  tc?: number;
  priority?: number;
}

/** A register image and the port whose fields the kernels read. */
export interface RegisterView {
  source: ConfigSource;
  /** Field of instance i (`tc`, 3, `quantum_credits`); port blocks are read at the chosen port. */
  reg(block: string, i: number, field: string): number;
  portIndex: number;
  /** The parsed config and the IR codegen built from it: the source of what the image has no block for. */
  config: DcbConfig;
  ir: Ir;
  device: Device;
}

const sha256 = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');

/** Builds the register image of CONFIG (+ device) as codegen does and selects the port. */
export function registerView(configPath: string, devicePath?: string, portName?: string): RegisterView {
  let text: Buffer;
  try {
    text = readFileSync(configPath);
  } catch (e) {
    throw new InputError({ path: '--config', rule: `cannot read ${configPath}: ${fsReason(e)}` });
  }
  const { config } = loadConfig(configPath);
  const device = devicePath ? loadDevice(devicePath) : defaultDevice;
  const { ir, files } = generate(config, device, ['c-header']);
  const image = files.get('c-header/dcb_regs.bin') as Uint8Array;
  const portIndex = portName === undefined ? 0 : ir.ports.findIndex((p) => p.name === portName);
  if (portIndex < 0) throw new InputError({ path: '--port', rule: `no port "${portName}"; one of ${ir.ports.map((p) => p.name).join(', ')}` });
  return {
    source: {
      config: configPath, config_sha256: sha256(text), device: device.name, port: ir.ports[portIndex].name,
      register_image_sha256: sha256(image),
    },
    reg: (block, i, field) => imageField(image, block, i, field),
    portIndex,
    config,
    ir,
    device,
  };
}

const TSA_BY_CODE = new Map(TSA_NAMES.map((n) => [TSA_CODE[n], n]));
const range8 = [0, 1, 2, 3, 4, 5, 6, 7];

/** The ETS stimulus keys: tables, max frame (the MTU) and the quanta in whole 64-byte credits. */
export function etsFromRegisters(v: RegisterView): { max_frame: number; ets: { prio_tc: number[]; tsa: string[]; bw: number[] }; quantum: number[] } {
  return {
    max_frame: v.reg('glb', 0, 'mtu'),
    ets: {
      prio_tc: range8.map((p) => v.reg('prio', p, 'tc')),
      tsa: range8.map((t) => TSA_BY_CODE.get(v.reg('tc', t, 'tsa'))!),
      bw: range8.map((t) => v.reg('tc', t, 'dwrr_weight')),
    },
    quantum: range8.map((t) => v.reg('tc', t, 'quantum_credits') * CREDIT_BYTES),
  };
}

/**
 * Per-unit thresholds of a priority whose PG is lossy: the register map gives lossy traffic no
 * per-PG reservation (it lives in the shared pool, outside this kernel), so it has no drop limit here
 * (xoff + headroom saturates the 31-bit limit) and never triggers flow control.
 */
export const LOSSY_UNIT = 2 ** 30;

/** The PFC stimulus params of the view's port: thresholds per priority from its PG's registers. */
export function pfcFromRegisters(v: RegisterView): Record<string, unknown> {
  const port = (field: string) => v.reg('port', v.portIndex, field);
  const cell = v.reg('glb', 0, 'cell_bytes');
  const enable = v.reg('glb', 0, 'pfc_enable');
  const perUnit = (what: 'xoff' | 'xon' | 'headroom') => [...range8.map((p) => {
    const pg = v.reg('prio', p, 'pg');
    return port(`pg${pg}_lossless`) ? port(`pg${pg}_${what}_cells`) * cell : LOSSY_UNIT;
  }), LOSSY_UNIT];
  return {
    speed: port('speed_gbps') * 1e9,
    mode: enable ? 'pfc' : 'off',
    enable: range8.filter((p) => (enable >> p) & 1),
    pause_time: v.reg('glb', 0, 'pause_time'),
    xoff: perUnit('xoff'),
    xon: perUnit('xon'),
    headroom: perUnit('headroom'),
    cable: `${port('cable_m')}m`,
    mtu: v.reg('glb', 0, 'mtu'),
  };
}

/** TCs whose registers enable a congestion point (ecn_en: some priority of the TC is in qcn.cp.priorities). */
export const tcsWithCp = (v: RegisterView) => range8.filter((t) => v.reg('tc', t, 'ecn_en'));

/**
 * The qcn-cp `params` of TC `tc` from its registers: qau-pc's Qeq (cells x cell_bytes) and w, or
 * dcqcn's Kmin / Kmax (cells x cell_bytes) and Pmax (whole percent). The profile is the config's
 * qcn.rp.profile (one algorithm per fabric), and the Fb quantiser, which the image has no field
 * for, is the config's qcn.cp.quantiser.
 */
export function qcnCpFromRegisters(v: RegisterView, tc: number): Record<string, unknown> {
  const cell = v.reg('glb', 0, 'cell_bytes');
  const reg = (field: string) => v.reg('tc', tc, field);
  const params = v.config.qcn.rp.profile === 'dcqcn'
    ? { profile: 'dcqcn', kmin_bytes: reg('ecn_kmin_cells') * cell, kmax_bytes: reg('ecn_kmax_cells') * cell, pmax: reg('ecn_pmax_pct') / 100 }
    : { profile: 'qau-pc', q_eq: reg('qcn_qeq_cells') * cell, w: reg('qcn_w'), quantiser: v.config.qcn.cp.quantiser };
  return { params };
}

/** The values a default config gives (`dcbkit validate` of an empty config): the kernels' defaults. */
export const defaultConfigValues = (() => {
  const { config } = parseConfig({});
  return { mtu: config.port.mtu, xoff: config.pfc.xoff, xon: config.pfc.xon, cableM: config.port.cable, speed: config.port.speed };
})();
