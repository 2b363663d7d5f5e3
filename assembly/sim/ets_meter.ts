// ETS share meter (docs/sim.md, "ETS shares"): IEEE 802.1Q-2018 clause 37.3 gives each ETS TC its
// configured share of the bandwidth the ETS TCs use when all of them have frames; the engine
// measures that share per port on the wire bytes each TC sent, over the sampling intervals in which
// every weighted ETS TC of the port was eligible at every selection (SP_UNSAT stayed 0) and the port
// sent at least SH_ETS_MIN_BYTES of them (enough for the DRR round to matter).
//
// State: one EM_ entry per measured port (the host lists the ports with two or more ETS TCs of
// non-zero bandwidth): the per-TC byte counters at the last sample and the sums over the saturated
// intervals. Runs once per sampling interval, for the ports this instance owns (each partition of a
// partitioned run its own, at the same batch end), so it adds no pass over every port to the host.
import {
  EM_ACC, EM_LAST, EM_PORT, EM_SIZE, EM_WEIGHTED, SH_ETS_METER, SH_ETS_MIN_BYTES, SH_NETS_METER, SQ_TX_BYTES,
  SP_UNSAT,
} from './layout';
import { hdr, owns, portAt } from './arena';
import { tcQueue } from './queues';

/** Closes a sampling interval for every measured port this instance owns. */
export function etsMeterSample(): void {
  const table = <usize>load<i32>(hdr + SH_ETS_METER);
  const n = load<i32>(hdr + SH_NETS_METER);
  const minBytes = <i64>load<i32>(hdr + SH_ETS_MIN_BYTES);
  for (let i = 0; i < n; i++) {
    const e = table + <usize>i * EM_SIZE;
    const p = load<i32>(e + EM_PORT);
    if (!owns(p)) continue;
    const pa = portAt(p);
    const mask = load<i32>(e + EM_WEIGHTED);
    let weighted: i64 = 0;
    for (let tc = 0; tc < 8; tc++) {
      const o = <usize>tc << 3;
      const now = load<i64>(tcQueue(pa, tc) + SQ_TX_BYTES);
      const delta = now - load<i64>(e + EM_LAST + o);
      if (((mask >> tc) & 1) != 0) weighted += delta;
    }
    const saturated = load<i32>(pa + SP_UNSAT) == 0 && weighted >= minBytes;
    for (let tc = 0; tc < 8; tc++) {
      const o = <usize>tc << 3;
      const now = load<i64>(tcQueue(pa, tc) + SQ_TX_BYTES);
      if (saturated) store<i64>(e + EM_ACC + o, load<i64>(e + EM_ACC + o) + now - load<i64>(e + EM_LAST + o));
      store<i64>(e + EM_LAST + o, now);
    }
    store<i32>(pa + SP_UNSAT, 0);
  }
}
