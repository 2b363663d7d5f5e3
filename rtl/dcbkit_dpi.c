/*
 * C glue of the DPI-C layer (rtl/dcbkit_dpi.sv) over the dcbkit C reference model (cmodel/):
 * IEEE 1800-2017 §35 / Annex H types: int -> int, longint -> long long, chandle -> void *,
 * bit [N-1:0] -> svBitVecVal words, least significant first. A chandle is a record allocated here,
 * zeroed and 16-byte aligned, as the core's records are.
 * Build: with the simulator's svdpi.h on the include path, plus -I build -I cmodel and cmodel's .c files.
 */
#include <stdlib.h>
#include <string.h>
#include "svdpi.h"
#include "dcbkit.h"

#define REC(h) ((uint8_t *)(h))

/* Simulators compile this file as C or as C++ (Verilator does the latter): C linkage either way. */
#ifdef __cplusplus
extern "C" {
#endif

void *dcb_dpi_alloc(int bytes) {
  size_t n = (size_t)(bytes > 0 ? bytes : 1);
  n = (n + 15) & ~(size_t)15;
  void *p = aligned_alloc(16, n);
  if (p) memset(p, 0, n);
  return p;
}
void dcb_dpi_free(void *rec) { free(rec); }
int dcb_dpi_ld8(void *rec, int off) { return REC(rec)[off]; }
void dcb_dpi_st8(void *rec, int off, int v) { REC(rec)[off] = (uint8_t)v; }
int dcb_dpi_ld32(void *rec, int off) { return dcb_ld32(REC(rec) + off); }
void dcb_dpi_st32(void *rec, int off, int v) { dcb_st32(REC(rec) + off, v); }
long long dcb_dpi_ld64(void *rec, int off) { return dcb_ld64(REC(rec) + off); }
void dcb_dpi_st64(void *rec, int off, long long v) { dcb_st64(REC(rec) + off, v); }

void dcb_dpi_ets_configure(void *rec, int max_frame) { dcb_ets_configure(REC(rec), max_frame); }
int dcb_dpi_ets_select(void *rec, int backlog, int blocked, const svBitVecVal *head_wire) {
  int32_t heads[8];
  for (int i = 0; i < 8; i++) heads[i] = (int32_t)head_wire[i];
  return dcb_ets_select(REC(rec), backlog, blocked, heads);
}
void dcb_dpi_ets_emptied(void *rec, int tc) { dcb_ets_emptied(REC(rec), tc); }

void dcb_dpi_pfc_configure(void *rec) { dcb_pfc_configure(REC(rec)); }
int dcb_dpi_pfc_arrive(void *rec, int prio, int bytes, long long now) { return dcb_pfc_arrive(REC(rec), prio, bytes, now); }
void dcb_dpi_pfc_depart(void *rec, int prio, int bytes) { dcb_pfc_depart(REC(rec), prio, bytes); }
long long dcb_dpi_pfc_next_refresh(void *rec) { return dcb_pfc_next_refresh(REC(rec)); }
int dcb_dpi_pfc_refresh_due(void *rec, long long now) { return dcb_pfc_refresh_due(REC(rec), now); }
int dcb_dpi_pfc_take_pending(void *rec) { return dcb_pfc_take_pending(REC(rec)); }
void dcb_dpi_pfc_receive_pfc(void *rec, int enable, const svBitVecVal *times, long long now) {
  uint16_t t[8];
  for (int n = 0; n < 8; n++) t[n] = (uint16_t)(times[n / 2] >> (16 * (n % 2)));
  dcb_pfc_receive_pfc(REC(rec), enable, t, now);
}
void dcb_dpi_pfc_receive_pause(void *rec, int quanta, long long now) { dcb_pfc_receive_pause(REC(rec), quanta, now); }
int dcb_dpi_pfc_blocked_mask(void *rec, long long now) { return dcb_pfc_blocked_mask(REC(rec), now); }
int dcb_dpi_pfc_blocked_tcs(int blocked_prios, int prio_tc) { return dcb_pfc_blocked_tcs(blocked_prios, prio_tc); }
long long dcb_dpi_pfc_paused_ps(void *rec, int unit, long long now) { return dcb_pfc_paused_ps(REC(rec), unit, now); }

void dcb_dpi_credit_configure(void *rec) { dcb_credit_configure(REC(rec)); }
int dcb_dpi_credit_try_send(void *rec, int bytes, long long now) { return dcb_credit_try_send(REC(rec), bytes, now); }
void dcb_dpi_credit_on_grant(void *rec, int cl, long long now) { dcb_credit_on_grant(REC(rec), cl, now); }
int dcb_dpi_credit_sync_value(void *rec) { return dcb_credit_sync_value(REC(rec)); }
int dcb_dpi_credit_age(void *rec, long long now) { return dcb_credit_age(REC(rec), now); }
int dcb_dpi_credit_available(void *rec, long long now) { return dcb_credit_available(REC(rec), now); }
int dcb_dpi_credit_receive(void *rec, int bytes) { return dcb_credit_receive(REC(rec), bytes); }
void dcb_dpi_credit_drain(void *rec, int bytes) { dcb_credit_drain(REC(rec), bytes); }
int dcb_dpi_credit_grant_value(void *rec) { return dcb_credit_grant_value(REC(rec)); }
void dcb_dpi_credit_on_sync(void *rec, int tbs) { dcb_credit_on_sync(REC(rec), tbs); }

void dcb_dpi_qcn_cp_configure(void *rec, unsigned seed, unsigned id) { dcb_qcn_cp_configure(REC(rec), seed, id); }
int dcb_dpi_qcn_cp_enqueue(void *rec, int len) { return dcb_qcn_cp_enqueue(REC(rec), len); }
void dcb_dpi_qcn_cp_dequeue(void *rec, int len) { dcb_qcn_cp_dequeue(REC(rec), len); }
void dcb_dpi_dcqcn_cp_configure(void *rec, unsigned seed, unsigned id) { dcb_dcqcn_cp_configure(REC(rec), seed, id); }
int dcb_dpi_dcqcn_cp_enqueue(void *rec, int len) { return dcb_dcqcn_cp_enqueue(REC(rec), len); }
void dcb_dpi_dcqcn_cp_dequeue(void *rec, int len) { dcb_dcqcn_cp_dequeue(REC(rec), len); }

void dcb_dpi_qcn_rp_configure(void *rec, unsigned seed, unsigned id) { dcb_qcn_rp_configure(REC(rec), seed, id); }
int dcb_dpi_qcn_rp_fire_due(void *rec, long long now) { return dcb_qcn_rp_fire_due(REC(rec), now); }
void dcb_dpi_qcn_rp_on_cnm(void *rec, long long now, int qf) { dcb_qcn_rp_on_cnm(REC(rec), now, qf); }
void dcb_dpi_qcn_rp_on_frame_sent(void *rec, long long now, int len, int backlog) { dcb_qcn_rp_on_frame_sent(REC(rec), now, len, backlog); }
void dcb_dpi_dcqcn_rp_on_cnp(void *rec, long long now) { dcb_dcqcn_rp_on_cnp(REC(rec), now); }
void dcb_dpi_dcqcn_np_configure(void *rec) { dcb_dcqcn_np_configure(REC(rec)); }
int dcb_dpi_dcqcn_np_on_ce(void *rec, long long now) { return dcb_dcqcn_np_on_ce(REC(rec), now); }
#ifdef __cplusplus
}
#endif
