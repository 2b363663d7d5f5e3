// The simulator's read-only view of a port's DCB config. The config itself is the core config
// format (host/config: parseConfig, every rule and default of docs/config.md); a scenario embeds
// one per node, per profile or as the default, and this module keeps only what the engine reads.
import { TSA_CODE } from '../core/codes.js';
import { InputError, type Problem } from '../errors/errors.js';
import { flowControlOf, parseConfig, type DcbConfig, type QcnRpConfig } from '../config/index.js';

export interface DcbView {
  mtu: number;
  prioTc: number[];
  /** Per TC, the 802.1Qaz TSA codes the ETS kernel reads: 0 strict, 1 cbs, 2 ets, 255 vendor. */
  tsa: number[];
  bw: number[];
  pfcEnable: number[];
  pauseEnable: boolean;
  pauseTime: number;
  qcnPriorities: number[];
  qcnQeq: number;
  qcnW: number;
  /** qcn.cp.quantiser: how Fb becomes the CNM's 6-bit Qfb (802.1Qau linear, or the msb form). */
  qcnQuantiser: 'linear' | 'msb';
  /** dcqcn CP marking: kmin, kmax (bytes), pmax (%) */
  qcnKmin: number;
  qcnKmax: number;
  qcnPmax: number;
  qcnRp: QcnRpConfig;
  creditPriorities: number[];
  /** Flow-control mode of each priority 0..7 as the config sets it (config flowControlOf). */
  flowControl: ('pfc' | 'credit' | 'pause' | 'lossy')[];
  creditUnit: number;
  /** credit.counter_bits: the width k of the credit counters (modulo 2^k). */
  creditBits: number;
  creditAgingPs: number;
  /** pfc.watchdog of the config, in ps; null when not enabled. */
  watchdog: { detection_time: number; restoration_time: number; poll_interval: number; action: 'drop' | 'forward' | 'alert' } | null;
}

const MS = 1e9;

/** Parses one embedded config; problems carry the scenario path (`defaults.dcb.ets.bw`). */
export function parseDcb(cfg: unknown, path: string): { view: DcbView; problems: Problem[] } {
  try {
    return { view: dcbView(parseConfig(cfg ?? {}).config), problems: [] };
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    const problems = e.problems.map((p) => ({ path: p.path === 'config' || p.path === '' ? path : `${path}.${p.path}`, rule: p.rule }));
    return { view: dcbView(parseConfig({}).config), problems };
  }
}

export function dcbView(c: DcbConfig): DcbView {
  const wd = c.pfc.watchdog;
  return {
    mtu: c.port.mtu,
    prioTc: [...c.ets.prio_tc],
    tsa: c.ets.tsa.map((t) => TSA_CODE[t]),
    bw: [...c.ets.bw],
    pfcEnable: [...c.pfc.enable],
    pauseEnable: c.pause.enable,
    pauseTime: c.pause.enable ? c.pause.pause_time : c.pfc.pause_time,
    qcnPriorities: [...c.qcn.cp.priorities],
    qcnQeq: c.qcn.cp.q_eq,
    qcnW: c.qcn.cp.w,
    qcnQuantiser: c.qcn.cp.quantiser,
    qcnKmin: c.qcn.cp.kmin,
    qcnKmax: c.qcn.cp.kmax,
    qcnPmax: c.qcn.cp.pmax,
    qcnRp: c.qcn.rp,
    creditPriorities: [...c.credit.priorities],
    flowControl: Array.from({ length: 8 }, (_, p) => flowControlOf(c, p)),
    creditUnit: c.credit.unit,
    creditBits: c.credit.counter_bits,
    creditAgingPs: c.credit.aging_us * 1e6,
    watchdog: wd.enable
      ? { detection_time: wd.detection_ms * MS, restoration_time: wd.restoration_ms * MS, poll_interval: wd.poll_ms * MS, action: wd.action }
      : null,
  };
}
