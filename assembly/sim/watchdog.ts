// PFC watchdog with SONiC pfcwd semantics (sonic-net/sonic-swss orchagent/pfcwdorch.cpp, pfc_detect_*.lua): every poll interval,
// each watched egress queue of a PFC priority with frames waiting, paused and nothing sent since the
// last poll counts down its detection time; a storm is then declared and, by action, its frames are
// dropped and pauses ignored (drop), pauses ignored (forward) or only logged (alert). It is restored
// after restoration_time without a PFC frame received for that priority.
//
// State per (port, priority): SP_WD_LEFT countdown, SP_WD_LAST_TX/RX counters at the last poll;
// SP_WD_STORM / SP_WD_IGNORE / SP_WD_DROP masks per port. Events go to the watchdog log (SW_SIZE).
import { FC_PFC, WD_ALERT, WD_DROP } from '../layout';
import {
  SC_WD_EVENTS, SK_KIND, SK_NEXT, SK_PRIO, SP_ETS, SP_NODE, SP_PFC, SP_PFC_RX, SP_TX_PKTS,
  SP_WD_ACTION, SP_WD_DETECT, SP_WD_DROP, SP_WD_IGNORE, SP_WD_LAST_RX, SP_WD_LAST_TX, SP_WD_LEFT, SP_WD_POLL, SQ_BYTES, SQ_HEAD,
  SP_WD_RESTORE, SP_WD_STORM, SW_SIZE,
} from './layout';
import { pfcBlockedMask } from '../pfc';
import { A_LOSSY, count, ctr, modeAt, nPorts, now, owns, pktAt, portAt, wdCap, wdPolls, wdlog } from './arena';
import { tryTransmit } from './link';
import { dropPacket, release } from './mmu';
import { dequeue, tcQueue } from './queues';

// ----------------------------------------------------------------------------------------------
// PFC watchdog (SONiC pfcwd semantics, sonic-net/sonic-swss orchagent/pfcwdorch.cpp)
// ----------------------------------------------------------------------------------------------

export function logWatchdog(p: i32, pr: i32, event: i32): void {
  const n = <i32>load<i64>(ctr + SC_WD_EVENTS);
  if (n < wdCap) {
    const at = wdlog + <usize>n * SW_SIZE;
    store<i64>(at, now);
    store<i32>(at + 8, p);
    store<i32>(at + 12, pr | (event << 8));
  }
  count(SC_WD_EVENTS, 1);
}

/**
 * One poll of the ports whose watchdog polls at interval `group`: a lossless queue with frames,
 * paused and without transmissions for detection_time is stormed. Each port acts with its own
 * switch's detection and restoration times and action.
 */
export function watchdogPoll(group: i32): void {
  const wdPoll = load<i64>(wdPolls + (<usize>group << 3));
  for (let p = 0; p < nPorts; p++) {
    const pa = portAt(p);
    if (load<i32>(pa + SP_WD_POLL) != group || !owns(p)) continue;
    const wdDetect = load<i64>(pa + SP_WD_DETECT);
    const wdRestore = load<i64>(pa + SP_WD_RESTORE);
    const wdAction = load<i32>(pa + SP_WD_ACTION);
    for (let pr = 0; pr < 8; pr++) {
      if (modeAt(pa, pr) != FC_PFC) continue;
      const o = <usize>pr << 3;
      const tx = load<i64>(pa + SP_TX_PKTS + o);
      const rx = load<i64>(pa + SP_PFC_RX + o);
      const stormed = (load<i32>(pa + SP_WD_STORM) >> pr) & 1;
      let left = load<i64>(pa + SP_WD_LEFT + o);
      if (stormed == 0) {
        const tc = <i32>load<u8>(pa + SP_ETS + pr);
        const cond = load<i32>(tcQueue(pa, tc) + SQ_BYTES) > 0
          && ((pfcBlockedMask(pa + SP_PFC, now) >> pr) & 1) != 0 && tx == load<i64>(pa + SP_WD_LAST_TX + o);
        left = cond ? left - wdPoll : wdDetect;
        if (cond && left <= 0) {
          store<i32>(pa + SP_WD_STORM, load<i32>(pa + SP_WD_STORM) | (1 << pr));
          logWatchdog(p, pr, 1);
          if (wdAction != WD_ALERT) store<i32>(pa + SP_WD_IGNORE, load<i32>(pa + SP_WD_IGNORE) | (1 << pr));
          if (wdAction == WD_DROP) {
            store<i32>(pa + SP_WD_DROP, load<i32>(pa + SP_WD_DROP) | (1 << pr));
            flushPriority(p, pa, pr);
          }
          left = wdRestore;
          tryTransmit(p);
        }
      } else {
        left = rx == load<i64>(pa + SP_WD_LAST_RX + o) ? left - wdPoll : wdRestore;
        if (left <= 0) {
          const m = ~(1 << pr);
          store<i32>(pa + SP_WD_STORM, load<i32>(pa + SP_WD_STORM) & m);
          store<i32>(pa + SP_WD_IGNORE, load<i32>(pa + SP_WD_IGNORE) & m);
          store<i32>(pa + SP_WD_DROP, load<i32>(pa + SP_WD_DROP) & m);
          logWatchdog(p, pr, 2);
          left = wdDetect;
        }
      }
      store<i64>(pa + SP_WD_LEFT + o, left);
      store<i64>(pa + SP_WD_LAST_TX + o, tx);
      store<i64>(pa + SP_WD_LAST_RX + o, rx);
    }
  }
}

/** Watchdog action drop: the stormed priority's queued frames are discarded (and counted). */
export function flushPriority(p: i32, pa: usize, pr: i32): void {
  const tc = <i32>load<u8>(pa + SP_ETS + pr);
  let n = 0;
  let k = load<i32>(tcQueue(pa, tc) + SQ_HEAD);
  while (k >= 0) { n++; k = load<i32>(pktAt(k) + SK_NEXT); }
  const node = load<i32>(pa + SP_NODE);
  for (let i = 0; i < n; i++) {
    const q = dequeue(pa, tc);
    release(node, q, tc, pa);
    // Lossless unless its ingress port admitted it as lossy (the buffer account it held).
    dropPacket(q, load<i32>(pktAt(q) + SK_PRIO), ((load<i32>(pktAt(q) + SK_KIND) >> 8) & 0xff) != A_LOSSY);
  }
}
