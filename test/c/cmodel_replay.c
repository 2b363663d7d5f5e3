/*
 * Replays a recorded trace of core calls on the C reference model (cmodel/), for the differential
 * test (test/cmodel-differential.test.ts). The trace comes from a vectors run on the Wasm core:
 *   r LEN                   the scratch region is LEN bytes (a multiple of 4), zeroed
 *   w OFF VALUE             the host stored the u32 VALUE at scratch offset OFF
 *   c NAME ARG...           the host called core export NAME (pointers are scratch offsets)
 * For each call it prints "RET HASH": the return value (0 for void) and the FNV-1a hash of the
 * region's u32 words after the call, which the test compares with the core's, call by call.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dcbkit.h"

static uint64_t region_words[64 * 1024 / 8]; /* 8-byte aligned, as the core's records */
static uint8_t *const region = (uint8_t *)region_words;
static long region_len;

static uint32_t fnv(void) {
  uint32_t h = 2166136261u;
  for (long i = 0; i < region_len; i += 4) h = (h ^ dcb_ldu32(region + i)) * 16777619u;
  return h;
}

static int32_t head_wire[8];
static uint8_t *ptr(const char *s) {
  long off = strtol(s, 0, 10);
  if (off < 0 || off >= region_len) { fprintf(stderr, "pointer %ld outside the region\n", off); exit(2); }
  return region + off;
}
static int64_t num(const char *s) { return strtoll(s, 0, 10); }

static const int32_t *ets_heads(const char *s) {
  const uint8_t *p = ptr(s);
  for (int i = 0; i < 8; i++) head_wire[i] = dcb_ld32(p + 4 * i);
  return head_wire;
}

