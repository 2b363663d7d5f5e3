/*
 * dcbkit C reference model: every kernel of the AssemblyScript core (assembly/, one .ts file per kernel) in portable C99,
 * on the same byte records with the same offsets, bit-exact with build/core.wasm
 * (test/cmodel-differential.test.ts replays every shipped vector and 10^5 random events per kernel).
 *
 *   ETS      IEEE 802.1Qaz-2011 cl. 37.3, strict + DWRR selection     cmodel/ets.c     (assembly/ets.ts)
 *   PFC      IEEE 802.1Qbb / 802.3 Annex 31B-31D, PFC and PAUSE         cmodel/pfc.c     (assembly/pfc.ts)
 *   credit   credit-based link-level flow control, IBA Vol. 1 §7.9 rules cmodel/credit.c  (assembly/credit.ts)
 *   QCN CP   IEEE 802.1Qau cl. 32 congestion point; DCQCN ECN marking   cmodel/qcn_cp.c  (assembly/qcn_cp.ts)
 *   QCN RP   IEEE 802.1Qau cl. 32 reaction point; DCQCN RP and NP       cmodel/qcn_rp.c  (assembly/qcn_rp.ts)
 *   rng      xorshift32 (13, 17, 5) per entity and the +-15 % jitter    cmodel/rng.c     (assembly/rng.ts)
 *
 * Records are plain byte arrays (uint8_t *) laid out by assembly/layout.ts; the offsets, record sizes
 * and codes come from the generated header build/dcb_layout.h (scripts/layout-h.mjs), so this model
 * never keeps a copy of the layout. A record must be 8-byte aligned and DCB_*_SIZE bytes long.
 *
 * Configure protocol, as in the core: zero the record, write its config fields, call configure:
 *     uint8_t ets[ETS_BYTES] = {0};  ets[ETS_PRIO_TC + p] = tc; ets[ETS_TSA + tc] = TSA_ETS; ...
 *     dcb_ets_configure(ets, 1518);
 * Times are picoseconds (int64), sizes bytes, rates bit/s; all arithmetic is integer.
 * Build: cc -std=c99 -I build -c cmodel/NAME.c for each file  (build/dcb_layout.h comes from `npm run build`).
 */
#ifndef DCBKIT_H
#define DCBKIT_H

#include <stdint.h>
#include <string.h>
#include "dcb_layout.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- field access (little-endian byte records, as in Wasm linear memory; unaligned-safe) ---- */
static inline int32_t dcb_ld32(const uint8_t *p) { int32_t v; memcpy(&v, p, 4); return v; }
static inline uint32_t dcb_ldu32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static inline int64_t dcb_ld64(const uint8_t *p) { int64_t v; memcpy(&v, p, 8); return v; }
static inline void dcb_st32(uint8_t *p, int32_t v) { memcpy(p, &v, 4); }
static inline void dcb_stu32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static inline void dcb_st64(uint8_t *p, int64_t v) { memcpy(p, &v, 8); }
static inline void dcb_inc64(uint8_t *p, int64_t d) { dcb_st64(p, dcb_ld64(p) + d); }
/* An index or offset into a record or table, as Wasm addresses are: an unsigned 32-bit value,
   zero-extended (the models' indices are never negative; a signed int would be sign-extended per use). */
#define DCB_IX(i) ((size_t)(uint32_t)(i))

/* ---- rng.c ---- */
uint32_t dcb_rng_seed(uint32_t seed, uint32_t id);
uint32_t dcb_rng_next(uint8_t *state);
int64_t dcb_jitter(int64_t base, uint8_t *state);

/* ---- ets.c: record ETS_BYTES; head_wire = 8 int32 head-of-line wire sizes (frame + 20) ---- */
void dcb_ets_configure(uint8_t *ets, int32_t max_frame);
int32_t dcb_ets_classify(const uint8_t *ets, int32_t prio);
int32_t dcb_ets_select(uint8_t *ets, int32_t backlog, int32_t blocked, const int32_t head_wire[8]);
void dcb_ets_emptied(uint8_t *ets, int32_t tc);

