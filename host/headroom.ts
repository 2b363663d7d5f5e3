// PFC headroom: the buffer a lossless priority needs above its XOFF threshold to absorb what is
// still in flight after XOFF is triggered (IEEE 802.1Qbb informative buffer-requirements annex,
// component model as pinned in DESIGN.md §4.1; ../reference/pfc-credit-dcbx.md §2).
//
// Profile `ieee` (default), all terms in bit times of the port speed:
//   max frame at the PFC sender  (mtu + 20) * 8       a frame it is sending when XOFF triggers
//   PFC frame                    (64 + 20) * 8 = 672
//   interface delay              2 * per-end bound    MAC/PCS/FEC/PMA/PMD, both ends (SPEED_TABLE,
//                                                     or the caller's interfaceDelayBt)
//   cable delay                  2 * L * 5 ns * speed  round trip
//   peer response                quanta(speed) * 512  802.3 31B.3.7 reaction bound
//   max lossless frame           (mtu + 20) * 8       the peer may just have started one
//   headroom bytes = ceil(sum / 8).   100G, 300 m, 9216 -> 895,936 bits = 111,992 B.
//
// Profile `sonic`: the SONiC dynamic-buffer formula of its Mellanox plugin
// (sonic-swss cfgmgr/buffer_headroom_mellanox.lua), Spectrum-1 defaults: cable at 1.98e8 m/s,
// a cell-occupancy factor for small frames, xoff and xon rounded up to 1024 B. Computed in doubles
// in the plugin's order of operations, so that results match SONiC's to the byte.
import { InputError } from './errors.js';

export type HeadroomProfile = 'ieee' | 'sonic';
export const HEADROOM_PROFILES: HeadroomProfile[] = ['ieee', 'sonic'];

interface SpeedRow {
  /** 802.3 31B.3.7 peer response, pause quanta (SONiC pause_quanta_per_speed). */
  responseQuanta: number;
  /** Interface delay of one end (transmit + receive), bit times. */
  interfaceBt: number;
  /** True when interfaceBt is our assumption rather than a quoted bound (docs/headroom.md). */
  interfaceAssumed: boolean;
}

/**
 * Per-speed constants. Interface bounds for 10/25/40/100G are the ones quoted with the 802.1Qbb
 * component model. For 50/200/400G no per-end figure (nor the 802.3 sublayer delay tables it would
 * be summed from) was found in any source available to us, so those rows keep the 100G bound's
 * absolute time (1228.8 ns per end), flagged in `assumptions`; docs/headroom.md lists what was
 * searched. A caller holding the figure passes it as `interfaceDelayBt`.
 */
export const SPEED_TABLE: ReadonlyMap<number, SpeedRow> = new Map([
  [10e9, { responseQuanta: 67, interfaceBt: 8192, interfaceAssumed: false }],
  [25e9, { responseQuanta: 80, interfaceBt: 6144, interfaceAssumed: false }],
  [40e9, { responseQuanta: 118, interfaceBt: 24576, interfaceAssumed: false }],
  [50e9, { responseQuanta: 147, interfaceBt: 61440, interfaceAssumed: true }],
  [100e9, { responseQuanta: 394, interfaceBt: 122880, interfaceAssumed: false }],
  [200e9, { responseQuanta: 453, interfaceBt: 245760, interfaceAssumed: true }],
  [400e9, { responseQuanta: 905, interfaceBt: 491520, interfaceAssumed: true }],
]);

/** Largest accepted per-end interface delay: 2^31 - 1 bit times (5.4 ms at 400G), far above any PHY. */
export const MAX_INTERFACE_DELAY_BT = 0x7fff_ffff;

export const PFC_FRAME_WIRE_BITS = (64 + 20) * 8;
/** Preamble + SFD (8) and inter-frame gap (12): wire bytes beyond the frame (DESIGN.md §2). */
export const WIRE_OVERHEAD_BYTES = 20;

export function speedLabel(bps: number): string {
  return `${bps / 1e9}G`;
}

