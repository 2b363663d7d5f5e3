/*
 * C reference of the dcbkit port pipeline (assembly/port.ts): the same per-packet algorithm on the
 * same byte layout, so that on the same seeded input both produce the same state checksum
 * (test/port-differential.test.ts) and `dcbkit bench` has a native-speed anchor (docs/design.md §3, §6).
 *
 * Pipeline per arrival: serve the link up to the arrival time (802.1Qaz ETS selection: strict TCs by
 * number, then DWRR), then the arrival (802.1Qbb PFC frame received, or a data frame: classify,
 * PFC ingress accounting, FIFO, 802.1Qau CP sampling, XOFF refresh), PFC frames and CNMs to the event
 * ring. The kernels are the C reference model's (cmodel/ets.c, pfc.c, qcn_cp.c, rng.c: the mirrors of
 * assembly/ets.ts, pfc.ts, qcn_cp.ts, rng.ts); layout offsets come from assembly/layout.ts through the
 * generated build/dcb_layout.h. Integer arithmetic only.
 *
 * Usage: port.out check SEED PACKETS        prints the checksum (u32) after PACKETS arrivals
 *        port.out bench BATCH SAMPLES WARMUP prints SAMPLES timings, ns per packet, of BATCH packets
 *        port.out count SEED N               set-up + 30 warm-up batches + N packets (for perf stat)
 * Build: npm run build (writes build/dcb_layout.h), then
 *        gcc -O2 -flto -fno-pie -no-pie -std=c11 -I build -I cmodel -o port.out port.c cmodel/{ets,pfc,qcn_cp,rng}.c
 * (-flto inlines the kernels into the pipeline, as asc inlines them into assembly/port.ts; without
 * PIE the static records are addressed by constant offsets, as Wasm addresses linear memory).
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

/* ---- the kernels: the C reference model (cmodel/, one file per kernel) over the layout of
   assembly/layout.ts, generated into build/dcb_layout.h by scripts/layout-h.mjs (gcc -I build) ---- */
#include "dcbkit.h"
#define NEVER INT64_MAX
#define I32_MAX INT32_MAX

static _Alignas(16) u8 PORTMEM[PORT_BYTES];
static _Alignas(16) u8 QUEUES[8 * QUEUE_CAP * 4];
static _Alignas(16) u8 IN_RING[IN_CAP * 8];
static _Alignas(16) u8 OUT_RING[OUT_CAP * 16];
static uint16_t PAUSE_TIMES[8];
/* per TC the CP record its frames are counted in: its QCN CP, or the sink that never samples
   (countdown restarted at INT32_MAX every batch); rebuilt at every batch (assembly/port.ts CP_OF_TC) */
static u8 *CP_OF_TC[8];
static _Alignas(16) u8 CP_SINK[QCN_CP_SIZE];
#define PORT PORTMEM

#define ld32 dcb_ld32
#define ldu32 dcb_ldu32
#define ld64 dcb_ld64
#define st32 dcb_st32
#define stu32 dcb_stu32
#define st64 dcb_st64
#define inc64 dcb_inc64
#define PI32(rec, f, u) ((rec) + (f) + 4 * DCB_IX(u))

/* ---- port (assembly/port.ts) ---- */
/* Per-event paths (PFC frames sent or received, refreshes, pause ends, CP samples) kept out of
   line, as the Wasm build keeps portRefreshBlocked: the per-packet code keeps its registers. */