/* ---- pfc.c: record PFC_SIZE ---- */
void dcb_pfc_configure(uint8_t *rec);
int32_t dcb_pfc_arrive(uint8_t *rec, int32_t prio, int32_t bytes, int64_t now);
void dcb_pfc_depart(uint8_t *rec, int32_t prio, int32_t bytes);
/* the parts of arrive and depart, for a pipeline with its own control flow (bench/native/port.c) */
int32_t dcb_pfc_unit_of(const uint8_t *rec, int32_t prio);
uint32_t dcb_pfc_occ_with(const uint8_t *rec, int32_t unit, int32_t bytes);
int dcb_pfc_over_limit(const uint8_t *rec, int32_t unit, uint32_t occ_unit);
void dcb_pfc_drop(uint8_t *rec, int32_t prio, int32_t bytes);
void dcb_pfc_add(uint8_t *rec, int32_t prio, int32_t bytes);
int dcb_pfc_xoff_due(const uint8_t *rec, int32_t unit, uint32_t occ_unit);
void dcb_pfc_queue_xoff(uint8_t *rec, int32_t unit, int64_t now);
void dcb_pfc_remove(uint8_t *rec, int32_t prio, int32_t bytes);
int dcb_pfc_xon_due(const uint8_t *rec, int32_t unit);
void dcb_pfc_queue_xon(uint8_t *rec, int32_t unit);
int64_t dcb_pfc_next_refresh(const uint8_t *rec);
int32_t dcb_pfc_refresh_due(uint8_t *rec, int64_t now);
int32_t dcb_pfc_take_pending(uint8_t *rec);
void dcb_pfc_receive_pfc(uint8_t *rec, int32_t enable, const uint16_t times[8], int64_t now);
void dcb_pfc_receive_pause(uint8_t *rec, int32_t quanta, int64_t now);
int32_t dcb_pfc_blocked_mask(uint8_t *rec, int64_t now);
int32_t dcb_pfc_blocked_tcs(int32_t blocked_prios, int32_t prio_tc);
int64_t dcb_pfc_paused_ps(const uint8_t *rec, int32_t unit, int64_t now);

/* ---- credit.c: record CREDIT_SIZE ---- */
void dcb_credit_configure(uint8_t *rec);
int32_t dcb_credit_units(const uint8_t *rec, int32_t bytes);
int32_t dcb_credit_age(uint8_t *rec, int64_t now);
int32_t dcb_credit_try_send(uint8_t *rec, int32_t bytes, int64_t now);
void dcb_credit_on_grant(uint8_t *rec, int32_t cl, int64_t now);
int32_t dcb_credit_sync_value(const uint8_t *rec);
int32_t dcb_credit_available(const uint8_t *rec, int64_t now);
int32_t dcb_credit_receive(uint8_t *rec, int32_t bytes);
void dcb_credit_drain(uint8_t *rec, int32_t bytes);
int32_t dcb_credit_grant_value(uint8_t *rec);
void dcb_credit_on_sync(uint8_t *rec, int32_t tbs);

/* ---- qcn_cp.c: records QCN_CP_SIZE (qau-pc) and DCQCN_CP_SIZE (dcqcn) ---- */
void dcb_qcn_cp_configure(uint8_t *rec, uint32_t seed, uint32_t id);
int32_t dcb_qcn_cp_quantise(uint8_t *rec, int32_t q);
int32_t dcb_qcn_cp_enqueue(uint8_t *rec, int32_t len);      /* 1: sampled, send a CNM */
int32_t dcb_qcn_cp_countdown(uint8_t *rec, int32_t len);    /* q += len, ttm -= len; returns ttm (< 0: sample) */
int32_t dcb_qcn_cp_tick(uint8_t *rec, int32_t len);         /* the countdown alone (the caller keeps q) */
int32_t dcb_qcn_cp_sample(uint8_t *rec);                    /* the sample; 1: send a CNM */
int32_t dcb_qcn_cp_enqueue_one(uint8_t *rec, int32_t len);  /* also leaves fb/qf of every enqueue (vectors) */
void dcb_qcn_cp_dequeue(uint8_t *rec, int32_t len);
int32_t dcb_qcn_cp_sample_base(int32_t qf);
void dcb_dcqcn_cp_configure(uint8_t *rec, uint32_t seed, uint32_t id);
int32_t dcb_dcqcn_cp_enqueue(uint8_t *rec, int32_t len);    /* 1: CE-marked */
void dcb_dcqcn_cp_dequeue(uint8_t *rec, int32_t len);

/* ---- qcn_rp.c: record QCN_RP_SIZE (both profiles), DCQCN_NP_SIZE ---- */
#define DCB_FIRED_NONE 0
#define DCB_FIRED_RATE_TIMER 1
#define DCB_FIRED_ALPHA_TIMER 2
void dcb_qcn_rp_configure(uint8_t *rec, uint32_t seed, uint32_t id);
int32_t dcb_qcn_rp_fire_due(uint8_t *rec, int64_t now);
void dcb_qcn_rp_advance(uint8_t *rec, int64_t now);
void dcb_qcn_rp_on_cnm(uint8_t *rec, int64_t now, int32_t qf);
void dcb_qcn_rp_on_frame_sent(uint8_t *rec, int64_t now, int32_t len, int32_t backlog);
void dcb_dcqcn_rp_on_cnp(uint8_t *rec, int64_t now);
void dcb_dcqcn_np_configure(uint8_t *rec);
int32_t dcb_dcqcn_np_on_ce(uint8_t *rec, int64_t now);

#ifdef __cplusplus
}
#endif
#endif
