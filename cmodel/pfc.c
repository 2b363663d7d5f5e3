/*
 * IEEE 802.1Qbb priority-based flow control (802.3 Annex 31D) and 802.3x PAUSE (Annex 31B), both
 * sides of one port; the C mirror of assembly/pfc.ts (docs/pfc.md has the model).
 * Ingress: per unit (priorities 0..7, port 8) occupancy; drop above xoff + headroom; XOFF when an
 * accepted frame brings a controlled unit to >= xoff, refreshed every interval on the grid
 * t_xoff + k * interval while in XOFF state; one XON when a departure brings it to <= xon.
 * Egress: pausedUntil = now + time * quantum, replacing the running value; time 0 = XON.
 * State: the PFC record (PFC_*). Invariants: occ[u] >= 0; occ[8] = sum of occ[0..7];
 * xoffAt[u] = xoff[u] while u is controlled and not in XOFF state, else 0xFFFFFFFF;
 * xonAt[u] = xon[u] in XOFF state, else INT32_MIN; the cached blocked mask holds in [from, until).
 */
#include "dcbkit.h"

#define NEVER INT64_MAX
#define I32AT(rec, f, u) ((rec) + (f) + 4 * DCB_IX(u))
#define I64AT(rec, f, u) ((rec) + (f) + 8 * DCB_IX(u))

static void rearm(uint8_t *rec, int32_t u) {
  int in_xoff = (dcb_ld32(rec + PFC_XOFF_STATE) >> u) & 1, mode = dcb_ld32(rec + PFC_MODE);
  int controlled = mode == PFC_MODE_PFC ? (dcb_ld32(rec + PFC_ENABLE) >> u) & 1 : mode == PFC_MODE_PAUSE && u == PFC_PORT_UNIT;
  dcb_stu32(I32AT(rec, PFC_XOFF_AT, u), controlled && !in_xoff ? (uint32_t)dcb_ld32(I32AT(rec, PFC_XOFF_TH, u)) : 0xFFFFFFFFu);
  dcb_st32(I32AT(rec, PFC_XON_AT, u), in_xoff ? dcb_ld32(I32AT(rec, PFC_XON_TH, u)) : INT32_MIN);
}

/* The caller wrote PFC_MODE .. PFC_HEADROOM; this resets the state and derives the rest. */
void dcb_pfc_configure(uint8_t *rec) {
  memset(rec + PFC_CONFIG_END, 0, PFC_SIZE - PFC_CONFIG_END);
  int32_t mode = dcb_ld32(rec + PFC_MODE);
  dcb_st32(rec + PFC_ENABLE, dcb_ld32(rec + PFC_ENABLE) & 0xFF);
  int32_t pause_time = dcb_ld32(rec + PFC_PAUSE_TIME) & 0xFFFF;
  dcb_st32(rec + PFC_PAUSE_TIME, pause_time);
  int64_t quantum = (int64_t)512000000000000LL / dcb_ld64(rec + PFC_SPEED_BPS);
  dcb_st64(rec + PFC_QUANTUM_PS, quantum);
  int32_t quanta = dcb_ld32(rec + PFC_REFRESH_QUANTA);
  if (quanta <= 0) quanta = pause_time >> 1;
  dcb_st64(rec + PFC_REFRESH_PS, (int64_t)(quanta > 0 ? quanta : 1) * quantum);
  for (int32_t n = 0; n < 8; n++) rec[PFC_UNIT_OF + n] = (uint8_t)(mode == PFC_MODE_PAUSE ? PFC_PORT_UNIT : n);
  for (int32_t u = 0; u < PFC_UNITS; u++) {
    int64_t limit = (int64_t)dcb_ld32(I32AT(rec, PFC_XOFF_TH, u)) + (int64_t)dcb_ld32(I32AT(rec, PFC_HEADROOM, u));
    dcb_st32(I32AT(rec, PFC_LIMIT, u), limit > INT32_MAX ? INT32_MAX : (int32_t)limit);
    dcb_st64(I64AT(rec, PFC_NEXT_REFRESH, u), NEVER);
    rearm(rec, u);
  }
}

