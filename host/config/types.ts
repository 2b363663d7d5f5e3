// Types of the normalised DCB config: what parseConfig (schema.ts) returns and every command reads
// (docs/design.md §5 key names; units: bit/s, bytes, metres, ps).
import type { TsaName } from '../core/codes.js';

export type { TsaName };
export type AppSelectorName = 'ethertype' | 'stream' | 'dgram' | 'any' | 'dscp';

export interface PortConfig {
  name: string;
  /** bit/s */
  speed: number;
  /** largest frame on this port in bytes, FCS included (the `--mtu` of the headroom formula) */
  mtu: number;
  /** metres */
  cable: number;
  /** lower case, colon separated, unicast */
  mac: string;
}

export interface EtsTables {
  /** TC of priority 0..7 */
  prio_tc: number[];
  /** TSA of TC 0..7 */
  tsa: TsaName[];
  /** percent of TC 0..7; ETS TCs sum to 100, others 0 */
  bw: number[];
}

export interface EtsConfig extends EtsTables {
  willing: boolean;
  /** the CBS bit of the ETS-CFG TLV: this station supports the credit-based shaper TSA */
  cbs: boolean;
  /** number of TCs the device supports (1..8); TCs max_tcs..7 must stay unused */
  max_tcs: number;
  /** ETS Recommendation TLV contents, when advertised */
  recommendation?: EtsTables;
}

export interface PgConfig {
  willing: boolean;
  /** PGID of priority 0..7: 0..7, or 15 = strict (no bandwidth limit) */
  prio_pgid: number[];
  /** percent of PGID 0..7 */
  pg_bw: number[];
}

export interface PfcWatchdogConfig {
  enable: boolean;
  detection_ms: number;
  restoration_ms: number;
  poll_ms: number;
  action: 'drop' | 'forward' | 'alert';
}

export interface PfcConfig {
  /** priorities with PFC, ascending */
  enable: number[];
  willing: boolean;
  mbc: boolean;
  /** how many priorities may have PFC at once (0..8) */
  cap: number;
  /** quanta sent in an XOFF frame (2..65535) */
  pause_time: number;
  /** bytes reserved above xoff per lossless priority, or 'auto' = computeHeadroom(port) */
  headroom: 'auto' | number;
  /** ingress occupancy (bytes) at which XOFF is sent */
  xoff: number;
  /** ingress occupancy (bytes) at or below which XON is sent */
  xon: number;
  watchdog: PfcWatchdogConfig;
}

export interface PauseConfig {
  /** 802.3x PAUSE for the whole port (exclusive with PFC and credit) */
  enable: boolean;
  pause_time: number;
}

export interface AppEntry {
  /** 1 ethertype, 2 stream (TCP/SCTP port), 3 dgram (UDP/DCCP port), 4 any port, 5 dscp */
  selector: 1 | 2 | 3 | 4 | 5;
  selector_name: AppSelectorName;
  protocol: number;
  priority: number;
}

export interface QcnCpConfig {
  priorities: number[];
  q_eq: number;
  w: number;
  quantiser: 'linear' | 'msb';
  /** dcqcn profile: ECN marking starts above kmin bytes, probability pmax % at kmax bytes */
  kmin: number;
  kmax: number;
  pmax: number;
}

/** The reaction-point parameters both profiles share (docs/design.md §4.5 names). */
export interface QcnRpCommon {
  line_bps: number;
  bc_bytes: number;
  timer_ps: number;
  th: number;
  ai_bps: number;
  hai_bps: number;
  min_bps: number;
}

export interface QcnRpQauPc extends QcnRpCommon {
  profile: 'qau-pc';
  gd_shift: number;
  min_dec_num: number;
  extra_fast_recovery: boolean;
}

export interface QcnRpDcqcn extends QcnRpCommon {
  profile: 'dcqcn';
  /** alpha EWMA gain g, a multiple of 2^-24 (paper: 1/256; input also as g_shift: g = 2^-g_shift) */
  g: number;
  /** alpha decays every alpha_timer_ps without a CNP (paper: 55 us) */
  alpha_timer_ps: number;
  /** the NP sends at most one CNP per flow per cnp_interval_ps (paper: 50 us) */
  cnp_interval_ps: number;
  /** fraction bits of alpha and g in the core: 20 (default), 10 = the NIC-like Q10 (floor rounding) */
  alpha_bits: number;
  /** alpha when the rate limiter engages (paper: 1) */
  alpha_init: number;
  /** a CNP cuts CR by alpha / 2^alpha_cut_shift (paper: 1, i.e. alpha/2; NVIDIA rpg_gd - 10) */
  alpha_cut_shift: number;
  /** a cut leaves at least this % of CR (0: no bound; NVIDIA rpg_min_dec_fac) */
  min_dec_pct: number;
  /** CR = TR = this rate on the CNP that engages the limiter (0: an ordinary cut; NVIDIA rate_to_set_on_first_cnp) */
  first_cnp_bps: number;
  /** TR = CR on every CNP (paper); else only after an increase since the last cut (NVIDIA names) */
  clamp_tgt_rate: boolean;
  clamp_tgt_rate_after_time_inc: boolean;
}

export type QcnRpConfig = QcnRpQauPc | QcnRpDcqcn;

export interface QcnConfig {
  cp: QcnCpConfig;
  rp: QcnRpConfig;
}

export interface CreditConfig {
  priorities: number[];
  /** credit unit in bytes */
  unit: number;
  aging_us: number;
  /** width k of the absolute counters (modulo 2^k) */
  counter_bits: number;
  /** OUI/CID of the CET capability TLV */
  oui: string;
}

export interface DcbConfig {
  port: PortConfig;
  ets: EtsConfig;
  pg?: PgConfig;
  pfc: PfcConfig;
  pause: PauseConfig;
  app: AppEntry[];
  qcn: QcnConfig;
  credit: CreditConfig;
}
