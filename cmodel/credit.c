/*
 * Credit-based link-level flow control with InfiniBand counting rules (IBA Vol. 1 §7.9); the C mirror
 * of assembly/credit.ts (docs/credit.md has the model). Absolute counters mod 2^k in units of U bytes:
 * sender TBS and FCCL, receiver ABR. Grant CL = ABR + min(free, 2^(k-1)); b units may go iff
 * b <= (FCCL - TBS) mod 2^k when that is <= 2^(k-1) (else nothing); a sync sets ABR := TBS; a grant
 * older than the aging time is void.
 * State: the credit record (CREDIT_*). Invariants: counters in [0, 2^k); 0 <= used <= capacity.
 */
#include "dcbkit.h"

static int32_t counter_mask(const uint8_t *rec) { return (1 << dcb_ld32(rec + CREDIT_K)) - 1; }

int32_t dcb_credit_units(const uint8_t *rec, int32_t bytes) {
  int32_t u = dcb_ld32(rec + CREDIT_UNIT);
  return (bytes + u - 1) / u;
}

/* The caller wrote k, unit, capacity and aging; both halves restart with no grant. */
void dcb_credit_configure(uint8_t *rec) {
  memset(rec + CREDIT_TBS, 0, CREDIT_AGING_PS - CREDIT_TBS);
  memset(rec + CREDIT_GRANT_AT, 0, CREDIT_SIZE - CREDIT_GRANT_AT);
}

static int32_t granted(const uint8_t *rec) {
  int32_t unused = (dcb_ld32(rec + CREDIT_FCCL) - dcb_ld32(rec + CREDIT_TBS)) & counter_mask(rec);
  return unused <= (1 << (dcb_ld32(rec + CREDIT_K) - 1)) ? unused : 0;
}

int32_t dcb_credit_age(uint8_t *rec, int64_t now) {
  int64_t aging = dcb_ld64(rec + CREDIT_AGING_PS);
  int32_t tbs = dcb_ld32(rec + CREDIT_TBS);
  if (aging == 0 || dcb_ld32(rec + CREDIT_FCCL) == tbs || now - dcb_ld64(rec + CREDIT_GRANT_AT) < aging) return 0;
  int32_t dropped = granted(rec);
  dcb_st32(rec + CREDIT_FCCL, tbs);
  dcb_inc64(rec + CREDIT_EXPIRED_UNITS, dropped);
  return dropped;
}

/* Units consumed (> 0), or 0 when the sender must wait. */
int32_t dcb_credit_try_send(uint8_t *rec, int32_t bytes, int64_t now) {
  dcb_credit_age(rec, now);
  int32_t b = dcb_credit_units(rec, bytes);
  if (b > granted(rec)) { dcb_inc64(rec + CREDIT_BLOCKED, 1); return 0; }
  dcb_st32(rec + CREDIT_TBS, (dcb_ld32(rec + CREDIT_TBS) + b) & counter_mask(rec));
  dcb_inc64(rec + CREDIT_SENT_UNITS, b);
  return b;
}

void dcb_credit_on_grant(uint8_t *rec, int32_t cl, int64_t now) {
  dcb_st32(rec + CREDIT_FCCL, cl & counter_mask(rec));
  dcb_st64(rec + CREDIT_GRANT_AT, now);
  dcb_inc64(rec + CREDIT_GRANTS_RX, 1);
}

int32_t dcb_credit_sync_value(const uint8_t *rec) { return dcb_ld32(rec + CREDIT_TBS); }

int32_t dcb_credit_available(const uint8_t *rec, int64_t now) {
  int64_t aging = dcb_ld64(rec + CREDIT_AGING_PS);
  if (aging != 0 && now - dcb_ld64(rec + CREDIT_GRANT_AT) >= aging) return 0;
  return granted(rec);
}

/* 1 if stored, 0 on overrun (only a sender that ignores its credit causes one). */
int32_t dcb_credit_receive(uint8_t *rec, int32_t bytes) {
  int32_t b = dcb_credit_units(rec, bytes);
  dcb_st32(rec + CREDIT_ABR, (dcb_ld32(rec + CREDIT_ABR) + b) & counter_mask(rec));
  int32_t used = dcb_ld32(rec + CREDIT_USED) + b;
  if (used > dcb_ld32(rec + CREDIT_CAPACITY)) { dcb_inc64(rec + CREDIT_OVERRUN_UNITS, b); return 0; }
  dcb_st32(rec + CREDIT_USED, used);
  dcb_inc64(rec + CREDIT_RECV_UNITS, b);
  return 1;
}

void dcb_credit_drain(uint8_t *rec, int32_t bytes) {
  dcb_st32(rec + CREDIT_USED, dcb_ld32(rec + CREDIT_USED) - dcb_credit_units(rec, bytes));
}

int32_t dcb_credit_grant_value(uint8_t *rec) {
  int32_t free_units = dcb_ld32(rec + CREDIT_CAPACITY) - dcb_ld32(rec + CREDIT_USED);
  int32_t half = 1 << (dcb_ld32(rec + CREDIT_K) - 1);
  int32_t cl = (dcb_ld32(rec + CREDIT_ABR) + (free_units < half ? free_units : half)) & counter_mask(rec);
  dcb_st32(rec + CREDIT_LAST_CL, cl);
  return cl;
}

void dcb_credit_on_sync(uint8_t *rec, int32_t tbs) {
  dcb_st32(rec + CREDIT_ABR, tbs & counter_mask(rec));
  dcb_inc64(rec + CREDIT_SYNCS_RX, 1);
}
