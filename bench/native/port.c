/*
 * C reference of the dcbkit port pipeline (assembly/port.ts): the same per-packet algorithm on the
 * same byte layout, so that on the same seeded input both produce the same state checksum
 * (test/port-differential.test.ts) and `dcbkit bench` has a native-speed anchor (docs/design.md §3, §6).
 *
 * Pipeline per arrival: serve the link up to the arrival time (802.1Qaz ETS selection: strict TCs by
 * number, then DWRR), then the arrival (802.1Qbb PFC frame received, or a data frame: classify,
 * PFC ingress accounting, FIFO, 802.1Qau CP sampling, XOFF refresh), PFC frames and CNMs to the event
 * ring. The kernels mirror assembly/ets.ts, assembly/pfc.ts and assembly/qcn_cp.ts; layout offsets
 * come from assembly/layout.ts through the generated build/dcb_layout.h. Integer arithmetic only.
 *
 * Usage: port.out check SEED PACKETS        prints the checksum (u32) after PACKETS arrivals
 *        port.out bench BATCH SAMPLES WARMUP prints SAMPLES timings, ns per packet, of BATCH packets
 *        port.out count SEED N               set-up + 30 warm-up batches + N packets (for perf stat)
 * Build: npm run build (writes build/dcb_layout.h), then gcc -O2 -std=c11 -I build -o port.out port.c
 */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef int32_t i32;
typedef uint32_t u32;
typedef int64_t i64;
typedef uint8_t u8;

/* ---- layout: offsets and codes of assembly/layout.ts, generated into build/dcb_layout.h by
   scripts/layout-h.mjs at build time (gcc -I build), so the C side never keeps a copy ---- */
#include "dcb_layout.h"
#define NEVER INT64_MAX
#define I32_MAX INT32_MAX

static _Alignas(16) u8 PORTMEM[PORT_BYTES];
static _Alignas(16) u8 QUEUES[8 * QUEUE_CAP * 4];
static _Alignas(16) u8 IN_RING[IN_CAP * 8];
static _Alignas(16) u8 OUT_RING[OUT_CAP * 16];
static _Alignas(16) u8 PAUSE_TIMES[16];
#define PORT PORTMEM

static inline i32 ld32(const u8 *p) { i32 v; memcpy(&v, p, 4); return v; }
static inline u32 ldu32(const u8 *p) { u32 v; memcpy(&v, p, 4); return v; }
static inline i64 ld64(const u8 *p) { i64 v; memcpy(&v, p, 8); return v; }
static inline void st32(u8 *p, i32 v) { memcpy(p, &v, 4); }
static inline void stu32(u8 *p, u32 v) { memcpy(p, &v, 4); }
static inline void st64(u8 *p, i64 v) { memcpy(p, &v, 8); }
static inline void inc64(u8 *p, i64 d) { st64(p, ld64(p) + d); }
static inline i32 ctz32(u32 x) { return x ? __builtin_ctz(x) : 32; }
static inline i32 clz32(u32 x) { return x ? __builtin_clz(x) : 32; }

/* ---- rng (assembly/rng.ts) ---- */
static inline u32 rng_seed(u32 seed, u32 id) {
  u32 s = seed ^ (u32)((id + 1u) * 0x9E3779B9u);
  return s == 0 ? 0x6D2B79F5u : s;
}
static inline u32 rng_next(u8 *state) {
  u32 x = ldu32(state);
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  stu32(state, x);
  return x;
}
static inline i64 jitter(i64 base, u8 *state) {
  u32 r = rng_next(state);
  return (base * (i64)(55706u + r % 19661u)) >> 16;
}

