// PFC headroom: the buffer a lossless priority needs above its XOFF threshold to absorb what is
// still in flight after XOFF is triggered (IEEE 802.1Qbb informative buffer-requirements annex,
// component model as pinned in docs/design.md §4.1; the IEEE 802.1Qbb informative buffer-requirements annex).
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
// Profiles `sonic` and `sonic-2023`: the SONiC dynamic-buffer formula of its Mellanox plugin
// (sonic-swss cfgmgr/buffer_headroom_mellanox.lua) as of commit 422271e (Aug 2026, PRs #3235,
// #4757, #4797) and as of commit 4957df8 (Aug 2023), with the ASIC presets of sonic-buildimage
// platform/mellanox/asic_table.j2. Computed in doubles in the plugin's order of operations, so that
// results match SONiC's to the byte (docs/headroom.md has the formula and the sources).
import { WIRE_OVERHEAD } from '../core/codes.js';
import { InputError, type Problem } from '../errors/errors.js';
import { losslessMtuRule, MTU_MAX, MTU_MIN, MTU_RULE, PORT_SPEED_NAMES, speedLabel } from '../units/units.js';

export { parseCable, parseMtu, parsePortSpeed as parseSpeed, speedLabel } from '../units/units.js';

export type HeadroomProfile = 'ieee' | 'sonic' | 'sonic-2023';
export const HEADROOM_PROFILES: HeadroomProfile[] = ['ieee', 'sonic', 'sonic-2023'];

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
 * component model. For 50/200/400/800G no per-end figure (nor the 802.3 sublayer delay tables it would
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
  // 800G: SONiC's pause_quanta_per_speed (sonic-swss #2860) uses the 400G figure
  [800e9, { responseQuanta: 905, interfaceBt: 983040, interfaceAssumed: true }],
]);

/** Largest accepted per-end interface delay: 2^31 - 1 bit times (5.4 ms at 400G), far above any PHY. */
export const MAX_INTERFACE_DELAY_BT = 0x7fff_ffff;

export const PFC_FRAME_WIRE_BITS = (64 + WIRE_OVERHEAD) * 8;
/** Preamble + SFD (8) and inter-frame gap (12): wire bytes beyond the frame (docs/design.md §2). */
export const WIRE_OVERHEAD_BYTES = 20;

/** Parses a per-end interface delay in bit times (whole number, 0..MAX_INTERFACE_DELAY_BT). */
export function parseInterfaceDelay(text: string | number, path = 'interface-delay'): number {
  const s = String(text).trim();
  const v = /^\d{1,10}$/.test(s) ? Number(s) : NaN;
  if (!(v <= MAX_INTERFACE_DELAY_BT)) {
    throw new InputError({ path, rule: `must be a whole number of bit times from 0 to ${MAX_INTERFACE_DELAY_BT} (got "${s}")` });
  }
  return v;
}

/** What sonic-buildimage platform/mellanox/asic_table.j2 sets per ASIC (plus the plugin's ASIC-specific terms). */
export interface AsicPreset {
  /** Buffer cell size, bytes (cell_size). */
  cellBytes: number;
  /** Pipeline latency, KB of 1024 B (pipeline_latency): the xon size. */
  pipelineLatencyKb: number;
  /** MAC/PHY delay, KB of 1024 B (mac_phy_delay). */
  macPhyDelayKb: number;
  /** Peer response time, KB of 1024 B (peer_response_time): used for a speed with no pause-quanta entry. */
  peerResponseTimeKb: number;
  /** Spectrum-4/5: the plugin adds speed(Gb/s) * 120 / 8 bytes "on tile" to the propagation delay (#3235). */
  onTile: boolean;
  /** Spectrum-6: the plugin adds 18 KB to xoff for its packet-buffer accounting (#4797). */
  xoffCompensationBytes: number;
}

export const ASIC_PRESETS = {
  spectrum1: { peerResponseTimeKb: 3.8, cellBytes: 96, pipelineLatencyKb: 19, macPhyDelayKb: 0.8, onTile: false, xoffCompensationBytes: 0 },
  spectrum2: { peerResponseTimeKb: 3.8, cellBytes: 144, pipelineLatencyKb: 19, macPhyDelayKb: 0.8, onTile: false, xoffCompensationBytes: 0 },
  spectrum3: { peerResponseTimeKb: 3.8, cellBytes: 144, pipelineLatencyKb: 19, macPhyDelayKb: 0.8, onTile: false, xoffCompensationBytes: 0 },
  spectrum4: { peerResponseTimeKb: 3.8, cellBytes: 192, pipelineLatencyKb: 19, macPhyDelayKb: 0.8, onTile: true, xoffCompensationBytes: 0 },
  spectrum5: { peerResponseTimeKb: 3.8, cellBytes: 192, pipelineLatencyKb: 19, macPhyDelayKb: 0.8, onTile: true, xoffCompensationBytes: 0 },
  spectrum6: { peerResponseTimeKb: 3.8, cellBytes: 256, pipelineLatencyKb: 42, macPhyDelayKb: 0.8, onTile: false, xoffCompensationBytes: 18 * 1024 },
} as const satisfies Record<string, AsicPreset>;
export type AsicName = keyof typeof ASIC_PRESETS;
export const ASIC_NAMES = Object.keys(ASIC_PRESETS) as AsicName[];