/* The parts of an arrival and a departure (assembly/pfc.ts: pfcUnitOf .. pfcQueueXon), which the port
   pipeline calls one by one; dcb_pfc_arrive and dcb_pfc_depart are their compositions. */
int32_t dcb_pfc_unit_of(const uint8_t *rec, int32_t prio) { return rec[PFC_UNIT_OF + DCB_IX(prio)]; }
/* unsigned: occ <= limit <= INT32_MAX and bytes < 2^16, so the sum cannot wrap */
uint32_t dcb_pfc_occ_with(const uint8_t *rec, int32_t unit, int32_t bytes) {
  return (uint32_t)dcb_ld32(I32AT(rec, PFC_OCC, unit)) + (uint32_t)bytes;
}
int dcb_pfc_over_limit(const uint8_t *rec, int32_t unit, uint32_t occ_unit) {
  return occ_unit > (uint32_t)dcb_ld32(I32AT(rec, PFC_LIMIT, unit));
}
void dcb_pfc_drop(uint8_t *rec, int32_t prio, int32_t bytes) {
  dcb_inc64(I64AT(rec, PFC_DROPS, prio), 1);
  dcb_inc64(I64AT(rec, PFC_DROP_BYTES, prio), bytes);
}
void dcb_pfc_add(uint8_t *rec, int32_t prio, int32_t bytes) {
  dcb_st32(I32AT(rec, PFC_OCC, prio), dcb_ld32(I32AT(rec, PFC_OCC, prio)) + bytes);
  dcb_st32(I32AT(rec, PFC_OCC, PFC_PORT_UNIT), dcb_ld32(I32AT(rec, PFC_OCC, PFC_PORT_UNIT)) + bytes);
}
int dcb_pfc_xoff_due(const uint8_t *rec, int32_t unit, uint32_t occ_unit) {
  return occ_unit >= dcb_ldu32(I32AT(rec, PFC_XOFF_AT, unit));
}
void dcb_pfc_queue_xoff(uint8_t *rec, int32_t unit, int64_t now) {
  int32_t bit = 1 << unit;
  dcb_st32(rec + PFC_XOFF_STATE, dcb_ld32(rec + PFC_XOFF_STATE) | bit);
  dcb_stu32(I32AT(rec, PFC_XOFF_AT, unit), 0xFFFFFFFFu);
  dcb_st32(I32AT(rec, PFC_XON_AT, unit), dcb_ld32(I32AT(rec, PFC_XON_TH, unit)));
  dcb_st32(rec + PFC_PENDING, dcb_ld32(rec + PFC_PENDING) | bit);
  dcb_st32(I32AT(rec, PFC_TX_TIME, unit), dcb_ld32(rec + PFC_PAUSE_TIME));
  dcb_st64(I64AT(rec, PFC_NEXT_REFRESH, unit), now + dcb_ld64(rec + PFC_REFRESH_PS));
  dcb_inc64(I64AT(rec, PFC_XOFF_TX, unit), 1);
}
void dcb_pfc_remove(uint8_t *rec, int32_t prio, int32_t bytes) {
  dcb_st32(I32AT(rec, PFC_OCC, prio), dcb_ld32(I32AT(rec, PFC_OCC, prio)) - bytes);
  dcb_st32(I32AT(rec, PFC_OCC, PFC_PORT_UNIT), dcb_ld32(I32AT(rec, PFC_OCC, PFC_PORT_UNIT)) - bytes);
}
int dcb_pfc_xon_due(const uint8_t *rec, int32_t unit) {
  return dcb_ld32(I32AT(rec, PFC_OCC, unit)) <= dcb_ld32(I32AT(rec, PFC_XON_AT, unit));
}
void dcb_pfc_queue_xon(uint8_t *rec, int32_t unit) {
  int32_t bit = 1 << unit;
  dcb_st32(rec + PFC_XOFF_STATE, dcb_ld32(rec + PFC_XOFF_STATE) & ~bit);
  /* only a controlled unit enters XOFF state, so leaving it re-arms the XOFF threshold */
  dcb_st32(I32AT(rec, PFC_XOFF_AT, unit), dcb_ld32(I32AT(rec, PFC_XOFF_TH, unit)));
  dcb_st32(I32AT(rec, PFC_XON_AT, unit), INT32_MIN);
  dcb_st32(rec + PFC_PENDING, dcb_ld32(rec + PFC_PENDING) | bit);
  dcb_st32(I32AT(rec, PFC_TX_TIME, unit), 0);
  dcb_st64(I64AT(rec, PFC_NEXT_REFRESH, unit), NEVER);
  dcb_inc64(I64AT(rec, PFC_XON_TX, unit), 1);
}