/* ---- ets (assembly/ets.ts) ---- */
static void ets_configure(u8 *ets, i32 max_frame) {
  i32 max_wire = max_frame + WIRE_OVERHEAD, strict = 0, weighted = 0, zero = 0, min_bw = 101;
  for (i32 tc = 0; tc < 8; tc++) {
    i32 tsa = ets[ETS_TSA + tc], bw = ets[ETS_BW + tc];
    if (tsa == TSA_STRICT || tsa == TSA_CBS) strict |= 1 << tc;
    else if (bw > 0) { weighted |= 1 << tc; if (bw < min_bw) min_bw = bw; }
    else zero |= 1 << tc;
  }
  i32 q = weighted != 0 ? (max_wire + min_bw - 1) / min_bw : max_wire;
  for (i32 tc = 0; tc < 8; tc++) {
    i32 bit = 1 << tc, bw = ets[ETS_BW + tc];
    st32(ets + ETS_QUANTUM + 4 * tc, (weighted & bit) ? bw * q : (zero & bit) ? max_wire : 0);
    st32(ets + ETS_DEFICIT + 4 * tc, 0);
  }
  st32(ets + ETS_STRICT_MASK, strict);
  st32(ets + ETS_WEIGHTED_MASK, weighted);
  st32(ets + ETS_ZERO_MASK, zero);
  st32(ets + ETS_Q_UNIT, q);
  st32(ets + ETS_MAX_WIRE, max_wire);
  st32(ets + ETS_CUR, 7);
}
static inline i32 ets_select(u8 *ets, i32 backlog, i32 blocked, const u8 *head_wire) {
  i32 eligible = backlog & ~blocked;
  i32 strict = eligible & ld32(ets + ETS_STRICT_MASK);
  if (strict != 0) return 31 - clz32((u32)strict);
  i32 cand = eligible & ld32(ets + ETS_WEIGHTED_MASK);
  if (cand == 0) cand = eligible & ld32(ets + ETS_ZERO_MASK);
  if (cand == 0) return -1;
  i32 cur = ld32(ets + ETS_CUR);
  u8 *cur_def = ets + ETS_DEFICIT + 4 * cur;
  i32 d = ld32(cur_def), cur_head = ld32(head_wire + 4 * cur);
  if (((cand >> cur) & 1) != 0 && cur_head <= d) { st32(cur_def, d - cur_head); return cur; }
  i32 cap = ld32(ets + ETS_MAX_WIRE) - 1;
  st32(cur_def, d < cap ? d : cap);
  i32 next = (cur + 1 + ctz32(((u32)(cand | (cand << 8))) >> (u32)(cur + 1))) & 7;
  u8 *next_def = ets + ETS_DEFICIT + 4 * next;
  i32 funded = ld32(next_def) + ld32(ets + ETS_QUANTUM + 4 * next);
  st32(next_def, funded - ld32(head_wire + 4 * next));
  st32(ets + ETS_CUR, next);
  return next;
}
static inline void ets_emptied(u8 *ets, i32 tc) { st32(ets + ETS_DEFICIT + 4 * tc, 0); }

/* ---- pfc (assembly/pfc.ts) ---- */
#define PI32(rec, f, u) ((rec) + (f) + 4 * (u))
#define PI64(rec, f, u) ((rec) + (f) + 8 * (u))
static void pfc_rearm(u8 *rec, i32 u) {
  int in_xoff = (ld32(rec + PFC_XOFF_STATE) >> u) & 1, mode = ld32(rec + PFC_MODE);
  int controlled = mode == PFC_MODE_PFC ? (ld32(rec + PFC_ENABLE) >> u) & 1 : mode == PFC_MODE_PAUSE && u == PFC_PORT_UNIT;
  st32(PI32(rec, PFC_XOFF_AT, u), controlled && !in_xoff ? ld32(PI32(rec, PFC_XOFF_TH, u)) : (i32)0xFFFFFFFFu);
  st32(PI32(rec, PFC_XON_AT, u), in_xoff ? ld32(PI32(rec, PFC_XON_TH, u)) : INT32_MIN);
}
/* The configure protocol: the caller writes the config fields (PFC_MODE .. PFC_HEADROOM), this
   resets the state and derives quantum, refresh interval, unit map, limits and triggers. */