/**
 * Pause quanta per port speed in Mb/s, the plugin's pause_quanta_per_speed (IEEE 802.3 31B.3.7 as
 * SONiC reads it); a speed not listed takes the ASIC's peer_response_time instead.
 */
export const SONIC_PAUSE_QUANTA: ReadonlyMap<number, number> = new Map([
  [800000, 905], [400000, 905], [200000, 453], [100000, 394], [50000, 147], [40000, 118], [25000, 80], [10000, 67], [1000, 2], [100, 1],
]);

/**
 * SONiC's shipped inputs the sonic profiles start from when not given: port MTU 9100 (sonic-buildimage
 * port_config.ini / PORT default mtu) and lossless MTU 1024 (LOSSLESS_TRAFFIC_PATTERN|AZURE mtu of
 * files/build_templates/buffers_config.j2).
 */
export const SONIC_PORT_MTU = 9100;
export const SONIC_LOSSLESS_MTU = 1024;

/** ASIC_TABLE fields an entry must give, as SONiC writes them (KB of 1024 B but cell_size, bytes). */
const ASIC_TABLE_FIELDS = ['cell_size', 'pipeline_latency', 'mac_phy_delay', 'peer_response_time'] as const;

/**
 * One STATE_DB ASIC_TABLE entry (`--asic-table FILE`) as the plugin reads it: either
 * `{"MELLANOX-SPECTRUM-4": {cell_size, pipeline_latency, mac_phy_delay, peer_response_time}}` or the
 * fields alone (key "ASIC_TABLE"); values are numbers or SONiC's strings. As in the plugin, a key
 * ending in 4 or 5 adds the on-tile term and one ending in 6 the 18 KB. Problems name `at` and the field.
 */
export function parseAsicTable(doc: unknown, at = 'asic_table'): AsicPreset & { key: string } {
  const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
  if (!isObj(doc)) throw new InputError({ path: at, rule: 'must be one ASIC_TABLE entry: {"NAME": {cell_size, pipeline_latency, mac_phy_delay, peer_response_time}} or those fields' });
  const keys = Object.keys(doc);
  const nested = keys.length === 1 && isObj(doc[keys[0]]);
  const key = nested ? keys[0] : 'ASIC_TABLE';
  const fields = (nested ? doc[keys[0]] : doc) as Record<string, unknown>;
  const problems: Problem[] = [];
  const value = (name: (typeof ASIC_TABLE_FIELDS)[number], min: number, whole: boolean): number => {
    const raw = fields[name];
    const v = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw) : NaN;
    if (!(Number.isFinite(v) && v >= min && v <= 1e6 && (!whole || Number.isInteger(v)))) {
      problems.push({ path: `${at}: ${nested ? `${key}.` : ''}${name}`, rule: raw === undefined ? 'required' : `must be ${whole ? 'a whole number' : 'a number'} >= ${min}${whole ? ' of bytes' : ' (KB of 1024 B)'}, got ${JSON.stringify(raw)}` });
    }
    return v;
  };
  const cellBytes = value('cell_size', 1, true);
  const pipelineLatencyKb = value('pipeline_latency', 0, false);
  const macPhyDelayKb = value('mac_phy_delay', 0, false);
  const peerResponseTimeKb = value('peer_response_time', 0, false);
  for (const k of Object.keys(fields)) {
    if (!(ASIC_TABLE_FIELDS as readonly string[]).includes(k)) problems.push({ path: `${at}: ${nested ? `${key}.` : ''}${k}`, rule: `unknown field; an ASIC_TABLE entry has ${ASIC_TABLE_FIELDS.join(', ')}` });
  }
  if (problems.length) throw new InputError(problems);
  const generation = key.slice(-1);
  return {
    key, cellBytes, pipelineLatencyKb, macPhyDelayKb, peerResponseTimeKb,
    onTile: generation === '4' || generation === '5',
    xoffCompensationBytes: generation === '6' ? 18 * 1024 : 0,
  };
}