static int64_t call(char **a, int n) {
  const char *f = a[0];
#define IS(name, argc) (strcmp(f, name) == 0 && (n == (argc) + 1 || (fprintf(stderr, "%s takes %d args\n", name, argc), exit(2), 0)))
  if (IS("etsConfigure", 2)) { dcb_ets_configure(ptr(a[1]), (int32_t)num(a[2])); return 0; }
  if (IS("etsSelectOne", 4)) return dcb_ets_select(ptr(a[1]), (int32_t)num(a[2]), (int32_t)num(a[3]), ets_heads(a[4]));
  if (IS("etsEmptiedOne", 2)) { dcb_ets_emptied(ptr(a[1]), (int32_t)num(a[2])); return 0; }
  if (IS("pfcConfigure", 1)) { dcb_pfc_configure(ptr(a[1])); return 0; }
  if (IS("pfcArriveOne", 4)) return dcb_pfc_arrive(ptr(a[1]), (int32_t)num(a[2]), (int32_t)num(a[3]), num(a[4]));
  if (IS("pfcDepartOne", 3)) { dcb_pfc_depart(ptr(a[1]), (int32_t)num(a[2]), (int32_t)num(a[3])); return 0; }
  if (IS("pfcTakePendingOne", 1)) return dcb_pfc_take_pending(ptr(a[1]));
  if (IS("pfcNextRefresh", 1)) return dcb_pfc_next_refresh(ptr(a[1]));
  if (IS("pfcRefreshDue", 2)) return dcb_pfc_refresh_due(ptr(a[1]), num(a[2]));
  if (IS("pfcReceivePfc", 4)) {
    uint16_t t[8];
    const uint8_t *p = ptr(a[3]);
    for (int i = 0; i < 8; i++) t[i] = (uint16_t)(p[2 * i] | (p[2 * i + 1] << 8));
    dcb_pfc_receive_pfc(ptr(a[1]), (int32_t)num(a[2]), t, num(a[4]));
    return 0;
  }
  if (IS("pfcReceivePause", 3)) { dcb_pfc_receive_pause(ptr(a[1]), (int32_t)num(a[2]), num(a[3])); return 0; }
  if (IS("pfcBlockedMaskOne", 2)) return dcb_pfc_blocked_mask(ptr(a[1]), num(a[2]));
  if (IS("pfcPausedPs", 3)) return dcb_pfc_paused_ps(ptr(a[1]), (int32_t)num(a[2]), num(a[3]));
  if (IS("creditConfigure", 1)) { dcb_credit_configure(ptr(a[1])); return 0; }
  if (IS("creditTrySendOne", 3)) return dcb_credit_try_send(ptr(a[1]), (int32_t)num(a[2]), num(a[3]));
  if (IS("creditOnGrant", 3)) { dcb_credit_on_grant(ptr(a[1]), (int32_t)num(a[2]), num(a[3])); return 0; }
  if (IS("creditSyncValue", 1)) return dcb_credit_sync_value(ptr(a[1]));
  if (IS("creditAgeOne", 2)) return dcb_credit_age(ptr(a[1]), num(a[2]));
  if (IS("creditAvailable", 2)) return dcb_credit_available(ptr(a[1]), num(a[2]));
  if (IS("creditReceiveOne", 2)) return dcb_credit_receive(ptr(a[1]), (int32_t)num(a[2]));
  if (IS("creditDrainOne", 2)) { dcb_credit_drain(ptr(a[1]), (int32_t)num(a[2])); return 0; }
  if (IS("creditGrantValue", 1)) return dcb_credit_grant_value(ptr(a[1]));
  if (IS("creditOnSync", 2)) { dcb_credit_on_sync(ptr(a[1]), (int32_t)num(a[2])); return 0; }
  if (IS("qcnCpConfigure", 3)) { dcb_qcn_cp_configure(ptr(a[1]), (uint32_t)num(a[2]), (uint32_t)num(a[3])); return 0; }
  if (IS("qcnCpEnqueueOne", 2)) return dcb_qcn_cp_enqueue_one(ptr(a[1]), (int32_t)num(a[2]));
  if (IS("qcnCpDequeueOne", 2)) { dcb_qcn_cp_dequeue(ptr(a[1]), (int32_t)num(a[2])); return 0; }
  if (IS("dcqcnCpConfigure", 3)) { dcb_dcqcn_cp_configure(ptr(a[1]), (uint32_t)num(a[2]), (uint32_t)num(a[3])); return 0; }
  if (IS("dcqcnCpEnqueueOne", 2)) return dcb_dcqcn_cp_enqueue(ptr(a[1]), (int32_t)num(a[2]));
  if (IS("dcqcnCpDequeueOne", 2)) { dcb_dcqcn_cp_dequeue(ptr(a[1]), (int32_t)num(a[2])); return 0; }
  if (IS("qcnRpConfigure", 3)) { dcb_qcn_rp_configure(ptr(a[1]), (uint32_t)num(a[2]), (uint32_t)num(a[3])); return 0; }
  if (IS("qcnRpFireDueOne", 2)) return dcb_qcn_rp_fire_due(ptr(a[1]), num(a[2]));
  if (IS("qcnRpOnCnmOne", 3)) { dcb_qcn_rp_on_cnm(ptr(a[1]), num(a[2]), (int32_t)num(a[3])); return 0; }
  if (IS("qcnRpOnFrameSentOne", 4)) { dcb_qcn_rp_on_frame_sent(ptr(a[1]), num(a[2]), (int32_t)num(a[3]), (int32_t)num(a[4])); return 0; }
  if (IS("dcqcnRpOnCnpOne", 2)) { dcb_dcqcn_rp_on_cnp(ptr(a[1]), num(a[2])); return 0; }
  if (IS("dcqcnNpConfigure", 1)) { dcb_dcqcn_np_configure(ptr(a[1])); return 0; }
  if (IS("dcqcnNpOnCeOne", 2)) return dcb_dcqcn_np_on_ce(ptr(a[1]), num(a[2]));
  fprintf(stderr, "unknown call %s\n", f);
  exit(2);
}

int main(void) {
  static char line[4096];
  char *a[16];
  while (fgets(line, sizeof line, stdin)) {
    int n = 0;
    for (char *t = strtok(line, " \n"); t && n < 16; t = strtok(0, " \n")) a[n++] = t;
    if (n == 0) continue;
    if (strcmp(a[0], "r") == 0 && n == 2) {
      region_len = strtol(a[1], 0, 10);
      if (region_len <= 0 || region_len > (long)sizeof region_words || region_len % 4) { fprintf(stderr, "bad region\n"); return 2; }
      memset(region, 0, sizeof region_words);
    } else if (strcmp(a[0], "w") == 0 && n == 3) {
      dcb_stu32(ptr(a[1]), (uint32_t)strtoul(a[2], 0, 10));
    } else if (strcmp(a[0], "c") == 0 && n >= 2) {
      int64_t ret = call(a + 1, n - 1);
      printf("%" PRId64 " %" PRIu32 "\n", ret, fnv());
    } else {
      fprintf(stderr, "bad trace line: %s\n", a[0]);
      return 2;
    }
  }
  return 0;
}
