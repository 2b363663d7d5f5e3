// PFC headroom: the buffer a lossless priority needs above its XOFF threshold to absorb what is
// still in flight after XOFF is triggered (IEEE 802.1Qbb informative buffer-requirements annex,
// component model as pinned in DESIGN.md §4.1; ../reference/pfc-credit-dcbx.md §2).
//
// Profile `ieee` (default), all terms in bit times of the port speed:
//   max frame at the PFC sender  (mtu + 20) * 8       a frame it is sending when XOFF triggers
//   PFC frame                    (64 + 20) * 8 = 672
//   interface delay              2 * per-end bound    MAC/PCS/FEC/PMA/PMD, both ends
//   cable delay                  2 * L * 5 ns * speed  round trip
//   peer response                quanta(speed) * 512  802.3 31B.3.7 reaction bound
//   max lossless frame           (mtu + 20) * 8       the peer may just have started one
//   headroom bytes = ceil(sum / 8).   100G, 300 m, 9216 -> 895,936 bits = 111,992 B.
//
// Profile `sonic`: the SONiC dynamic-buffer formula of its Mellanox plugin
// (sonic-swss cfgmgr/buffer_headroom_mellanox.lua), Spectrum-1 defaults: cable at 1.98e8 m/s,
// a cell-occupancy factor for small frames, xoff and xon rounded up to 1024 B. Exact rational
// arithmetic (BigInt) so the 1024 rounding never depends on floating-point error.
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
 * component model; 50/200/400G keep the 100G bound's absolute time (1228.8 ns per end), an
 * assumption documented in docs/headroom.md.
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
}

export const SONIC_DEFAULTS: SonicParams = { cellBytes: 96, smallPacketPercent: 100, macPhyDelayKb: 0.8, pipelineLatencyKb: 18 };

export interface HeadroomInput {
  speedBps: number;
  cableM: number;
  /** Frame size used for both frame terms (and SONiC's port MTU). */
  mtu: number;
  profile?: HeadroomProfile;
  /** Largest lossless frame when it differs from mtu (the last-frame term; SONiC's lossless MTU). */
  losslessMtu?: number;
  sonic?: Partial<SonicParams>;
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
  // 2 * L * 5 ns * speed bits = 2 * Lmm * 5e-12 s * speed = Lmm * speed / 1e11
  const cableBits = ceilDiv(cableMm(input.cableM) * speed, 100_000_000_000n);
  const components: Record<string, number> = {
    max_frame_sender: (input.mtu + WIRE_OVERHEAD_BYTES) * 8,
    pfc_frame: PFC_FRAME_WIRE_BITS,
    interface_delay: 2 * row.interfaceBt,
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
    assumptions: row.interfaceAssumed
      ? [`interface delay at ${speedLabel(input.speedBps)} assumed ${row.interfaceBt} bit times per end (the 100G bound's 1228.8 ns)`]
      : [],
  };
}

/** A non-negative decimal with up to 6 fractional digits as an exact fraction n / 1e6. */
function micro(v: number): bigint {
  return BigInt(Math.round(v * 1e6));
}

function sonicHeadroom(input: HeadroomInput, row: SpeedRow, losslessMtu: number): HeadroomResult {
  const p = { ...SONIC_DEFAULTS, ...input.sonic };
  if (!(Number.isInteger(p.cellBytes) && p.cellBytes > 0) || !(p.smallPacketPercent >= 0 && p.smallPacketPercent <= 100) ||
    !(p.macPhyDelayKb >= 0) || !(p.pipelineLatencyKb >= 0)) {
    throw new InputError({ path: 'sonic', rule: 'cell size > 0, small-packet percentage 0..100, delays >= 0' });
  }
  // worst_case_factor = ceil(cell / 64) above 128 B cells, else ceil(2 * cell / (1 + cell))
  const cell = BigInt(p.cellBytes);
  const worst = cell > 128n ? ceilDiv(cell, 64n) : ceilDiv(2n * cell, 1n + cell);
  // cell_occupancy = (100 - sppb + sppb * worst) / 100, kept as a fraction over 100e6
  const sppb = micro(p.smallPacketPercent);
  const occNum = 100_000_000n - sppb + sppb * worst; // over 1e8 (percent * 1e6)
  // All byte terms as fractions over DEN = 1.584e12 (the cable denominator, see below) * 1e6.
  // bytes_on_cable = 2 * L[m] * speed / 1.98e8 / 8 = 2 * Lmm * speed / 1.584e12
  const CABLE_DEN = 1_584_000_000_000n;
  const DEN = CABLE_DEN * 1_000_000n;
  const speed = BigInt(input.speedBps);
  const cableNum = 2n * cableMm(input.cableM) * speed * 1_000_000n; // over DEN
  const macPhyNum = micro(p.macPhyDelayKb) * 1024n * CABLE_DEN;     // over DEN
  const peerBytes = BigInt(row.responseQuanta * 512 / 8);
  const portMtu = BigInt(input.mtu);
  const propagationNum = portMtu * DEN + cableNum + macPhyNum + peerBytes * DEN;
  // xoff = lossless_mtu + propagation * cell_occupancy, rounded up to 1024
  const xoffNum = BigInt(losslessMtu) * DEN * 100_000_000n + propagationNum * occNum;
  const xoffExact = ceilDiv(xoffNum, DEN * 100_000_000n);
  const xoff = Number(ceilDiv(xoffExact, 1024n) * 1024n);
  const xon = Number(ceilDiv(ceilDiv(micro(p.pipelineLatencyKb) * 1024n, 1_000_000n), 1024n) * 1024n);
  const bitsOf = (num: bigint) => Number(ceilDiv(num * 8n, DEN));
  return {
    profile: 'sonic',
    speed_bps: input.speedBps,
    cable_m: input.cableM,
    mtu: input.mtu,
    lossless_mtu: losslessMtu,
    headroom_bytes: xoff,
    components: {
      lossless_mtu: losslessMtu * 8,
      port_mtu: input.mtu * 8,
      cable_delay: bitsOf(cableNum),
      mac_phy_delay: bitsOf(macPhyNum),
      peer_response: Number(peerBytes) * 8,
    },
    cell_occupancy: Number(occNum) / 1e8,
    xoff_bytes: xoff,
    xon_bytes: xon,
    size_bytes: xoff + xon,
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
  if (profile === 'sonic') return sonicHeadroom(input, row, losslessMtu);
  if (profile !== 'ieee') throw new InputError({ path: 'profile', rule: `must be one of ${HEADROOM_PROFILES.join(', ')}` });
  return ieeeHeadroom(input, row, losslessMtu);
}