/** Parses "100G" (also "100g", "100Gbps") into bit/s; only the speeds of SPEED_TABLE are accepted. */
export function parseSpeed(text: string, path = 'speed'): number {
  const m = /^\s*(\d+)\s*(?:G|g|Gbps|gbps)\s*$/.exec(text);
  const bps = m ? Number(m[1]) * 1e9 : NaN;
  if (!SPEED_TABLE.has(bps)) {
    throw new InputError({ path, rule: `must be one of ${[...SPEED_TABLE.keys()].map(speedLabel).join(', ')} (got "${text}")` });
  }
  return bps;
}

/** Parses "300m" or "1.5km" into metres (at most 1 mm resolution, at most 100 km). */
export function parseCable(text: string, path = 'cable'): number {
  const m = /^\s*(\d+(?:\.\d{1,3})?)\s*(m|km)\s*$/.exec(text);
  const metres = m ? Number(m[1]) * (m[2] === 'km' ? 1000 : 1) : NaN;
  if (!m || !(metres <= 100_000)) {
    throw new InputError({ path, rule: `must be a length like 300m or 2km, at most 100km (got "${text}")` });
  }
  return Math.round(metres * 1000) / 1000;
}

/** Parses an MTU (frame bytes, 64..65535). */
export function parseMtu(text: string | number, path = 'mtu'): number {
  const s = String(text).trim();
  const v = /^\d+$/.test(s) ? Number(s) : NaN;
  if (!(v >= 64 && v <= 65535)) throw new InputError({ path, rule: `must be a whole number of bytes from 64 to 65535 (got "${s}")` });
  return v;
}

/** Parses a per-end interface delay in bit times (whole number, 0..MAX_INTERFACE_DELAY_BT). */
export function parseInterfaceDelay(text: string | number, path = 'interface-delay'): number {
  const s = String(text).trim();
  const v = /^\d{1,10}$/.test(s) ? Number(s) : NaN;
  if (!(v <= MAX_INTERFACE_DELAY_BT)) {
    throw new InputError({ path, rule: `must be a whole number of bit times from 0 to ${MAX_INTERFACE_DELAY_BT} (got "${s}")` });
  }
  return v;
}

/** SONiC plugin inputs (Spectrum-1 defaults from the SONiC ASIC templates). */
export interface SonicParams {
  /** Buffer cell size, bytes. */
  cellBytes: number;
  /** Share of small frames in lossless traffic, percent by bytes (LOSSLESS_TRAFFIC_PATTERN). */
  smallPacketPercent: number;
  /** MAC/PHY delay, KB of 1024 B (ASIC_TABLE mac_phy_delay; 0.8 on Spectrum-1). */
  macPhyDelayKb: number;
  /** Pipeline latency, KB of 1024 B (ASIC_TABLE pipeline_latency; 18 on Spectrum-1): the xon size. */
  pipelineLatencyKb: number;
  /** Gearbox delay, ns (0 = no gearbox). */
  gearboxDelayNs: number;
  /** The port has 8 lanes (the plugin doubles the pipeline latency and adds one port MTU to the size). */
  eightLane: boolean;
}

export const SONIC_DEFAULTS: SonicParams = {
  cellBytes: 96, smallPacketPercent: 100, macPhyDelayKb: 0.8, pipelineLatencyKb: 18, gearboxDelayNs: 0, eightLane: false,
};

export interface HeadroomInput {
  speedBps: number;
  cableM: number;
  /** Frame size used for both frame terms (and SONiC's port MTU). */
  mtu: number;
  profile?: HeadroomProfile;
  /** Largest lossless frame when it differs from mtu (the last-frame term; SONiC's lossless MTU). */
  losslessMtu?: number;
  sonic?: Partial<SonicParams>;
  /**
   * Interface delay of one end (transmit + receive), bit times, replacing the table's figure
   * (profile ieee only), e.g. a sum taken from the 802.3 delay-constraint tables of the PHY in use.
   */
  interfaceDelayBt?: number;
}