static void pfc_configure(u8 *rec) {
  memset(rec + PFC_CONFIG_END, 0, PFC_SIZE - PFC_CONFIG_END);
  i32 mode = ld32(rec + PFC_MODE);
  st32(rec + PFC_ENABLE, ld32(rec + PFC_ENABLE) & 0xFF);
  i32 pause_time = ld32(rec + PFC_PAUSE_TIME) & 0xFFFF;
  st32(rec + PFC_PAUSE_TIME, pause_time);
  i64 quantum = (i64)512000000000000LL / ld64(rec + PFC_SPEED_BPS);
  st64(rec + PFC_QUANTUM_PS, quantum);
  i32 quanta = ld32(rec + PFC_REFRESH_QUANTA);
  if (quanta <= 0) quanta = pause_time >> 1;
  st64(rec + PFC_REFRESH_PS, (i64)(quanta > 0 ? quanta : 1) * quantum);
  for (i32 n = 0; n < 8; n++) rec[PFC_UNIT_OF + n] = (u8)(mode == PFC_MODE_PAUSE ? PFC_PORT_UNIT : n);
  for (i32 u = 0; u < PFC_UNITS; u++) {
    i64 limit = (i64)ld32(PI32(rec, PFC_XOFF_TH, u)) + (i64)ld32(PI32(rec, PFC_HEADROOM, u));
    st32(PI32(rec, PFC_LIMIT, u), limit > I32_MAX ? I32_MAX : (i32)limit);
    st64(PI64(rec, PFC_NEXT_REFRESH, u), NEVER);
    pfc_rearm(rec, u);
  }
}
static inline i32 pfc_arrive(u8 *rec, i32 prio, i32 bytes, i64 now) {
  i32 unit = rec[PFC_UNIT_OF + prio];
  u32 occ_unit = (u32)ld32(PI32(rec, PFC_OCC, unit)) + (u32)bytes;
  if (occ_unit > (u32)ld32(PI32(rec, PFC_LIMIT, unit))) {
    inc64(PI64(rec, PFC_DROPS, prio), 1);
    inc64(PI64(rec, PFC_DROP_BYTES, prio), bytes);
    return 0;
  }
  st32(PI32(rec, PFC_OCC, prio), ld32(PI32(rec, PFC_OCC, prio)) + bytes);
  st32(PI32(rec, PFC_OCC, PFC_PORT_UNIT), ld32(PI32(rec, PFC_OCC, PFC_PORT_UNIT)) + bytes);
  if (occ_unit >= (u32)ld32(PI32(rec, PFC_XOFF_AT, unit))) {
    i32 bit = 1 << unit;
    st32(rec + PFC_XOFF_STATE, ld32(rec + PFC_XOFF_STATE) | bit);
    st32(PI32(rec, PFC_XOFF_AT, unit), (i32)0xFFFFFFFFu);
    st32(PI32(rec, PFC_XON_AT, unit), ld32(PI32(rec, PFC_XON_TH, unit)));
    st32(rec + PFC_PENDING, ld32(rec + PFC_PENDING) | bit);
    st32(PI32(rec, PFC_TX_TIME, unit), ld32(rec + PFC_PAUSE_TIME));
    st64(PI64(rec, PFC_NEXT_REFRESH, unit), now + ld64(rec + PFC_REFRESH_PS));
    inc64(PI64(rec, PFC_XOFF_TX, unit), 1);
  }
  return 1;
}
static inline void pfc_depart(u8 *rec, i32 prio, i32 bytes) {
  st32(PI32(rec, PFC_OCC, prio), ld32(PI32(rec, PFC_OCC, prio)) - bytes);
  st32(PI32(rec, PFC_OCC, PFC_PORT_UNIT), ld32(PI32(rec, PFC_OCC, PFC_PORT_UNIT)) - bytes);
  i32 unit = rec[PFC_UNIT_OF + prio];
  if (ld32(PI32(rec, PFC_OCC, unit)) <= ld32(PI32(rec, PFC_XON_AT, unit))) {
    i32 bit = 1 << unit;
    st32(rec + PFC_XOFF_STATE, ld32(rec + PFC_XOFF_STATE) & ~bit);
    st32(PI32(rec, PFC_XOFF_AT, unit), ld32(PI32(rec, PFC_XOFF_TH, unit)));
    st32(PI32(rec, PFC_XON_AT, unit), INT32_MIN);
    st32(rec + PFC_PENDING, ld32(rec + PFC_PENDING) | bit);
    st32(PI32(rec, PFC_TX_TIME, unit), 0);
    st64(PI64(rec, PFC_NEXT_REFRESH, unit), NEVER);
    inc64(PI64(rec, PFC_XON_TX, unit), 1);
  }
}
static i64 pfc_next_refresh(u8 *rec) {
  i64 next = NEVER;
  for (i32 u = 0; u < PFC_UNITS; u++) {
    i64 t = ld64(PI64(rec, PFC_NEXT_REFRESH, u));
    if (t < next) next = t;
  }
  return next;
}
static void pfc_refresh_due(u8 *rec, i64 now) {
  i32 state = ld32(rec + PFC_XOFF_STATE), pause_time = ld32(rec + PFC_PAUSE_TIME), fired = 0;
  i64 interval = ld64(rec + PFC_REFRESH_PS);
  for (i32 u = 0; u < PFC_UNITS; u++) {
    u8 *at = PI64(rec, PFC_NEXT_REFRESH, u);
    i64 due = ld64(at);
    if (((state >> u) & 1) != 0 && due <= now) {
      fired |= 1 << u;
      st32(PI32(rec, PFC_TX_TIME, u), pause_time);
      st64(at, due + interval);
      inc64(PI64(rec, PFC_XOFF_TX, u), 1);
    }
  }
  st32(rec + PFC_PENDING, ld32(rec + PFC_PENDING) | fired);
}
static inline i32 pfc_take_pending(u8 *rec) {
  i32 p = ld32(rec + PFC_PENDING);
  st32(rec + PFC_PENDING, 0);
  return p;
}
static void restart_pause(u8 *rec, i32 unit, i32 quanta, i64 now) {
  u8 *until_at = PI64(rec, PFC_PAUSED_UNTIL, unit), *start_at = PI64(rec, PFC_PAUSE_START, unit);
  i64 old_until = ld64(until_at);
  i64 end = old_until < now ? old_until : now;
  i64 closed = end - ld64(start_at);
  if (closed > 0) inc64(PI64(rec, PFC_PAUSED_PS, unit), closed);
  st64(start_at, now);
  st64(until_at, now + (i64)quanta * ld64(rec + PFC_QUANTUM_PS));
  inc64(PI64(rec, quanta == 0 ? PFC_XON_RX : PFC_XOFF_RX, unit), 1);
  st64(rec + PFC_BLOCKED_UNTIL, INT64_MIN);
}
static void pfc_receive_pfc(u8 *rec, i32 enable, const u8 *times, i64 now) {
  i32 obey = ld32(rec + PFC_MODE) == PFC_MODE_PFC ? ld32(rec + PFC_ENABLE) : 0;
  i64 ignored = 0;
  for (i32 n = 0; n < 8; n++) {
    if (((enable >> n) & 1) == 0) continue;
    if (((obey >> n) & 1) == 0) { ignored++; continue; }
    uint16_t t;
    memcpy(&t, times + 2 * n, 2);
    restart_pause(rec, n, (i32)t, now);
  }
  inc64(rec + PFC_RX_IGNORED, ignored);
}
static inline i32 pfc_blocked_mask(u8 *rec, i64 now) {
  if (now < ld64(rec + PFC_BLOCKED_UNTIL) && now >= ld64(rec + PFC_BLOCKED_FROM)) return ld32(rec + PFC_BLOCKED_MASK);
  i32 mode = ld32(rec + PFC_MODE), m = 0;
  if (mode == PFC_MODE_PAUSE) m = now < ld64(PI64(rec, PFC_PAUSED_UNTIL, PFC_PORT_UNIT)) ? 0xFF : 0;
  else if (mode == PFC_MODE_PFC)
    for (i32 n = 0; n < 8; n++) m |= (i32)(now < ld64(PI64(rec, PFC_PAUSED_UNTIL, n))) << n;
  i64 until = NEVER;
  for (i32 u = 0; u < PFC_UNITS; u++) {
    i64 end = ld64(PI64(rec, PFC_PAUSED_UNTIL, u));
    if (end > now && end < until) until = end;
  }
  st32(rec + PFC_BLOCKED_MASK, m);
  st64(rec + PFC_BLOCKED_FROM, now);
  st64(rec + PFC_BLOCKED_UNTIL, until);
  return m;
}
static inline i32 pfc_blocked_tcs(i32 prios, i32 prio_tc) {
  i32 tcs = 0;
  for (i32 n = 0; n < 8; n++) tcs |= ((prios >> n) & 1) << ((prio_tc >> (3 * n)) & 7);
  return tcs;
}