/** SONiC plugin inputs beyond speed, cable and MTUs (CONFIG_DB / port attributes). */
export interface SonicParams {
  asic: AsicName | 'custom';
  /** An ASIC_TABLE entry given instead of a preset (`--asic-table FILE`); `asic` is then "custom". */
  asicTable?: AsicPreset & { key: string };
  /** Lanes of the port; only 8 changes the result (it doubles the pipeline latency and adds one port MTU to the size). */
  lanes: number;
  /** Share of small (64 B) frames in lossless traffic, percent 0..100 (LOSSLESS_TRAFFIC_PATTERN). */
  smallPacketPercent: number;
  /** The shared headroom pool is on (BUFFER_POOL xoff or over_subscribe_ratio set): the PG size is xon only. */
  sharedHeadroomPool: boolean;
  /** Gearbox delay, ns (0 = no gearbox). */
  gearboxDelayNs: number;
}

/**
 * Defaults: Spectrum-1, 4 lanes, no pool, no gearbox, and the small-packet share that SONiC's
 * buffer template ships (sonic-buildimage files/build_templates/buffers_config.j2,
 * LOSSLESS_TRAFFIC_PATTERN AZURE: small_packet_percentage 50).
 */
export const SONIC_DEFAULTS: SonicParams = {
  asic: 'spectrum1', lanes: 4, smallPacketPercent: 50, sharedHeadroomPool: false, gearboxDelayNs: 0,
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
  /** SONiC profiles: the inputs used, the factor applied to the propagation terms, and the PG profile. */
  sonic?: SonicParams;
  cell_occupancy?: number;
  /** SONiC profiles, a speed with no pause-quanta entry: the peer response came from the ASIC table. */
  peer_response_from?: 'peer_response_time';
  xoff_bytes?: number;
  xon_bytes?: number;
  size_bytes?: number;
  /** Speed-table entries that are assumptions, not quoted bounds. */
  assumptions: string[];
  /** Legal inputs that are probably mistakes (a lossless MTU above the port MTU under a sonic profile). */
  warnings?: { path: string; rule: string }[];
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
    throw new InputError({ path: 'speed', rule: `must be one of ${PORT_SPEED_NAMES.join(', ')}` });
  }
  return row;
}