/* 1 if the frame is accepted, 0 if dropped. */
int32_t dcb_pfc_arrive(uint8_t *rec, int32_t prio, int32_t bytes, int64_t now) {
  int32_t unit = dcb_pfc_unit_of(rec, prio);
  uint32_t occ_unit = dcb_pfc_occ_with(rec, unit, bytes);
  if (dcb_pfc_over_limit(rec, unit, occ_unit)) {
    dcb_pfc_drop(rec, prio, bytes);
    return 0;
  }
  dcb_pfc_add(rec, prio, bytes);
  if (dcb_pfc_xoff_due(rec, unit, occ_unit)) dcb_pfc_queue_xoff(rec, unit, now);
  return 1;
}

void dcb_pfc_depart(uint8_t *rec, int32_t prio, int32_t bytes) {
  dcb_pfc_remove(rec, prio, bytes);
  int32_t unit = dcb_pfc_unit_of(rec, prio);
  if (dcb_pfc_xon_due(rec, unit)) dcb_pfc_queue_xon(rec, unit);
}

int64_t dcb_pfc_next_refresh(const uint8_t *rec) {
  int64_t next = NEVER;
  for (int32_t u = 0; u < PFC_UNITS; u++) {
    int64_t t = dcb_ld64(I64AT(rec, PFC_NEXT_REFRESH, u));
    if (t < next) next = t;
  }
  return next;
}

/* Fires every refresh due at or before now; each deadline moves on by one interval. */
int32_t dcb_pfc_refresh_due(uint8_t *rec, int64_t now) {
  int32_t state = dcb_ld32(rec + PFC_XOFF_STATE), pause_time = dcb_ld32(rec + PFC_PAUSE_TIME), fired = 0;
  int64_t interval = dcb_ld64(rec + PFC_REFRESH_PS);
  for (int32_t u = 0; u < PFC_UNITS; u++) {
    uint8_t *at = I64AT(rec, PFC_NEXT_REFRESH, u);
    int64_t due = dcb_ld64(at);
    if (((state >> u) & 1) != 0 && due <= now) {
      fired |= 1 << u;
      dcb_st32(I32AT(rec, PFC_TX_TIME, u), pause_time);
      dcb_st64(at, due + interval);
      dcb_inc64(I64AT(rec, PFC_XOFF_TX, u), 1);
    }
  }
  dcb_st32(rec + PFC_PENDING, dcb_ld32(rec + PFC_PENDING) | fired);
  return fired;
}

/* Bits 0..7: one PFC frame (e[n], time PFC_TX_TIME[n]); bit 8: one PAUSE frame. Cleared. */
int32_t dcb_pfc_take_pending(uint8_t *rec) {
  int32_t p = dcb_ld32(rec + PFC_PENDING);
  dcb_st32(rec + PFC_PENDING, 0);
  return p;
}

