/*
 * Checks the DPI-C glue (rtl/dcbkit_dpi.c) without a simulator: each dcb_dpi_* call must leave a
 * record exactly as the direct cmodel call does, including the packed-vector arguments (eight
 * 32-bit head sizes, eight 16-bit PFC time fields, least significant first, as IEEE 1800 Annex H
 * passes bit vectors). Prints one "ok <what>" line per check; exits 1 at the first difference.
 */
#include <stdio.h>
#include <string.h>
#include "svdpi.h"
#include "dcbkit.h"

void *dcb_dpi_alloc(int bytes);
void dcb_dpi_free(void *rec);
void dcb_dpi_st8(void *rec, int off, int v);
void dcb_dpi_st32(void *rec, int off, int v);
void dcb_dpi_st64(void *rec, int off, long long v);
int dcb_dpi_ld32(void *rec, int off);
void dcb_dpi_ets_configure(void *rec, int max_frame);
int dcb_dpi_ets_select(void *rec, int backlog, int blocked, const svBitVecVal *head_wire);
void dcb_dpi_pfc_configure(void *rec);
void dcb_dpi_pfc_receive_pfc(void *rec, int enable, const svBitVecVal *times, long long now);
int dcb_dpi_pfc_blocked_mask(void *rec, long long now);
void dcb_dpi_credit_configure(void *rec);
int dcb_dpi_credit_grant_value(void *rec);
void dcb_dpi_credit_on_grant(void *rec, int cl, long long now);
int dcb_dpi_credit_try_send(void *rec, int bytes, long long now);
void dcb_dpi_qcn_rp_configure(void *rec, unsigned seed, unsigned id);
void dcb_dpi_dcqcn_rp_on_cnp(void *rec, long long now);
void dcb_dpi_qcn_cp_configure(void *rec, unsigned seed, unsigned id);
int dcb_dpi_qcn_cp_enqueue(void *rec, int len);

static int same(const char *what, const void *a, const void *b, size_t n) {
  if (memcmp(a, b, n) != 0) { printf("DIFFERENT %s\n", what); return 0; }
  printf("ok %s\n", what);
  return 1;
}