#if defined(__GNUC__)
#define COLD __attribute__((cold, noinline))
#else
#define COLD
#endif
#define PX32(f, i) (PORT + (f) + 4 * DCB_IX(i))
static inline void emit_event(i32 kind, i32 arg, i64 t) {
  i32 head = ld32(PORT + PORT_OUT_HEAD);
  u8 *e = OUT_RING + 16 * (head & (OUT_CAP - 1));
  st32(e, kind);
  st32(e + 4, arg);
  st64(e + 8, t);
  st32(PORT + PORT_OUT_HEAD, head + 1);
  inc64(PORT + PORT_EVENTS_OUT, 1);
}
COLD static void flush_pfc(i64 t) {
  i32 pending = dcb_pfc_take_pending(PORT + PORT_PFC);
  if (pending != 0) {
    i32 xoff = 0;
    for (i32 u = 0; u < 9; u++) xoff |= (i32)(ld32(PI32(PORT + PORT_PFC, PFC_TX_TIME, u)) != 0) << u;
    emit_event(1 | (pending << 8), xoff & pending, t);
  }
}
COLD static void refresh_blocked(i64 t) {
  u8 *pfc = PORT + PORT_PFC;
  st32(PORT + PORT_BLOCKED, dcb_pfc_blocked_tcs(dcb_pfc_blocked_mask(pfc, t), ld32(PORT + PORT_PRIO_TC)));
  st64(PORT + PORT_PAUSE_EXPIRY, ld64(pfc + PFC_BLOCKED_UNTIL));
}
/* bytes queued in the FIFO of tc: the PFC occupancies of its priorities (the CP queue length) */
static i32 queued_bytes(i32 tc) {
  i32 sum = 0;
  for (i32 p = 0; p < 8; p++)
    if (dcb_ets_classify(PORT + PORT_ETS, p) == tc) sum += ld32(PI32(PORT + PORT_PFC, PFC_OCC, p));
  return sum;
}
COLD static void refresh_due(i64 now) {
  u8 *pfc = PORT + PORT_PFC;
  dcb_pfc_refresh_due(pfc, now);
  st64(PORT + PORT_NEXT_REFRESH, dcb_pfc_next_refresh(pfc));
}
COLD static void sample_cp(u8 *cp, i32 tc, i32 word, i64 now) {
  st32(cp + QCN_CP_Q, queued_bytes(tc));
  if (dcb_qcn_cp_sample(cp)) emit_event(2 | (tc << 8) | (((word >> 19) & 0xFF) << 16), ld32(cp + QCN_CP_QF), now);
}
COLD static void send_xon(i32 unit, i64 t) {
  dcb_pfc_queue_xon(PORT + PORT_PFC, unit);
  flush_pfc(t);
}
COLD static void send_xoff(i32 unit, i64 now) {
  u8 *pfc = PORT + PORT_PFC;
  dcb_pfc_queue_xoff(pfc, unit, now);
  i64 refresh_at = now + ld64(pfc + PFC_REFRESH_PS);
  if (refresh_at < ld64(PORT + PORT_NEXT_REFRESH)) st64(PORT + PORT_NEXT_REFRESH, refresh_at);
  if (now >= ld64(PORT + PORT_NEXT_REFRESH)) refresh_due(now);
  flush_pfc(now);
}
static inline void serve_link(i64 now) {
  u8 *ets = PORT + PORT_ETS, *pfc = PORT + PORT_PFC;
  i64 t = ld64(PORT + PORT_TX_FREE);
  if (t <= now) {
    do {
      if (t >= ld64(PORT + PORT_PAUSE_EXPIRY)) refresh_blocked(t);
      i32 tc = dcb_ets_select(ets, ld32(PORT + PORT_BACKLOG), ld32(PORT + PORT_BLOCKED), (const int32_t *)(PORT + PORT_HEAD_WIRE));
      if (tc < 0) {
        i64 resume = ld64(PORT + PORT_PAUSE_EXPIRY);
        if ((ld32(PORT + PORT_BACKLOG) & ld32(PORT + PORT_BLOCKED)) != 0 && resume <= now) { t = resume; continue; }
        t = now;
        break;
      }
      i32 head = ld32(PX32(PORT_Q_HEAD, tc)), count = ld32(PX32(PORT_Q_COUNT, tc)) - 1;
      u8 *fifo = QUEUES + 4 * QUEUE_CAP * DCB_IX(tc);
      i32 entry = ld32(fifo + 4 * DCB_IX(head));
      i32 bytes = entry & 0x3FFF, prio = (entry >> 16) & 7;
      i32 next_head = (head + 1) & (QUEUE_CAP - 1);
      st32(PX32(PORT_Q_HEAD, tc), next_head);
      st32(PX32(PORT_Q_COUNT, tc), count);
      if (count == 0) {
        st32(PORT + PORT_BACKLOG, ld32(PORT + PORT_BACKLOG) & ~(1 << tc));
        st32(PX32(PORT_HEAD_WIRE, tc), 0);
        dcb_ets_emptied(ets, tc);
      } else {
        st32(PX32(PORT_HEAD_WIRE, tc), (ld32(fifo + 4 * DCB_IX(next_head)) & 0x3FFF) + WIRE_OVERHEAD);
      }
      dcb_pfc_remove(pfc, prio, bytes);
      i32 unit = dcb_pfc_unit_of(pfc, prio);
      if (dcb_pfc_xon_due(pfc, unit)) send_xon(unit, t);
      inc64(PORT + PORT_TX_FRAMES, 1);
      inc64(PORT + PORT_TC_TX_BYTES + 8 * DCB_IX(tc), bytes);
      t += (i64)((bytes + WIRE_OVERHEAD) * ld32(PORT + PORT_PS_PER_BYTE));
    } while (t <= now);
  }
  st64(PORT + PORT_TX_FREE, t);
}
COLD static void receive_pfc(i32 word, i64 now) {
  i32 time = word & 0xFFFF;
  for (i32 n = 0; n < 8; n++) PAUSE_TIMES[n] = (uint16_t)time;
  dcb_pfc_receive_pfc(PORT + PORT_PFC, (word >> 16) & 0xFF, PAUSE_TIMES, now);
  inc64(PORT + PORT_PFC_RX, 1);
  refresh_blocked(now);
}
static inline void receive_frame(i32 word, i64 now) {
  i32 bytes = word & 0x3FFF, prio = (word >> 16) & 7;
  i32 tc = dcb_ets_classify(PORT + PORT_ETS, prio);
  i32 count = ld32(PX32(PORT_Q_COUNT, tc));
  if (count == QUEUE_CAP) { inc64(PORT + PORT_QUEUE_DROPS, 1); return; }
  u8 *pfc = PORT + PORT_PFC;
  i32 unit = dcb_pfc_unit_of(pfc, prio);
  u32 occ_unit = dcb_pfc_occ_with(pfc, unit, bytes);
  if (dcb_pfc_over_limit(pfc, unit, occ_unit)) { dcb_pfc_drop(pfc, prio, bytes); return; }
  dcb_pfc_add(pfc, prio, bytes);
  i32 slot = (ld32(PX32(PORT_Q_HEAD, tc)) + count) & (QUEUE_CAP - 1);
  st32(QUEUES + 4 * QUEUE_CAP * DCB_IX(tc) + 4 * DCB_IX(slot), word);
  st32(PX32(PORT_Q_COUNT, tc), count + 1);
  st32(PORT + PORT_BACKLOG, ld32(PORT + PORT_BACKLOG) | (1 << tc));
  i32 head_wire = ld32(PX32(PORT_HEAD_WIRE, tc));
  st32(PX32(PORT_HEAD_WIRE, tc), count == 0 ? bytes + WIRE_OVERHEAD : head_wire);
  u8 *cp = CP_OF_TC[DCB_IX(tc)];
  if (dcb_qcn_cp_tick(cp, bytes) < 0) sample_cp(cp, tc, word, now);
  if (dcb_pfc_xoff_due(pfc, unit, occ_unit)) {
    send_xoff(unit, now);
  } else if (now >= ld64(PORT + PORT_NEXT_REFRESH)) {
    refresh_due(now);
    flush_pfc(now);
  }
}
static i64 bytes_sent_by_tcs(void) {
  i64 sum = 0;
  for (i32 tc = 0; tc < 8; tc++) sum += ld64(PORT + PORT_TC_TX_BYTES + 8 * tc);
  return sum;
}
static i32 port_process(i32 n) {
  i64 pfc_frames_before = ld64(PORT + PORT_PFC_RX), bytes_before = bytes_sent_by_tcs();
  i32 cp_mask = ld32(PORT + PORT_CP_MASK);
  for (i32 tc = 0; tc < 8; tc++) CP_OF_TC[tc] = ((cp_mask >> tc) & 1) != 0 ? PORT + PORT_CP + tc * QCN_CP_SIZE : CP_SINK;
  st32(CP_SINK + QCN_CP_TTM, I32_MAX);
  i64 now = ld64(PORT + PORT_NOW);
  const u8 *end = IN_RING + 8 * DCB_IX(n);
  for (const u8 *a = IN_RING; a < end; a += 8) {
    i32 word = ld32(a);
    now += (i64)ldu32(a + 4);
    serve_link(now);
    if (word < 0) receive_pfc(word, now);
    else receive_frame(word, now);
  }
  i64 pfc_frames = ld64(PORT + PORT_PFC_RX) - pfc_frames_before;
  inc64(PORT + PORT_RX_FRAMES, (i64)n - pfc_frames);
  inc64(PORT + PORT_TX_BYTES, bytes_sent_by_tcs() - bytes_before);
  for (i32 tc = 0; tc < 8; tc++)
    if (((cp_mask >> tc) & 1) != 0) st32(PORT + PORT_CP + tc * QCN_CP_SIZE + QCN_CP_Q, queued_bytes(tc));
  st64(PORT + PORT_NOW, now);
  return ld32(PORT + PORT_BACKLOG);
}
static void port_generate(i32 n) {
  u8 *rng = PORT + PORT_GEN_RNG;
  i32 ps_per_byte = ld32(PORT + PORT_PS_PER_BYTE);
  for (i32 i = 0; i < n; i++) {
    u8 *a = IN_RING + 8 * i;
    u32 r = dcb_rng_next(rng), r2 = dcb_rng_next(rng);
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
  stu32(PORT + PORT_GEN_RNG, dcb_rng_seed(seed, 8));
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
  dcb_ets_configure(ets, 1518);
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
  dcb_pfc_configure(pfc);
  st32(PORT + PORT_CP_MASK, 0x07);
  for (i32 tc = 0; tc < 8; tc++) {
    u8 *cp = PORT + PORT_CP + tc * QCN_CP_SIZE;
    st32(cp + QCN_CP_Q_EQ, 26000);
    st32(cp + QCN_CP_W, 2);
    st32(cp + QCN_CP_QUANT, QUANT_LINEAR);
    dcb_qcn_cp_configure(cp, seed, (u32)tc);
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