/* ---- qcn_cp (assembly/qcn_cp.ts) ---- */
static const i32 SAMPLE_TABLE[8] = {150000, 75000, 50000, 37500, 30000, 25000, 21500, 18500};
static void qcn_cp_configure(u8 *rec, u32 seed, u32 id) {
  i32 fb_max = ld32(rec + QCN_CP_Q_EQ) * (2 * ld32(rec + QCN_CP_W) + 1);
  st32(rec + QCN_CP_FB_MAX, fb_max);
  i32 shift = (32 - clz32((u32)fb_max)) - 6;
  st32(rec + QCN_CP_MSB_SHIFT, shift > 0 ? shift : 0);
  st32(rec + QCN_CP_Q, 0);
  st32(rec + QCN_CP_Q_OLD, 0);
  st32(rec + QCN_CP_TTM, 150000);
  stu32(rec + QCN_CP_RNG, rng_seed(seed, id));
  memset(rec + QCN_CP_FB, 0, QCN_CP_SIZE - QCN_CP_FB);
}
static inline i32 qcn_cp_quantise(u8 *rec, i32 q) {
  i64 q_eq = ld32(rec + QCN_CP_Q_EQ), fb_max = ld32(rec + QCN_CP_FB_MAX);
  i64 fb = (q_eq - q) - (i64)ld32(rec + QCN_CP_W) * ((i64)q - ld32(rec + QCN_CP_Q_OLD));
  if (fb > 0) fb = 0;
  if (fb < -fb_max) fb = -fb_max;
  i32 qf;
  if (ld32(rec + QCN_CP_QUANT) == QUANT_LINEAR) qf = (i32)((-fb * 63) / fb_max);
  else { qf = (i32)(-fb >> ld32(rec + QCN_CP_MSB_SHIFT)); if (qf > 63) qf = 63; }
  st32(rec + QCN_CP_FB, (i32)fb);
  st32(rec + QCN_CP_QF, qf);
  return qf;
}
static inline int qcn_cp_enqueue(u8 *rec, i32 len) {
  i32 q = ld32(rec + QCN_CP_Q) + len;
  st32(rec + QCN_CP_Q, q);
  i32 ttm = ld32(rec + QCN_CP_TTM) - len;
  st32(rec + QCN_CP_TTM, ttm);
  if (ttm >= 0) return 0;
  i32 qf = qcn_cp_quantise(rec, q);
  i32 q_old = ld32(rec + QCN_CP_Q_OLD);
  int fire = qf > 0;
  if (fire) {
    st32(rec + QCN_CP_Q_OFF, q - ld32(rec + QCN_CP_Q_EQ));
    st32(rec + QCN_CP_Q_DELTA, q - q_old);
    inc64(rec + QCN_CP_CNMS, 1);
  }
  inc64(rec + QCN_CP_SAMPLES, 1);
  st32(rec + QCN_CP_Q_OLD, q);
  st32(rec + QCN_CP_TTM, (i32)jitter(SAMPLE_TABLE[qf >> 3], rec + QCN_CP_RNG));
  return fire;
}
static inline void qcn_cp_dequeue(u8 *rec, i32 len) { st32(rec + QCN_CP_Q, ld32(rec + QCN_CP_Q) - len); }