export interface HeadroomResult {
  profile: HeadroomProfile;
  speed_bps: number;
  cable_m: number;
  mtu: number;
  lossless_mtu: number;
  /** Bytes to reserve above the XOFF threshold. */
  headroom_bytes: number;
  /** Bits per component (ceil to whole bits where the model is fractional). */
  components: Record<string, number>;
  /** Sum of the components, bits (ieee profile). */
  total_bits?: number;
  /** SONiC profile: the factor applied to the propagation terms, and the resulting PG profile. */
  cell_occupancy?: number;
  xoff_bytes?: number;
  xon_bytes?: number;
  size_bytes?: number;
  /** Speed-table entries that are assumptions, not quoted bounds. */
  assumptions: string[];
}

/** The `assumptions` entry of a speed whose interface bound is not sourced. */
export function interfaceAssumption(speedBps: number, interfaceBt: number): string {
  const ns = (interfaceBt * 1e9) / speedBps;
  return `interface delay at ${speedLabel(speedBps)}: no sourced IEEE 802.3 figure; assumed ${interfaceBt} bit times per end ` +
    `(${ns} ns, the 100G bound's time), see docs/headroom.md; pass --interface-delay to use your PHY's figure`;
}

function rowFor(speedBps: number): SpeedRow {
  const row = SPEED_TABLE.get(speedBps);
  if (!row) {
    throw new InputError({ path: 'speed', rule: `must be one of ${[...SPEED_TABLE.keys()].map(speedLabel).join(', ')}` });
  }
  return row;
}

function checkInput(input: HeadroomInput): void {
  const problems = [];
  if (!Number.isFinite(input.cableM) || input.cableM < 0) problems.push({ path: 'cable', rule: 'must be a length of at least 0 m' });
  for (const key of ['mtu', 'losslessMtu'] as const) {
    const v = input[key];
    if (v !== undefined && !(Number.isInteger(v) && v >= 64 && v <= 65535)) {
      problems.push({ path: key === 'mtu' ? 'mtu' : 'lossless_mtu', rule: 'must be a whole number of bytes from 64 to 65535' });
    }
  }
  const d = input.interfaceDelayBt;
  if (d !== undefined && !(Number.isInteger(d) && d >= 0 && d <= MAX_INTERFACE_DELAY_BT)) {
    problems.push({ path: 'interface_delay', rule: `must be a whole number of bit times from 0 to ${MAX_INTERFACE_DELAY_BT}` });
  }
  if (problems.length) throw new InputError(problems);
}

/** ceil(n / d) for non-negative BigInts. */
function ceilDiv(n: bigint, d: bigint): bigint {
  return (n + d - 1n) / d;
}

/** Cable length in whole millimetres (parseCable keeps at most 3 decimals of a metre). */
function cableMm(cableM: number): bigint {
  return BigInt(Math.round(cableM * 1000));
}

function ieeeHeadroom(input: HeadroomInput, row: SpeedRow, losslessMtu: number): HeadroomResult {
  const speed = BigInt(input.speedBps);
  const given = input.interfaceDelayBt !== undefined;
  const interfaceBt = given ? input.interfaceDelayBt! : row.interfaceBt;
  // 2 * L * 5 ns * speed bits = 2 * Lmm * 5e-12 s * speed = Lmm * speed / 1e11
  const cableBits = ceilDiv(cableMm(input.cableM) * speed, 100_000_000_000n);
  const components: Record<string, number> = {
    max_frame_sender: (input.mtu + WIRE_OVERHEAD_BYTES) * 8,
    pfc_frame: PFC_FRAME_WIRE_BITS,
    interface_delay: 2 * interfaceBt,
    cable_delay: Number(cableBits),
    peer_response: row.responseQuanta * 512,
    max_lossless_frame: (losslessMtu + WIRE_OVERHEAD_BYTES) * 8,
  };
  const total = Object.values(components).reduce((a, b) => a + b, 0);
  return {
    profile: 'ieee',
    speed_bps: input.speedBps,
    cable_m: input.cableM,
    mtu: input.mtu,
    lossless_mtu: losslessMtu,
    headroom_bytes: Math.ceil(total / 8),
    components,
    total_bits: total,
    assumptions: row.interfaceAssumed && !given ? [interfaceAssumption(input.speedBps, row.interfaceBt)] : [],
  };
}