static void restart_pause(uint8_t *rec, int32_t unit, int32_t quanta, int64_t now) {
  uint8_t *until_at = I64AT(rec, PFC_PAUSED_UNTIL, unit), *start_at = I64AT(rec, PFC_PAUSE_START, unit);
  int64_t old_until = dcb_ld64(until_at);
  int64_t end = old_until < now ? old_until : now;
  int64_t closed = end - dcb_ld64(start_at);
  if (closed > 0) dcb_inc64(I64AT(rec, PFC_PAUSED_PS, unit), closed);
  dcb_st64(start_at, now);
  dcb_st64(until_at, now + (int64_t)quanta * dcb_ld64(rec + PFC_QUANTUM_PS));
  dcb_inc64(I64AT(rec, quanta == 0 ? PFC_XON_RX : PFC_XOFF_RX, unit), 1);
  dcb_st64(rec + PFC_BLOCKED_UNTIL, INT64_MIN);
}

void dcb_pfc_receive_pfc(uint8_t *rec, int32_t enable, const uint16_t times[8], int64_t now) {
  int32_t obey = dcb_ld32(rec + PFC_MODE) == PFC_MODE_PFC ? dcb_ld32(rec + PFC_ENABLE) : 0;
  int64_t ignored = 0;
  for (int32_t n = 0; n < 8; n++) {
    if (((enable >> n) & 1) == 0) continue;
    if (((obey >> n) & 1) == 0) { ignored++; continue; }
    restart_pause(rec, n, (int32_t)times[n], now);
  }
  dcb_inc64(rec + PFC_RX_IGNORED, ignored);
}

void dcb_pfc_receive_pause(uint8_t *rec, int32_t quanta, int64_t now) {
  if (dcb_ld32(rec + PFC_MODE) != PFC_MODE_PAUSE) { dcb_inc64(rec + PFC_RX_IGNORED, 1); return; }
  restart_pause(rec, PFC_PORT_UNIT, quanta & 0xFFFF, now);
}

/* Priorities that may not start a frame at now; cached with the interval it holds for. */
int32_t dcb_pfc_blocked_mask(uint8_t *rec, int64_t now) {
  if (now < dcb_ld64(rec + PFC_BLOCKED_UNTIL) && now >= dcb_ld64(rec + PFC_BLOCKED_FROM)) return dcb_ld32(rec + PFC_BLOCKED_MASK);
  int32_t mode = dcb_ld32(rec + PFC_MODE), m = 0;
  if (mode == PFC_MODE_PAUSE) m = now < dcb_ld64(I64AT(rec, PFC_PAUSED_UNTIL, PFC_PORT_UNIT)) ? 0xFF : 0;
  else if (mode == PFC_MODE_PFC)
    for (int32_t n = 0; n < 8; n++) m |= (int32_t)(now < dcb_ld64(I64AT(rec, PFC_PAUSED_UNTIL, n))) << n;
  int64_t until = NEVER;
  for (int32_t u = 0; u < PFC_UNITS; u++) {
    int64_t end = dcb_ld64(I64AT(rec, PFC_PAUSED_UNTIL, u));
    if (end > now && end < until) until = end;
  }
  dcb_st32(rec + PFC_BLOCKED_MASK, m);
  dcb_st64(rec + PFC_BLOCKED_FROM, now);
  dcb_st64(rec + PFC_BLOCKED_UNTIL, until);
  return m;
}

/* TC t is blocked while any priority mapped to it is paused; prio_tc packs TC n in bits 3n..3n+2. */
int32_t dcb_pfc_blocked_tcs(int32_t blocked_prios, int32_t prio_tc) {
  int32_t tcs = 0;
  for (int32_t n = 0; n < 8; n++) tcs |= ((blocked_prios >> n) & 1) << ((prio_tc >> (3 * n)) & 7);
  return tcs;
}

int64_t dcb_pfc_paused_ps(const uint8_t *rec, int32_t unit, int64_t now) {
  int64_t until = dcb_ld64(I64AT(rec, PFC_PAUSED_UNTIL, unit));
  int64_t end = until < now ? until : now;
  int64_t open = end - dcb_ld64(I64AT(rec, PFC_PAUSE_START, unit));
  return dcb_ld64(I64AT(rec, PFC_PAUSED_PS, unit)) + (open > 0 ? open : 0);
}
