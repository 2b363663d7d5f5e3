// Configure protocol of PFC / 802.3x PAUSE (assembly/pfc.ts), the ETS way: the host writes the
// record's config fields (PFC_MODE .. PFC_HEADROOM), then the core's pfcConfigure resets the state
// and derives quantum, refresh interval, unit map, limits and XOFF/XON triggers. The one place that
// knows which field holds which parameter: `vectors pfc` (host/core/pfc.ts), the tests and the simulator
// (host/sim/fabric-params.ts, then simInit) all write through it.
import type { Core } from '../loader.js';
import { PFC_MODE_CODE, PFC_PORT_UNIT as PORT_UNIT, type PfcMode } from '../codes.js';
import { RecordFields } from './fields.js';

export { PORT_UNIT };

/** Parameters of one port's PFC record (sizes bytes, speed bit/s). */
export interface PfcParams {
  mode: PfcMode;
  /** Priorities with PFC enabled (lossless). */
  enable: number[];
  /** Quanta carried by XOFF (default 0xFFFF). */
  pauseTime?: number;
  /** Refresh interval in quanta (default max(1, pauseTime >> 1)). */
  refreshQuanta?: number;
  speedBps: number | bigint;
  /** Per unit 0..8 (priorities, then the port): thresholds and headroom in bytes; a unit with
   *  xoff = 2^31 - 1 and headroom 0 never pauses and never drops. */
  xoff: number[];
  xon: number[];
  headroom: number[];
}

/** Thresholds of a unit that takes no part in flow control. */
export const PFC_UNIT_OFF = { xoff: 0x7fffffff, xon: 0, headroom: 0 } as const;

/** Writes the config fields of the PFC record at `rec`; call pfcConfigure (core) afterwards. */
export function writePfcParams(core: Core, rec: number, p: PfcParams): void {
  const f = PFC_FIELDS.of(core);
  const i32 = core.i32;
  i32[(rec + f.PFC_MODE) >>> 2] = PFC_MODE_CODE[p.mode];
  i32[(rec + f.PFC_ENABLE) >>> 2] = p.enable.reduce((m, pr) => m | (1 << pr), 0);
  i32[(rec + f.PFC_PAUSE_TIME) >>> 2] = p.pauseTime ?? 0xffff;
  i32[(rec + f.PFC_REFRESH_QUANTA) >>> 2] = p.refreshQuanta ?? 0;
  core.i64[(rec + f.PFC_SPEED_BPS) >>> 3] = BigInt(p.speedBps);
  for (let u = 0; u <= PORT_UNIT; u++) {
    i32[((rec + f.PFC_XOFF_TH) >>> 2) + u] = p.xoff[u];
    i32[((rec + f.PFC_XON_TH) >>> 2) + u] = p.xon[u];
    i32[((rec + f.PFC_HEADROOM) >>> 2) + u] = p.headroom[u];
  }
}

const PFC_FIELDS = new RecordFields(['PFC_MODE', 'PFC_ENABLE', 'PFC_PAUSE_TIME', 'PFC_REFRESH_QUANTA', 'PFC_SPEED_BPS', 'PFC_XOFF_TH', 'PFC_XON_TH', 'PFC_HEADROOM'] as const);