function checkInput(input: HeadroomInput, sonic: boolean): void {
  const problems: Problem[] = [];
  if (!Number.isFinite(input.cableM) || input.cableM < 0) problems.push({ path: 'cable', rule: 'must be a length of at least 0 m' });
  for (const key of ['mtu', 'losslessMtu'] as const) {
    const v = input[key];
    if (v !== undefined && !(Number.isInteger(v) && v >= MTU_MIN && v <= MTU_MAX)) {
      problems.push({ path: key === 'mtu' ? 'mtu' : 'lossless_mtu', rule: MTU_RULE });
    }
  }
  const lossless = !sonic && input.losslessMtu !== undefined && losslessMtuRule(input.losslessMtu, input.mtu);
  if (lossless) problems.push({ path: 'lossless_mtu', rule: lossless });
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

/** The plugin inputs with defaults filled in; each one checked (paths are the CLI's names without --). */
function sonicParams(given: Partial<SonicParams> | undefined): SonicParams {
  const p = { ...SONIC_DEFAULTS, ...given };
  const problems: Problem[] = [];
  if (p.asicTable === undefined && !ASIC_NAMES.includes(p.asic as AsicName)) problems.push({ path: 'asic', rule: `must be one of ${ASIC_NAMES.join(', ')}` });
  if (!(Number.isInteger(p.lanes) && p.lanes >= 1 && p.lanes <= 64)) problems.push({ path: 'lanes', rule: 'must be a whole number of lanes 1..64 (only 8 changes the result)' });
  if (!(Number.isInteger(p.smallPacketPercent) && p.smallPacketPercent >= 0 && p.smallPacketPercent <= 100)) {
    problems.push({ path: 'small_packet_percent', rule: 'must be a whole percentage 0..100' });
  }
  if (!(Number.isFinite(p.gearboxDelayNs) && p.gearboxDelayNs >= 0)) problems.push({ path: 'gearbox_delay', rule: 'must be a number of ns >= 0' });
  if (problems.length) throw new InputError(problems);
  return p;
}

const MIN_PACKET = 64;
const roundUpKb = (bytes: number) => Math.ceil(bytes / 1024) * 1024;

/**
 * The plugin's arithmetic. `era` 2026 is the current script; 2023 the one before #3235 (factor not
 * rounded, small-packet share taken by frames, cable divided by 8 * 1024, 8 lanes = 2 * latency - 1 KB,
 * no on-tile term, no Spectrum-6 or small-packet compensation). Same operations in the same order as
 * the Lua (IEEE doubles in both), so that each 1024 rounding lands where SONiC's does.
 */
function sonicHeadroom(input: HeadroomInput, losslessMtu: number, era: 2023 | 2026): HeadroomResult {
  const p = sonicParams(input.sonic);
  const asic: AsicPreset = p.asicTable ?? ASIC_PRESETS[p.asic as AsicName];
  const current = era === 2026;
  const speedMbps = input.speedBps / 1e6; // the plugin's port_speed
  const spp = p.smallPacketPercent;

  let pipelineLatency = asic.pipelineLatencyKb * 1024;
  let speedOverhead = 0;
  if (p.lanes === 8) {
    pipelineLatency = current ? pipelineLatency * 2 : pipelineLatency * 2 - 1024;
    speedOverhead = input.mtu;
  }
  let worstCaseFactor = asic.cellBytes > 2 * MIN_PACKET ? asic.cellBytes / MIN_PACKET : (2 * asic.cellBytes) / (1 + asic.cellBytes);
  let smallShare = spp; // percent of lossless traffic the small frames take
  if (current) {
    worstCaseFactor = Math.ceil(worstCaseFactor);
    // the share by bytes: small frames of 64 B among frames of the lossless MTU
    smallShare = (100 * MIN_PACKET) / ((spp * MIN_PACKET + (100 - spp) * losslessMtu) / 100);
  }
  const cellOccupancy = (100 - smallShare + smallShare * worstCaseFactor) / 100;
  const gearboxBytes = p.gearboxDelayNs === 0 ? 0 : (speedMbps * p.gearboxDelayNs) / (8 * 1024);
  const quanta = SONIC_PAUSE_QUANTA.get(speedMbps);
  const peerResponse = quanta !== undefined ? (quanta * 512) / 8 : asic.peerResponseTimeKb * 1024;
  const cableBytes = (2 * input.cableM * speedMbps * 1_000_000_000) / 198_000_000 / (current ? 8 * 1000 : 8 * 1024);
  const macPhyDelay = asic.macPhyDelayKb * 1024;
  const onTile = current && asic.onTile ? ((speedMbps / 1000) * 120) / 8 : 0;
  const propagation = input.mtu + cableBytes + 2 * gearboxBytes + macPhyDelay + peerResponse + onTile;

  let xoff = roundUpKb(losslessMtu + propagation * cellOccupancy);
  if (current) {
    xoff += asic.xoffCompensationBytes;
    // #4757: without the pool, a headroom sized for fewer small frames gets 2 KB back when it
    // stays more than 2 KB under the all-small-frames worst case
    if (!p.sharedHeadroomPool && spp !== 100) {
      const worstXoff = roundUpKb(losslessMtu + propagation * worstCaseFactor);
      if (xoff + 2 * 1024 < worstXoff) xoff += 2 * 1024;
    }
  }
  const xon = roundUpKb(pipelineLatency);
  const size = roundUpKb(p.sharedHeadroomPool ? xon : xoff + xon + speedOverhead);
  const bits = (bytes: number) => Math.ceil(bytes * 8);
  return {
    profile: current ? 'sonic' : 'sonic-2023',
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
      ...(current ? { on_tile: bits(onTile) } : {}),
    },
    sonic: p,
    cell_occupancy: cellOccupancy,
    ...(quanta === undefined ? { peer_response_from: 'peer_response_time' as const } : {}),
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
  const losslessMtu = input.losslessMtu ?? input.mtu;
  const profile = input.profile ?? 'ieee';
  if (profile === 'sonic' || profile === 'sonic-2023') {
    // The plugin takes any speed (a whole number of Mb/s) and any lossless MTU; so does this profile.
    checkInput(input, true);
    if (!(Number.isInteger(input.speedBps / 1e6) && input.speedBps >= 1e6)) {
      throw new InputError({ path: 'speed', rule: 'must be a whole number of Mb/s (the plugin takes PORT speed in Mb/s)' });
    }
    if (input.interfaceDelayBt !== undefined) {
      throw new InputError({ path: 'interface_delay', rule: 'applies to profile ieee only (the sonic profiles have mac_phy_delay)' });
    }
    const r = sonicHeadroom(input, losslessMtu, profile === 'sonic' ? 2026 : 2023);
    const above = losslessMtuRule(losslessMtu, input.mtu);
    if (above) r.warnings = [{ path: 'lossless_mtu', rule: `${above.replace('must not exceed', 'exceeds')}; the plugin computes it as given, but no lossless frame is larger than the port MTU` }];
    return r;
  }
  const row = rowFor(input.speedBps);
  checkInput(input, false);
  if (profile !== 'ieee') throw new InputError({ path: 'profile', rule: `must be one of ${HEADROOM_PROFILES.join(', ')}` });
  if (input.sonic !== undefined) throw new InputError({ path: 'profile', rule: 'the SONiC plugin inputs apply to the sonic profiles only' });
  return ieeeHeadroom(input, row, losslessMtu);
}