/* ---- port (assembly/port.ts) ---- */
#define PX32(f, i) (PORT + (f) + 4 * (i))
static inline void emit_event(i32 kind, i32 arg, i64 t) {
  i32 head = ld32(PORT + PORT_OUT_HEAD);
  u8 *e = OUT_RING + 16 * (head & (OUT_CAP - 1));
  st32(e, kind);
  st32(e + 4, arg);
  st64(e + 8, t);
  st32(PORT + PORT_OUT_HEAD, head + 1);
  inc64(PORT + PORT_EVENTS_OUT, 1);
}
static inline void flush_pfc(i64 t) {
  i32 pending = pfc_take_pending(PORT + PORT_PFC);
  if (pending != 0) {
    i32 xoff = 0;
    for (i32 u = 0; u < 9; u++) xoff |= (i32)(ld32(PI32(PORT + PORT_PFC, PFC_TX_TIME, u)) != 0) << u;
    emit_event(1 | (pending << 8), xoff & pending, t);
  }
}
static inline void refresh_blocked(i64 t) {
  u8 *pfc = PORT + PORT_PFC;
  st32(PORT + PORT_BLOCKED, pfc_blocked_tcs(pfc_blocked_mask(pfc, t), ld32(PORT + PORT_PRIO_TC)));
  st64(PORT + PORT_PAUSE_EXPIRY, ld64(pfc + PFC_BLOCKED_UNTIL));
}
static inline void serve_link(i64 now) {
  u8 *ets = PORT + PORT_ETS;
  i64 ps_per_byte = ld32(PORT + PORT_PS_PER_BYTE);
  i64 t = ld64(PORT + PORT_TX_FREE);
  while (t <= now) {
    if (t >= ld64(PORT + PORT_PAUSE_EXPIRY)) refresh_blocked(t);
    i32 backlog = ld32(PORT + PORT_BACKLOG), blocked = ld32(PORT + PORT_BLOCKED);
    i32 tc = ets_select(ets, backlog, blocked, PORT + PORT_HEAD_WIRE);
    if (tc < 0) {
      i64 resume = ld64(PORT + PORT_PAUSE_EXPIRY);
      if ((backlog & blocked) != 0 && resume <= now) { t = resume; continue; }
      break;
    }
    i32 head = ld32(PX32(PORT_Q_HEAD, tc)), count = ld32(PX32(PORT_Q_COUNT, tc)) - 1;
    u8 *fifo = QUEUES + 4 * QUEUE_CAP * tc;
    i32 entry = ld32(fifo + 4 * head);
    i32 bytes = entry & 0x3FFF, prio = (entry >> 16) & 7;
    i32 next_head = (head + 1) & (QUEUE_CAP - 1);
    st32(PX32(PORT_Q_HEAD, tc), next_head);
    st32(PX32(PORT_Q_COUNT, tc), count);
    if (count == 0) {
      st32(PORT + PORT_BACKLOG, backlog & ~(1 << tc));
      st32(PX32(PORT_HEAD_WIRE, tc), 0);
      ets_emptied(ets, tc);
    } else {
      st32(PX32(PORT_HEAD_WIRE, tc), (ld32(fifo + 4 * next_head) & 0x3FFF) + WIRE_OVERHEAD);
    }
    pfc_depart(PORT + PORT_PFC, prio, bytes);
    if (((ld32(PORT + PORT_CP_MASK) >> tc) & 1) != 0) qcn_cp_dequeue(PORT + PORT_CP + tc * QCN_CP_SIZE, bytes);
    flush_pfc(t);
    inc64(PORT + PORT_TX_FRAMES, 1);
    inc64(PORT + PORT_TX_BYTES, bytes);
    inc64(PORT + PORT_TC_TX_BYTES + 8 * tc, bytes);
    t += (i64)(bytes + WIRE_OVERHEAD) * ps_per_byte;
  }
  st64(PORT + PORT_TX_FREE, t);
}
static inline void receive_pfc(i32 word, i64 now) {
  i32 time = word & 0xFFFF;
  for (i32 n = 0; n < 8; n++) { uint16_t v = (uint16_t)time; memcpy(PAUSE_TIMES + 2 * n, &v, 2); }
  pfc_receive_pfc(PORT + PORT_PFC, (word >> 16) & 0xFF, PAUSE_TIMES, now);
  inc64(PORT + PORT_PFC_RX, 1);
  refresh_blocked(now);
}
static inline void receive_frame(i32 word, i64 now) {
  i32 bytes = word & 0x3FFF, prio = (word >> 16) & 7;
  inc64(PORT + PORT_RX_FRAMES, 1);
  i32 tc = PORT[PORT_ETS + ETS_PRIO_TC + prio];
  i32 count = ld32(PX32(PORT_Q_COUNT, tc));
  if (count == QUEUE_CAP) { inc64(PORT + PORT_QUEUE_DROPS, 1); return; }
  u8 *pfc = PORT + PORT_PFC;
  if (pfc_arrive(pfc, prio, bytes, now) == 0) return;
  i32 slot = (ld32(PX32(PORT_Q_HEAD, tc)) + count) & (QUEUE_CAP - 1);
  st32(QUEUES + 4 * QUEUE_CAP * tc + 4 * slot, word);
  st32(PX32(PORT_Q_COUNT, tc), count + 1);
  if (count == 0) {
    st32(PORT + PORT_BACKLOG, ld32(PORT + PORT_BACKLOG) | (1 << tc));
    st32(PX32(PORT_HEAD_WIRE, tc), bytes + WIRE_OVERHEAD);
  }
  if (((ld32(PORT + PORT_CP_MASK) >> tc) & 1) != 0) {
    u8 *cp = PORT + PORT_CP + tc * QCN_CP_SIZE;
    if (qcn_cp_enqueue(cp, bytes)) emit_event(2 | (tc << 8) | (((word >> 19) & 0xFF) << 16), ld32(cp + QCN_CP_QF), now);
  }
  if (ld32(pfc + PFC_PENDING) != 0) {
    i64 refresh_at = now + ld64(pfc + PFC_REFRESH_PS);
    if (refresh_at < ld64(PORT + PORT_NEXT_REFRESH)) st64(PORT + PORT_NEXT_REFRESH, refresh_at);
  }
  if (now >= ld64(PORT + PORT_NEXT_REFRESH)) {
    pfc_refresh_due(pfc, now);
    st64(PORT + PORT_NEXT_REFRESH, pfc_next_refresh(pfc));
  }
  flush_pfc(now);
}
static i32 port_process(i32 n) {
  i64 now = ld64(PORT + PORT_NOW);
  for (i32 i = 0; i < n; i++) {
    const u8 *a = IN_RING + 8 * i;
    i32 word = ld32(a);
    now += (i64)ldu32(a + 4);
    serve_link(now);
    if (word < 0) receive_pfc(word, now);
    else receive_frame(word, now);
    if (ld64(PORT + PORT_TX_FREE) < now) st64(PORT + PORT_TX_FREE, now);
  }
  st64(PORT + PORT_NOW, now);
  return ld32(PORT + PORT_BACKLOG);
}
static void port_generate(i32 n) {
  u8 *rng = PORT + PORT_GEN_RNG;
  i32 ps_per_byte = ld32(PORT + PORT_PS_PER_BYTE);
  for (i32 i = 0; i < n; i++) {
    u8 *a = IN_RING + 8 * i;
    u32 r = rng_next(rng), r2 = rng_next(rng);
    if ((r & 511) == 0) {
      stu32(a, 0x80000000u | ((r2 & 0xFF) << 16) | ((r2 >> 8) & 0x3FF));
      stu32(a + 4, 0);
    } else {
      i32 bytes = 64 + (i32)((r >> 9) % 1437);
      st32(a, bytes | ((i32)(r >> 29) << 16) | ((i32)((r2 >> 8) & 0xFF) << 19));
      stu32(a + 4, (u32)(((bytes + WIRE_OVERHEAD) * ps_per_byte * (44 + (i32)(r2 & 31))) >> 6));
    }
  }
}
static void port_init(u32 seed) {
  memset(PORT, 0, PORT_BYTES);
  memset(QUEUES, 0, sizeof QUEUES);
  memset(OUT_RING, 0, sizeof OUT_RING);
  st32(PORT + PORT_PS_PER_BYTE, 80);
  stu32(PORT + PORT_GEN_RNG, rng_seed(seed, 8));
  st64(PORT + PORT_NEXT_REFRESH, NEVER);
  st64(PORT + PORT_PAUSE_EXPIRY, NEVER);
  u8 *ets = PORT + PORT_ETS;
  i32 packed = 0;
  for (i32 p = 0; p < 8; p++) { ets[ETS_PRIO_TC + p] = (u8)(p >> 1); packed |= (p >> 1) << (3 * p); }
  st32(PORT + PORT_PRIO_TC, packed);
  for (i32 tc = 0; tc < 8; tc++) ets[ETS_TSA + tc] = (u8)(tc < 3 ? TSA_ETS : TSA_STRICT);
  ets[ETS_BW] = 40;
  ets[ETS_BW + 1] = 40;
  ets[ETS_BW + 2] = 20;
  ets_configure(ets, 1518);
  u8 *pfc = PORT + PORT_PFC;
  st32(pfc + PFC_MODE, PFC_MODE_PFC);
  st32(pfc + PFC_ENABLE, 0x18);
  st32(pfc + PFC_PAUSE_TIME, 0xFFFF);
  st64(pfc + PFC_SPEED_BPS, 100000000000LL);
  for (i32 u = 0; u < PFC_UNITS; u++) {
    int on = u < PFC_PORT_UNIT;
    st32(PI32(pfc, PFC_XOFF_TH, u), on ? 30000 : I32_MAX);
    st32(PI32(pfc, PFC_XON_TH, u), on ? 15000 : 0);
    st32(PI32(pfc, PFC_HEADROOM, u), on ? 20000 : 0);
  }
  pfc_configure(pfc);
  st32(PORT + PORT_CP_MASK, 0x07);
  for (i32 tc = 0; tc < 8; tc++) {
    u8 *cp = PORT + PORT_CP + tc * QCN_CP_SIZE;
    st32(cp + QCN_CP_Q_EQ, 26000);
    st32(cp + QCN_CP_W, 2);
    st32(cp + QCN_CP_QUANT, QUANT_LINEAR);
    qcn_cp_configure(cp, seed, (u32)tc);
  }
}
static void port_run(i32 packets) {
  for (i32 left = packets; left > 0;) {
    i32 n = left < IN_CAP ? left : IN_CAP;
    port_generate(n);
    port_process(n);
    left -= n;
  }
}
static u32 fnv(u32 h, const u8 *p, size_t bytes) {
  for (size_t i = 0; i < bytes; i += 4) h = (h ^ ldu32(p + i)) * 16777619u;
  return h;
}
static u32 port_checksum(void) {
  u32 h = 2166136261u;
  h = fnv(h, PORT, PORT_BYTES);
  h = fnv(h, QUEUES, sizeof QUEUES);
  return fnv(h, OUT_RING, sizeof OUT_RING);
}

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

