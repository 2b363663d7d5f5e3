/*
 * Replays ETS or PFC events on the C reference model (cmodel/) configured from a register image
 * alone, through the generated dcb_regs.h getters (`dcbkit codegen --target c-header`), for
 * test/rtl-regs.test.ts: a driver's view of dcb_regs.bin must reproduce `vectors --config`.
 *   regs_replay dcb_regs.bin ets < events     events: "enq P B" | "tx" | "block MASK"
 *     per event: TC(-1 = none) BYTES CUR DEFICIT[8] QUEUED[8] BLOCKED
 *   regs_replay dcb_regs.bin pfc PORT < events
 *     events: "T arrive P B" | "T depart P B" | "T rx_pfc E T0..T7" | "T rx_pause Q" | "T tick"
 *     per line (XOFF refreshes due at or before an event first, as type "refresh"):
 *     T TYPE DROPPED TX_MASK TX_TIME[9] OCC[9] XOFF_STATE
 *   regs_replay dcb_regs.bin qcn-cp TC SEED qau-pc|dcqcn [linear|msb] < events   events: "enq B" | "deq B"
 *     qau-pc, per event: Q Q_OLD FB QF TTM CNM CNM_QF Q_OFF Q_DELTA (FB QF 0 on deq; CNM_* 0 without a CNM)
 *     dcqcn, per event: Q P_Q16 CE (P_Q16 0 on deq)
 * Configure step (as rtl/dcb_regs_ets_cfg.sv and rtl/dcb_regs_pfc_cfg.sv): the ETS tables from the
 * PRIO and TC blocks, weighted quanta = quantum_credits x DCB_REGS_CREDIT_BYTES; PFC thresholds of a
 * priority from its lossless PG (cells x cell size), 2^30 for lossy priorities and the port unit;
 * the congestion point of TC from its TC block: Qeq = qcn_qeq_cells x cell size and w = qcn_w, or
 * Kmin / Kmax = ecn_k*_cells x cell size and Pmax = ecn_pmax_pct / 100 in Q16. The profile (the
 * config's qcn.rp.profile) and the Fb quantiser (qcn.cp.quantiser) have no field in the map, so
 * they are arguments.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dcbkit.h"
#include "dcb_regs.h"

static uint8_t img[1 << 20];
static uint64_t rec_words[2048];
static uint8_t *const rec = (uint8_t *)rec_words;
#define LOSSY (1 << 30)

static void ets_replay(void) {
  static int32_t fifo[8][4096];
  int32_t head[8] = {0}, count[8] = {0}, head_wire[8] = {0}, blocked = 0;
  for (int p = 0; p < 8; p++) rec[ETS_PRIO_TC + p] = (uint8_t)dcb_prio_tc_get(img, p);
  for (int t = 0; t < 8; t++) {
    rec[ETS_TSA + t] = (uint8_t)dcb_tc_tsa_get(img, t);
    rec[ETS_BW + t] = (uint8_t)dcb_tc_dwrr_weight_get(img, t);
  }
  dcb_ets_configure(rec, (int32_t)dcb_glb_mtu_get(img, 0));
  for (int t = 0; t < 8; t++)
    if ((dcb_ld32(rec + ETS_WEIGHTED_MASK) >> t) & 1) dcb_st32(rec + ETS_QUANTUM + 4 * t, (int32_t)(dcb_tc_quantum_credits_get(img, t) * DCB_REGS_CREDIT_BYTES));
  char line[256];
  while (fgets(line, sizeof line, stdin)) {
    int a, b, tc = -1, bytes = 0;
    if (sscanf(line, "enq %d %d", &a, &b) == 2) {
      tc = dcb_ets_classify(rec, a);
      fifo[tc][(head[tc] + count[tc]++) % 4096] = b;
      bytes = b;
    } else if (strncmp(line, "tx", 2) == 0) {
      int32_t backlog = 0;
      for (int t = 0; t < 8; t++) {
        head_wire[t] = count[t] ? fifo[t][head[t]] + 20 : 0;
        if (count[t]) backlog |= 1 << t;
      }
      tc = dcb_ets_select(rec, backlog, blocked, head_wire);
      if (tc >= 0) {
        bytes = fifo[tc][head[tc]];
        head[tc] = (head[tc] + 1) % 4096;
        if (--count[tc] == 0) dcb_ets_emptied(rec, tc);
      }
    } else if (sscanf(line, "block %d", &a) == 1) {
      blocked = a;
    } else { fprintf(stderr, "bad event: %s", line); exit(2); }
    printf("%d %d %d", tc, bytes, dcb_ld32(rec + ETS_CUR));
    for (int t = 0; t < 8; t++) printf(" %d", dcb_ld32(rec + ETS_DEFICIT + 4 * t));
    for (int t = 0; t < 8; t++) printf(" %d", count[t]);
    printf(" %d\n", blocked);
  }
}

static void pfc_line(int64_t t, const char *type, int dropped) {
  int32_t mask = dcb_pfc_take_pending(rec);
  printf("%" PRId64 " %s %d %d", t, type, dropped, mask);
  for (int u = 0; u < PFC_UNITS; u++) printf(" %d", (mask >> u) & 1 ? dcb_ld32(rec + PFC_TX_TIME + 4 * u) : 0);
  for (int u = 0; u < PFC_UNITS; u++) printf(" %d", dcb_ld32(rec + PFC_OCC + 4 * u));
  printf(" %d\n", dcb_ld32(rec + PFC_XOFF_STATE));
}

static void pfc_replay(int port) {
  uint32_t enable = dcb_glb_pfc_enable_get(img, 0), cell = dcb_glb_cell_bytes_get(img, 0);
  dcb_st32(rec + PFC_MODE, enable ? PFC_MODE_PFC : PFC_MODE_OFF);
  dcb_st32(rec + PFC_ENABLE, (int32_t)enable);
  dcb_st32(rec + PFC_PAUSE_TIME, (int32_t)dcb_glb_pause_time_get(img, 0));
  dcb_st64(rec + PFC_SPEED_BPS, (int64_t)dcb_port_speed_gbps_get(img, port) * 1000000000);
  /* the PG thresholds, by PG number: the PORT block's fields pg0..pg7 of each kind */
  const uint32_t lossless[8] = {
#define PG(g) dcb_port_pg##g##_lossless_get(img, port)
    PG(0), PG(1), PG(2), PG(3), PG(4), PG(5), PG(6), PG(7)};