function sonicHeadroom(input: HeadroomInput, row: SpeedRow, losslessMtu: number): HeadroomResult {
  const p = { ...SONIC_DEFAULTS, ...input.sonic };
  if (!(Number.isInteger(p.cellBytes) && p.cellBytes > 0) || !(p.smallPacketPercent >= 0 && p.smallPacketPercent <= 100) ||
    !(p.macPhyDelayKb >= 0) || !(p.pipelineLatencyKb >= 0) || !(p.gearboxDelayNs >= 0)) {
    throw new InputError({ path: 'sonic', rule: 'cell size > 0, small-packet percentage 0..100, delays >= 0' });
  }
  // Same operations in the same order as the plugin (IEEE doubles in Lua and in JS), so the 1024
  // rounding lands where SONiC's does. Its units are kept: speed in Mb/s, cable and gearbox terms
  // divided by 8 * 1024.
  const speedMbps = input.speedBps / 1e6;
  const worstCaseFactor = p.cellBytes > 2 * 64 ? p.cellBytes / 64 : (2 * p.cellBytes) / (1 + p.cellBytes);
  const cellOccupancy = (100 - p.smallPacketPercent + p.smallPacketPercent * worstCaseFactor) / 100;
  const gearboxBytes = p.gearboxDelayNs === 0 ? 0 : (speedMbps * p.gearboxDelayNs) / (8 * 1024);
  const peerResponse = (row.responseQuanta * 512) / 8;
  const cableBytes = (2 * input.cableM * speedMbps * 1_000_000_000) / 198_000_000 / (8 * 1024);
  const macPhyDelay = p.macPhyDelayKb * 1024;
  let pipelineLatency = p.pipelineLatencyKb * 1024;
  let speedOverhead = 0;
  if (p.eightLane) {
    pipelineLatency = pipelineLatency * 2 - 1024;
    speedOverhead = input.mtu;
  }
  const propagation = input.mtu + cableBytes + 2 * gearboxBytes + macPhyDelay + peerResponse;
  const xoff = Math.ceil((losslessMtu + propagation * cellOccupancy) / 1024) * 1024;
  const xon = Math.ceil(pipelineLatency / 1024) * 1024;
  const size = Math.ceil((xoff + xon + speedOverhead) / 1024) * 1024;
  const bits = (bytes: number) => Math.ceil(bytes * 8);
  return {
    profile: 'sonic',
    speed_bps: input.speedBps,
    cable_m: input.cableM,
    mtu: input.mtu,
    lossless_mtu: losslessMtu,
    headroom_bytes: xoff,
    components: {
      lossless_mtu: bits(losslessMtu),
      port_mtu: bits(input.mtu),
      cable_delay: bits(cableBytes),
      gearbox_delay: bits(2 * gearboxBytes),
      mac_phy_delay: bits(macPhyDelay),
      peer_response: bits(peerResponse),
    },
    cell_occupancy: cellOccupancy,
    xoff_bytes: xoff,
    xon_bytes: xon,
    size_bytes: size,
    assumptions: [],
  };
}

/**
 * Headroom for one lossless priority of a port (library form of `dcbkit headroom`). Throws
 * InputError for a speed outside SPEED_TABLE or out-of-range sizes.
 */
export function computeHeadroom(input: HeadroomInput): HeadroomResult {
  const row = rowFor(input.speedBps);
  checkInput(input);
  const losslessMtu = input.losslessMtu ?? input.mtu;
  const profile = input.profile ?? 'ieee';
  if (profile === 'sonic') {
    if (input.interfaceDelayBt !== undefined) {
      throw new InputError({ path: 'interface_delay', rule: 'applies to profile ieee only (the sonic profile has mac_phy_delay)' });
    }
    return sonicHeadroom(input, row, losslessMtu);
  }
  if (profile !== 'ieee') throw new InputError({ path: 'profile', rule: `must be one of ${HEADROOM_PROFILES.join(', ')}` });
  return ieeeHeadroom(input, row, losslessMtu);
}