int main(int argc, char **argv) {
  if (argc == 4 && strcmp(argv[1], "check") == 0) {
    port_init((u32)strtoul(argv[2], 0, 10));
    port_run((i32)strtol(argv[3], 0, 10));
    printf("%u\n", port_checksum());
    return 0;
  }
  volatile i32 sink = 0;
  if (argc == 5 && strcmp(argv[1], "bench") == 0) {
    i32 batch = (i32)strtol(argv[2], 0, 10), samples = (i32)strtol(argv[3], 0, 10), warm = (i32)strtol(argv[4], 0, 10);
    if (batch < 1 || batch > IN_CAP || samples < 1) return 2;
    port_init(1);
    port_generate(IN_CAP);
    for (i32 i = 0; i < warm; i++) sink ^= port_process(batch);
    for (i32 s = 0; s < samples; s++) {
      double t0 = now_ns();
      sink ^= port_process(batch);
      double t1 = now_ns();
      printf("%s%.4f", s ? " " : "", (t1 - t0) / batch);
    }
    printf("\n");
    return 0;
  }
  if (argc == 4 && strcmp(argv[1], "count") == 0) {
    long n = strtol(argv[3], 0, 10);
    port_init((u32)strtoul(argv[2], 0, 10));
    port_generate(IN_CAP);
    for (i32 i = 0; i < 30; i++) sink ^= port_process(IN_CAP);
    for (long done = 0; done < n; done += IN_CAP) sink ^= port_process((i32)(n - done < IN_CAP ? n - done : IN_CAP));
    printf("%d\n", (int)sink);
    return 0;
  }
  fprintf(stderr, "usage: port.out check SEED PACKETS | bench BATCH SAMPLES WARMUP | count SEED N\n");
  return 2;
}