#undef PG
#define PG8(kind) {dcb_port_pg0_##kind##_get(img, port), dcb_port_pg1_##kind##_get(img, port), dcb_port_pg2_##kind##_get(img, port), dcb_port_pg3_##kind##_get(img, port), \
                   dcb_port_pg4_##kind##_get(img, port), dcb_port_pg5_##kind##_get(img, port), dcb_port_pg6_##kind##_get(img, port), dcb_port_pg7_##kind##_get(img, port)}
  const uint32_t xoff[8] = PG8(xoff_cells), xon[8] = PG8(xon_cells), headroom[8] = PG8(headroom_cells);
  for (int u = 0; u < PFC_UNITS; u++) {
    int g = u < 8 ? (int)dcb_prio_pg_get(img, u) : 0;
    int ll = u < 8 && lossless[g];
    dcb_st32(rec + PFC_XOFF_TH + 4 * u, ll ? (int32_t)(xoff[g] * cell) : LOSSY);
    dcb_st32(rec + PFC_XON_TH + 4 * u, ll ? (int32_t)(xon[g] * cell) : LOSSY);
    dcb_st32(rec + PFC_HEADROOM + 4 * u, ll ? (int32_t)(headroom[g] * cell) : LOSSY);
  }
  dcb_pfc_configure(rec);
  char line[512], type[16];
  int64_t t;
  while (fgets(line, sizeof line, stdin)) {
    int n = 0;
    if (sscanf(line, "%" SCNd64 " %15s %n", &t, type, &n) < 2) { fprintf(stderr, "bad event: %s", line); exit(2); }
    for (int64_t due = dcb_pfc_next_refresh(rec); due <= t; due = dcb_pfc_next_refresh(rec)) {
      dcb_pfc_refresh_due(rec, due);
      pfc_line(due, "refresh", 0);
    }
    int a, b, dropped = 0;
    const char *rest = line + n;
    if (strcmp(type, "arrive") == 0 && sscanf(rest, "%d %d", &a, &b) == 2) dropped = !dcb_pfc_arrive(rec, a, b, t);
    else if (strcmp(type, "depart") == 0 && sscanf(rest, "%d %d", &a, &b) == 2) dcb_pfc_depart(rec, a, b);
    else if (strcmp(type, "rx_pfc") == 0) {
      unsigned e, q[8];
      if (sscanf(rest, "%u %u %u %u %u %u %u %u %u", &e, &q[0], &q[1], &q[2], &q[3], &q[4], &q[5], &q[6], &q[7]) != 9) { fprintf(stderr, "bad rx_pfc\n"); exit(2); }
      uint16_t times[8];
      for (int i = 0; i < 8; i++) times[i] = (uint16_t)q[i];
      dcb_pfc_receive_pfc(rec, (int32_t)e, times, t);
    } else if (strcmp(type, "rx_pause") == 0 && sscanf(rest, "%d", &a) == 1) dcb_pfc_receive_pause(rec, a, t);
    else if (strcmp(type, "tick") != 0) { fprintf(stderr, "bad event: %s", line); exit(2); }
    pfc_line(t, type, dropped);
  }
}