int main(void) {
  static uint64_t direct_words[PFC_SIZE / 8 + 1];
  uint8_t *direct = (uint8_t *)direct_words;

  /* ETS: 40/40/20 over TCs 0..2, heads 1520 / 84 / 1538 */
  uint8_t *e = dcb_dpi_alloc(ETS_BYTES);
  memset(direct, 0, ETS_BYTES);
  for (int t = 0; t < 3; t++) { dcb_dpi_st8(e, ETS_TSA + t, TSA_ETS); direct[ETS_TSA + t] = TSA_ETS; }
  int bw[3] = {40, 40, 20};
  for (int t = 0; t < 3; t++) { dcb_dpi_st8(e, ETS_BW + t, bw[t]); direct[ETS_BW + t] = (uint8_t)bw[t]; }
  dcb_dpi_ets_configure(e, 1518);
  dcb_ets_configure(direct, 1518);
  int32_t heads[8] = {1520, 84, 1538, 0, 0, 0, 0, 0};
  svBitVecVal packed[8];
  for (int i = 0; i < 8; i++) packed[i] = (svBitVecVal)heads[i];
  for (int k = 0; k < 5; k++) {
    int a = dcb_dpi_ets_select(e, 0x07, k == 3 ? 0x01 : 0, packed), b = dcb_ets_select(direct, 0x07, k == 3 ? 0x01 : 0, heads);
    if (a != b) { printf("DIFFERENT ets select %d: %d vs %d\n", k, a, b); return 1; }
  }
  if (!same("ets select with packed head sizes", e, direct, ETS_BYTES)) return 1;
  dcb_dpi_free(e);

  /* PFC: eight distinct time fields packed two to a 32-bit word */
  uint8_t *p = dcb_dpi_alloc(PFC_SIZE);
  memset(direct, 0, PFC_SIZE);
  dcb_dpi_st32(p, PFC_MODE, PFC_MODE_PFC); dcb_st32(direct + PFC_MODE, PFC_MODE_PFC);
  dcb_dpi_st32(p, PFC_ENABLE, 0xFF); dcb_st32(direct + PFC_ENABLE, 0xFF);
  dcb_dpi_st32(p, PFC_PAUSE_TIME, 0xFFFF); dcb_st32(direct + PFC_PAUSE_TIME, 0xFFFF);
  dcb_dpi_st64(p, PFC_SPEED_BPS, 100000000000LL); dcb_st64(direct + PFC_SPEED_BPS, 100000000000LL);
  dcb_dpi_pfc_configure(p);
  dcb_pfc_configure(direct);
  uint16_t times[8] = {1, 2, 300, 4000, 0, 65535, 7, 8};
  svBitVecVal tpacked[4];
  for (int w = 0; w < 4; w++) tpacked[w] = (svBitVecVal)times[2 * w] | ((svBitVecVal)times[2 * w + 1] << 16);
  dcb_dpi_pfc_receive_pfc(p, 0xEF, tpacked, 1000);
  dcb_pfc_receive_pfc(direct, 0xEF, times, 1000);
  if (dcb_dpi_pfc_blocked_mask(p, 5000) != dcb_pfc_blocked_mask(direct, 5000)) { printf("DIFFERENT pfc blocked mask\n"); return 1; }
  if (!same("pfc receive with packed time fields", p, direct, PFC_SIZE)) return 1;
  dcb_dpi_free(p);

  /* credit: a grant and a send */
  uint8_t *c = dcb_dpi_alloc(CREDIT_SIZE);
  memset(direct, 0, CREDIT_SIZE);
  dcb_dpi_st32(c, CREDIT_K, 16); dcb_st32(direct + CREDIT_K, 16);
  dcb_dpi_st32(c, CREDIT_UNIT, 64); dcb_st32(direct + CREDIT_UNIT, 64);
  dcb_dpi_st32(c, CREDIT_CAPACITY, 100); dcb_st32(direct + CREDIT_CAPACITY, 100);
  dcb_dpi_credit_configure(c); dcb_credit_configure(direct);
  dcb_dpi_credit_on_grant(c, dcb_dpi_credit_grant_value(c), 10);
  dcb_credit_on_grant(direct, dcb_credit_grant_value(direct), 10);
  if (dcb_dpi_credit_try_send(c, 1500, 20) != dcb_credit_try_send(direct, 1500, 20)) { printf("DIFFERENT credit send\n"); return 1; }
  if (!same("credit grant and send", c, direct, CREDIT_SIZE)) return 1;
  dcb_dpi_free(c);

  /* DCQCN RP: the CNP that engages the limiter */
  uint8_t *r = dcb_dpi_alloc(QCN_RP_SIZE);
  memset(direct, 0, QCN_RP_SIZE);
  long long fields64[][2] = {{QCN_RP_LINE_BPS, 40000000000LL}, {QCN_RP_TIMER_PS, 55000000}, {QCN_RP_MIN_BPS, 5000000}, {QCN_RP_ALPHA_PS, 55000000}};
  int fields32[][2] = {{QCN_RP_BC_BYTES, 10000000}, {QCN_RP_TH, 5}, {QCN_RP_PROFILE, RP_DCQCN}, {QCN_RP_ALPHA_BITS, 20},
                       {QCN_RP_GD_SHIFT, 21}, {QCN_RP_G, 4096}, {QCN_RP_ALPHA_INIT, 1 << 20}};
  for (size_t i = 0; i < sizeof fields64 / sizeof fields64[0]; i++) { dcb_dpi_st64(r, (int)fields64[i][0], fields64[i][1]); dcb_st64(direct + fields64[i][0], fields64[i][1]); }
  for (size_t i = 0; i < sizeof fields32 / sizeof fields32[0]; i++) { dcb_dpi_st32(r, fields32[i][0], fields32[i][1]); dcb_st32(direct + fields32[i][0], fields32[i][1]); }
  dcb_dpi_qcn_rp_configure(r, 1, 0); dcb_qcn_rp_configure(direct, 1, 0);
  dcb_dpi_dcqcn_rp_on_cnp(r, 1000); dcb_dcqcn_rp_on_cnp(direct, 1000);
  if (!same("dcqcn rp cnp", r, direct, QCN_RP_SIZE)) return 1;
  if (dcb_dpi_ld32(r, QCN_RP_ACTIVE) != 1) { printf("DIFFERENT: the limiter did not engage\n"); return 1; }
  dcb_dpi_free(r);

  /* QCN CP: enqueues until the first sample */
  uint8_t *q = dcb_dpi_alloc(QCN_CP_SIZE);
  memset(direct, 0, QCN_CP_SIZE);
  dcb_dpi_st32(q, QCN_CP_Q_EQ, 26000); dcb_st32(direct + QCN_CP_Q_EQ, 26000);
  dcb_dpi_st32(q, QCN_CP_W, 2); dcb_st32(direct + QCN_CP_W, 2);
  dcb_dpi_qcn_cp_configure(q, 1, 0); dcb_qcn_cp_configure(direct, 1, 0);
  for (int k = 0; k < 40; k++) if (dcb_dpi_qcn_cp_enqueue(q, 9000) != dcb_qcn_cp_enqueue(direct, 9000)) { printf("DIFFERENT cp enqueue\n"); return 1; }
  if (!same("qcn cp enqueues", q, direct, QCN_CP_SIZE)) return 1;
  dcb_dpi_free(q);
  return 0;
}