static void qcn_cp_replay(int tc, uint32_t seed, int dcqcn, int msb) {
  int32_t cell = (int32_t)dcb_glb_cell_bytes_get(img, 0);
  if (dcqcn) {
    dcb_st32(rec + DCQCN_CP_KMIN, (int32_t)dcb_tc_ecn_kmin_cells_get(img, tc) * cell);
    dcb_st32(rec + DCQCN_CP_KMAX, (int32_t)dcb_tc_ecn_kmax_cells_get(img, tc) * cell);
    /* percent to Q16, to nearest (pct x 65536 / 100 is never a tie) */
    dcb_st32(rec + DCQCN_CP_PMAX, (int32_t)(((int64_t)dcb_tc_ecn_pmax_pct_get(img, tc) * 65536 + 50) / 100));
    dcb_dcqcn_cp_configure(rec, seed, 0);
  } else {
    dcb_st32(rec + QCN_CP_Q_EQ, (int32_t)dcb_tc_qcn_qeq_cells_get(img, tc) * cell);
    dcb_st32(rec + QCN_CP_W, (int32_t)dcb_tc_qcn_w_get(img, tc));
    dcb_st32(rec + QCN_CP_QUANT, msb ? QUANT_MSB : QUANT_LINEAR);
    dcb_qcn_cp_configure(rec, seed, 0);
  }
  char line[128];
  int bytes;
  while (fgets(line, sizeof line, stdin)) {
    int enq = sscanf(line, "enq %d", &bytes) == 1;
    if (!enq && sscanf(line, "deq %d", &bytes) != 1) { fprintf(stderr, "bad event: %s", line); exit(2); }
    if (dcqcn) {
      int ce = enq ? dcb_dcqcn_cp_enqueue(rec, bytes) : (dcb_dcqcn_cp_dequeue(rec, bytes), 0);
      printf("%d %d %d\n", dcb_ld32(rec + DCQCN_CP_Q), enq ? dcb_ld32(rec + DCQCN_CP_P) : 0, ce);
      continue;
    }
    int cnm = enq ? dcb_qcn_cp_enqueue_one(rec, bytes) : (dcb_qcn_cp_dequeue(rec, bytes), 0);
    printf("%d %d %d %d %d %d %d %d %d\n", dcb_ld32(rec + QCN_CP_Q), dcb_ld32(rec + QCN_CP_Q_OLD), enq ? dcb_ld32(rec + QCN_CP_FB) : 0,
           enq ? dcb_ld32(rec + QCN_CP_QF) : 0, dcb_ld32(rec + QCN_CP_TTM), cnm, cnm ? dcb_ld32(rec + QCN_CP_QF) : 0,
           cnm ? dcb_ld32(rec + QCN_CP_Q_OFF) : 0, cnm ? dcb_ld32(rec + QCN_CP_Q_DELTA) : 0);
  }
}

int main(int argc, char **argv) {
  if (argc < 3) { fprintf(stderr, "usage: regs_replay dcb_regs.bin ets|pfc [PORT] | qcn-cp TC SEED qau-pc|dcqcn [linear|msb]\n"); return 2; }
  FILE *f = fopen(argv[1], "rb");
  if (!f) { perror(argv[1]); return 2; }
  size_t len = fread(img, 1, sizeof img, f);
  fclose(f);
  if (len < DCB_port_BASE || dcb_hdr_magic_get(img, 0) != DCB_REGS_MAGIC) { fprintf(stderr, "%s: not a DCB register image\n", argv[1]); return 2; }
  if (strcmp(argv[2], "ets") == 0) ets_replay();
  else if (strcmp(argv[2], "qcn-cp") == 0) {
    if (argc < 6) { fprintf(stderr, "usage: regs_replay dcb_regs.bin qcn-cp TC SEED qau-pc|dcqcn [linear|msb]\n"); return 2; }
    qcn_cp_replay(atoi(argv[3]), (uint32_t)strtoul(argv[4], NULL, 10), strcmp(argv[5], "dcqcn") == 0, argc > 6 && strcmp(argv[6], "msb") == 0);
  } else pfc_replay(argc > 3 ? atoi(argv[3]) : 0);
  return 0;
}
