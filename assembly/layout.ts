// The memory map of the core: the one module that says where every kernel's record lives (docs/design.md §3);
// the simulator's arena, whose port and flow records embed these, is laid out in assembly/sim/layout.ts.
//
// Every kernel's state is a flat record at an address the caller passes (`rec: usize`). The field
// offsets and record sizes of all kernels are defined here, one section per kernel, and exported
// as immutable globals, so the host reads them from the Wasm exports (`exports.QCN_RP_CR.value`)
// and builds zero-copy views without a second copy of the layout. The simulator lays out arrays of
// these records in its arena; the vectors command and the benchmarks use the static scratch region.
//
// Conventions: i64 fields 8-byte aligned, record sizes multiples of 8 (16 where SIMD may scan).
// Each `<RECORD>_SIZE` is the bytes one record takes (its stride in an array of them).
// Invariant: nothing allocates after init; memory.buffer never grows during a run.
//
// Every offset is derived from the one before it (offset of the previous field + its size, rounded up
// where the next field needs alignment), every embedded record from the end of what precedes it, and
// every record size from its last field, as std/assembly/rt/tlsf.ts does; asc folds these constants.
// The guards at the end of the file are checked at compile time (`ERROR` in a branch asc cannot drop
// fails the build): record sizes, alignment of i64 fields and records, and that embedded records
// fit their containers without overlapping. scripts/layout-h.mjs writes the same constants as a C
// header for the C model (cmodel/) and bench/native/port.c, and the host reads them from the Wasm exports.

/** Field sizes, bytes. */
const U8: i32 = 1;
const I32: i32 = 4;
const I64: i32 = 8;

/** Size of the static scratch region handed to the host for single-entity work (vectors, tests). */
export const SCRATCH_BYTES: i32 = 64 * 1024;
/** A zeroed 64 KiB static region, 16-byte aligned. */
export const SCRATCH: usize = memory.data(SCRATCH_BYTES, 16);

/** Address of the scratch region as an i32 (hosts read exported globals too; this is for symmetry). */
export function scratchPtr(): i32 {
  return <i32>SCRATCH;
}

// ---------------------------------------------------------------------------------------------
// Shared codes: the values a record field, a frame or the host's config takes (host/core/codes.ts
// reads them from the Wasm exports; scripts/layout-h.mjs gives them to the C reference).
// ---------------------------------------------------------------------------------------------

/** Preamble + SFD (8) + minimum inter-frame gap (12): bytes a frame occupies on the wire beyond itself. */
export const WIRE_OVERHEAD: i32 = 20;
/** Every control frame (PFC, PAUSE, CNM, credit grant, CNP) is a minimum-size frame, FCS included. */
export const CONTROL_FRAME_BYTES: i32 = 64;
/** PFC_MODE: the port's flow control (pfc.ts). */
export const PFC_MODE_OFF: i32 = 0;
export const PFC_MODE_PFC: i32 = 1;
export const PFC_MODE_PAUSE: i32 = 2;
/** QCN_CP_QUANT: the congestion point's quantiser (qcn_cp.ts). */
export const QUANT_LINEAR: i32 = 0;
export const QUANT_MSB: i32 = 1;
/** QCN_RP_PROFILE: the reaction point's profile (qcn_rp.ts). */
export const RP_QAU_PC: i32 = 0;
export const RP_DCQCN: i32 = 1;
/** Flow-control mode of a priority at a simulator port (SP_MODES nibble). */
export const FC_LOSSY: i32 = 0;
export const FC_PFC: i32 = 1;
export const FC_PAUSE: i32 = 2;
export const FC_CREDIT: i32 = 3;
/** PFC watchdog action (SP_WD_ACTION; SONiC pfcwd). */
export const WD_DROP: i32 = 0;
export const WD_FORWARD: i32 = 1;
export const WD_ALERT: i32 = 2;
/** Kind of a simulator packet (SK_KIND bits 0..7). */
export const PKT_DATA: i32 = 0;
export const PKT_PFC: i32 = 1;
export const PKT_PAUSE: i32 = 2;
export const PKT_CNM: i32 = 3;
export const PKT_GRANT: i32 = 4;
export const PKT_CNP: i32 = 5;
/** RoCE transport acknowledgement and negative acknowledgement (go-back-N), 64-byte frames. */
export const PKT_ACK: i32 = 6;
export const PKT_NACK: i32 = 7;
/** Transport of a simulator flow (SF_TRANSPORT). */
export const TRANSPORT_NONE: i32 = 0;
export const TRANSPORT_ROCE: i32 = 1;
/** Gaps of a flow's arrival process (SF_GAPS). */
export const GAPS_CONSTANT: i32 = 0;
export const GAPS_POISSON: i32 = 1;

// ---------------------------------------------------------------------------------------------
// rng (assembly/rng.ts): one u32 word per entity, kept inside the entity's own record.
// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------
// qcn_cp (assembly/qcn_cp.ts)
// ---------------------------------------------------------------------------------------------

// 802.1Qau congestion point, profile qau-pc (docs/design.md §4.4). One record per CP queue.
export const QCN_CP_Q: i32 = 0;          // i32 queue occupancy, bytes
export const QCN_CP_Q_OLD: i32 = QCN_CP_Q + I32;             // i32 occupancy at the previous sample
export const QCN_CP_TTM: i32 = QCN_CP_Q_OLD + I32;           // i32 bytes to the next sample (fires when < 0)
export const QCN_CP_RNG: i32 = QCN_CP_TTM + I32;             // u32 xorshift32 state (never 0)
export const QCN_CP_Q_EQ: i32 = QCN_CP_RNG + I32;            // i32 set point Qeq, bytes
export const QCN_CP_W: i32 = QCN_CP_Q_EQ + I32;              // i32 weight w (integer >= 1)
export const QCN_CP_FB_MAX: i32 = QCN_CP_W + I32;            // i32 Qeq * (2w + 1)
export const QCN_CP_QUANT: i32 = QCN_CP_FB_MAX + I32;        // i32 quantiser: 0 linear, 1 msb
export const QCN_CP_MSB_SHIFT: i32 = QCN_CP_QUANT + I32;     // i32 bitlen(Fbmax) - 6, floored at 0 (msb quantiser)
export const QCN_CP_FB: i32 = QCN_CP_MSB_SHIFT + I32;        // i32 out: Fb of the last computed sample, in [-Fbmax, 0]
export const QCN_CP_QF: i32 = QCN_CP_FB + I32;               // i32 out: quantised |Fb|, 0..63
export const QCN_CP_Q_OFF: i32 = QCN_CP_QF + I32;            // i32 out: q - Qeq at the last CNM
export const QCN_CP_Q_DELTA: i32 = QCN_CP_Q_OFF + I32;       // i32 out: q - qOld at the last CNM
export const QCN_CP_SAMPLES: i32 = ((QCN_CP_Q_DELTA + I32) + 7) & ~7; // i64 counter: samples taken
export const QCN_CP_CNMS: i32 = QCN_CP_SAMPLES + I64;        // i64 counter: CNMs generated
export const QCN_CP_SIZE: i32 = QCN_CP_CNMS + I64;

// DCQCN congestion point (ECN marking, Zhu et al. 2015), profile dcqcn. One record per queue.
export const DCQCN_CP_Q: i32 = 0;        // i32 queue occupancy, bytes
export const DCQCN_CP_RNG: i32 = DCQCN_CP_Q + I32;           // u32 xorshift32 state
export const DCQCN_CP_KMIN: i32 = DCQCN_CP_RNG + I32;        // i32 bytes: no marking at or below
export const DCQCN_CP_KMAX: i32 = DCQCN_CP_KMIN + I32;       // i32 bytes: always mark above
export const DCQCN_CP_PMAX: i32 = DCQCN_CP_KMAX + I32;       // i32 marking probability at Kmax, Q16 (65536 = 1)
export const DCQCN_CP_P: i32 = DCQCN_CP_PMAX + I32;          // i32 out: probability used by the last enqueue, Q16
export const DCQCN_CP_MARKS: i32 = DCQCN_CP_P + I32;         // i64 counter: frames marked
export const DCQCN_CP_SIZE: i32 = DCQCN_CP_MARKS + I64;

// ---------------------------------------------------------------------------------------------
// qcn_rp (assembly/qcn_rp.ts)
// ---------------------------------------------------------------------------------------------

// 802.1Qau reaction point (profile qau-pc, docs/design.md §4.5) and the DCQCN RP (profile dcqcn) share
// one record; the dcqcn-only fields are ignored by qau-pc. One record per rate limiter.
export const QCN_RP_CR: i32 = 0;             // i64 current rate, bit/s
export const QCN_RP_TR: i32 = QCN_RP_CR + I64;               // i64 target rate, bit/s
export const QCN_RP_DEADLINE: i32 = QCN_RP_TR + I64;         // i64 ps: next rate-increase timer expiry
export const QCN_RP_LINE_BPS: i32 = QCN_RP_DEADLINE + I64;   // i64 C, line rate, bit/s
export const QCN_RP_AI_BPS: i32 = QCN_RP_LINE_BPS + I64;     // i64 R_AI, bit/s
export const QCN_RP_HAI_BPS: i32 = QCN_RP_AI_BPS + I64;      // i64 R_HAI, bit/s
export const QCN_RP_MIN_BPS: i32 = QCN_RP_HAI_BPS + I64;     // i64 min rate, bit/s
export const QCN_RP_TIMER_PS: i32 = QCN_RP_MIN_BPS + I64;    // i64 T, ps
export const QCN_RP_BC_LEFT: i32 = QCN_RP_TIMER_PS + I64;    // i32 bytes to the next byte-counter event (fires when < 0)
export const QCN_RP_BC_BYTES: i32 = QCN_RP_BC_LEFT + I32;    // i32 BC, bytes
export const QCN_RP_SI: i32 = QCN_RP_BC_BYTES + I32;            // i32 byte-counter stage
export const QCN_RP_TI: i32 = QCN_RP_SI + I32;               // i32 timer stage
export const QCN_RP_ACTIVE: i32 = QCN_RP_TI + I32;           // i32 1 while the rate limiter is engaged
export const QCN_RP_RNG: i32 = QCN_RP_ACTIVE + I32;          // u32 xorshift32 state
export const QCN_RP_TH: i32 = QCN_RP_RNG + I32;              // i32 fast-recovery threshold
export const QCN_RP_GD_SHIFT: i32 = QCN_RP_TH + I32;         // i32 qau-pc: Gd = 2^-gd_shift; dcqcn: cut = CR alpha >> gd_shift (alpha_bits + 1 = alpha/2)
export const QCN_RP_MIN_DEC_NUM: i32 = QCN_RP_GD_SHIFT + I32; // i32 qau-pc: min decrease factor numerator over 2^gd_shift
export const QCN_RP_FLAGS: i32 = QCN_RP_MIN_DEC_NUM + I32;   // i32 QCN_RP_F_* bits
export const QCN_RP_PROFILE: i32 = QCN_RP_FLAGS + I32;       // i32 0 qau-pc, 1 dcqcn
export const QCN_RP_ALPHA: i32 = QCN_RP_PROFILE + I32;       // i32 dcqcn: alpha, fixed point with alpha_bits fraction bits (2^alpha_bits = 1)
export const QCN_RP_ALPHA_DEADLINE: i32 = QCN_RP_ALPHA + I32; // i64 ps dcqcn: next alpha decay
export const QCN_RP_ALPHA_PS: i32 = QCN_RP_ALPHA_DEADLINE + I64; // i64 ps dcqcn: alpha decay period tau'
export const QCN_RP_G: i32 = QCN_RP_ALPHA_PS + I64;          // i32 dcqcn: EWMA gain g, same fixed point as alpha (1/256 = 2^(alpha_bits-8))
export const QCN_RP_ALPHA_INIT: i32 = QCN_RP_G + I32;        // i32 dcqcn: alpha when the rate limiter engages, same fixed point
export const QCN_RP_ALPHA_BITS: i32 = QCN_RP_ALPHA_INIT + I32; // i32 dcqcn: fraction bits of alpha and g, 10..24 (10: the NIC's Q10)
export const QCN_RP_MIN_DEC_PCT: i32 = QCN_RP_ALPHA_BITS + I32; // i32 dcqcn: a cut leaves at least this % of CR (0: no bound)
export const QCN_RP_FIRST_CNP_BPS: i32 = QCN_RP_MIN_DEC_PCT + I32; // i64 dcqcn: CR = TR = this on the CNP that engages the limiter (0: cut as usual)
export const QCN_RP_CUTS: i32 = QCN_RP_FIRST_CNP_BPS + I64;  // i64 counter: CNMs/CNPs that cut the rate
export const QCN_RP_BC_EVENTS: i32 = QCN_RP_CUTS + I64;      // i64 counter: byte-counter expiries
export const QCN_RP_TIMER_EVENTS: i32 = QCN_RP_BC_EVENTS + I64; // i64 counter: timer expiries
export const QCN_RP_SIZE: i32 = QCN_RP_TIMER_EVENTS + I64;

/** Flag bits in QCN_RP_FLAGS. */
export const QCN_RP_F_EXTRA_FR: i32 = 1;     // qau-pc: TR/8 after a deep cut
export const QCN_RP_F_JITTER: i32 = 2;       // qau-pc: jittered counter reloads
export const QCN_RP_F_HALVING: i32 = 4;      // qau-pc: halved counters from stage TH
export const QCN_RP_F_TR_HOLD: i32 = 8;      // dcqcn: a CNP sets TR = CR only after a byte-counter increase since the last cut
export const QCN_RP_F_TR_AFTER_TIMER: i32 = 16; // dcqcn, with TR_HOLD: ... or after a timer increase

// DCQCN notification point (the receiver's CNP generator): one record per flow.
export const DCQCN_NP_LAST_CNP: i32 = 0;     // i64 ps: time of the last CNP sent, -1 = none
export const DCQCN_NP_SPACING_PS: i32 = DCQCN_NP_LAST_CNP + I64; // i64 ps: minimum CNP spacing (50 us)
export const DCQCN_NP_SIZE: i32 = DCQCN_NP_SPACING_PS + I64;

// ---------------------------------------------------------------------------------------------
// pfc (assembly/pfc.ts)
// ---------------------------------------------------------------------------------------------

// 802.1Qbb PFC / 802.3x PAUSE, both sides of one port (docs/design.md §4.1). One record per port.
// Per-"unit" arrays have 9 entries: units 0..7 are the priorities, unit 8 is the whole port
// (the 802.3x PAUSE state, and the port's total ingress occupancy).
export const PFC_UNITS: i32 = 9;
export const PFC_PORT_UNIT: i32 = 8;
// Config fields first (host/core/kernels/pfc.ts writes them, pfcConfigure derives the rest and zeroes
// everything from PFC_CONFIG_END on): mode, enable mask, pause time, refresh override, port speed,
// and per unit the XOFF / XON thresholds and the headroom.
export const PFC_MODE: i32 = 0;            // i32 0 off, 1 pfc, 2 pause (802.3x)
export const PFC_ENABLE: i32 = PFC_MODE + I32;               // i32 bit n: priority n is PFC-enabled (lossless)
export const PFC_PAUSE_TIME: i32 = PFC_ENABLE + I32;         // i32 quanta carried by XOFF (default 0xFFFF)
export const PFC_REFRESH_QUANTA: i32 = PFC_PAUSE_TIME + I32; // i32 XOFF refresh interval in quanta, 0 = max(1, pause_time >> 1)
export const PFC_SPEED_BPS: i32 = PFC_REFRESH_QUANTA + I32;  // i64 port speed, bit/s (512e12 / speed a whole number of ps)
// i32 arrays, 9 entries + 1 pad (stride 40)
const PFC_I32_ROW: i32 = 4 * (PFC_UNITS + 1);
export const PFC_XOFF_TH: i32 = PFC_SPEED_BPS + I64;         // i32[9] XOFF threshold, bytes (i32.MAX: the unit never pauses)
export const PFC_XON_TH: i32 = PFC_XOFF_TH + PFC_I32_ROW;    // i32[9] XON threshold, bytes
export const PFC_HEADROOM: i32 = PFC_XON_TH + PFC_I32_ROW;   // i32[9] headroom above XOFF, bytes (limit = xoff + headroom)
export const PFC_CONFIG_END: i32 = PFC_HEADROOM + PFC_I32_ROW; // end of the config fields: pfcConfigure zeroes from here
// Derived and state fields.
export const PFC_XOFF_STATE: i32 = PFC_CONFIG_END;           // i32 bit u: unit u has sent XOFF and not yet XON
export const PFC_PENDING: i32 = PFC_XOFF_STATE + I32;        // i32 bit u: a PFC time (bits 0..7) / PAUSE (bit 8) awaits sending
export const PFC_QUANTUM_PS: i32 = ((PFC_PENDING + I32) + 7) & ~7; // i64 512 bit times at the port speed, ps
export const PFC_REFRESH_PS: i32 = PFC_QUANTUM_PS + I64;     // i64 XOFF refresh interval, ps
export const PFC_RX_IGNORED: i32 = PFC_REFRESH_PS + I64;     // i64 received pause entries not acted upon (wrong mode / priority)
export const PFC_OCC: i32 = PFC_RX_IGNORED + I64;            // i32[9] ingress occupancy, bytes (unit 8 = port total)
export const PFC_LIMIT: i32 = PFC_OCC + PFC_I32_ROW;  // i32[9] drop limit = xoff + headroom, bytes
export const PFC_TX_TIME: i32 = PFC_LIMIT + PFC_I32_ROW; // i32[9] time field of the pending frame, quanta
// i64 arrays, 9 entries (stride 72)
const PFC_I64_ROW: i32 = 8 * PFC_UNITS;
export const PFC_NEXT_REFRESH: i32 = PFC_TX_TIME + PFC_I32_ROW; // i64[9] ps of the next XOFF refresh (i64.MAX when none)
export const PFC_PAUSED_UNTIL: i32 = PFC_NEXT_REFRESH + PFC_I64_ROW; // i64[9] egress: blocked while now < pausedUntil
export const PFC_PAUSE_START: i32 = PFC_PAUSED_UNTIL + PFC_I64_ROW; // i64[9] egress: when the current pause interval began
export const PFC_PAUSED_PS: i32 = PFC_PAUSE_START + PFC_I64_ROW; // i64[9] egress: paused time of closed intervals, ps
export const PFC_XOFF_TX: i32 = PFC_PAUSED_PS + PFC_I64_ROW;     // i64[9] XOFF frames generated (incl. refreshes)
export const PFC_XON_TX: i32 = PFC_XOFF_TX + PFC_I64_ROW;        // i64[9] XON frames generated
export const PFC_XOFF_RX: i32 = PFC_XON_TX + PFC_I64_ROW;        // i64[9] XOFF (time > 0) entries obeyed
export const PFC_XON_RX: i32 = PFC_XOFF_RX + PFC_I64_ROW;        // i64[9] XON (time 0) entries obeyed
export const PFC_DROPS: i32 = PFC_XON_RX + PFC_I64_ROW;          // i64[9] frames dropped at ingress (by frame priority; unit 8 unused)
export const PFC_DROP_BYTES: i32 = PFC_DROPS + PFC_I64_ROW;      // i64[9] bytes dropped at ingress
// Derived per-packet views of mode, enable mask and XOFF state (one compare per test on the hot path)
export const PFC_UNIT_OF: i32 = PFC_DROP_BYTES + PFC_I64_ROW;       // u8[8] flow-control unit of priority n: n (PFC, off) or 8 (PAUSE)
export const PFC_XOFF_AT: i32 = PFC_UNIT_OF + 8 * U8;        // u32[9] occupancy that sends XOFF: xoff while the unit is flow-controlled and
                                           //   not in XOFF state, else 0xFFFFFFFF (never: occupancy <= limit <= i32.MAX)
export const PFC_XON_AT: i32 = PFC_XOFF_AT + PFC_I32_ROW; // i32[9] occupancy at or below which XON is sent: xon in XOFF state, else i32.MIN
// Egress blocked-priority mask cache: the mask holds for any time in [from, until) (until = the earliest running pause end)
export const PFC_BLOCKED_MASK: i32 = PFC_XON_AT + PFC_I32_ROW; // i32 blocked priorities (bit n)
export const PFC_BLOCKED_FROM: i32 = ((PFC_BLOCKED_MASK + I32) + 7) & ~7; // i64 ps
export const PFC_BLOCKED_UNTIL: i32 = PFC_BLOCKED_FROM + I64; // i64 ps (i64.MIN: invalid, recompute)
export const PFC_SIZE: i32 = PFC_BLOCKED_UNTIL + I64;

// ---------------------------------------------------------------------------------------------
// credit (assembly/credit.ts)
// ---------------------------------------------------------------------------------------------

// Credit-based link-level flow control with InfiniBand counters (docs/design.md §4.2). One record per
// (link direction, priority, channel): the sender half (TBS, FCCL, grant time) lives at the
// transmitting port, the receiver half (ABR, buffer) at the receiving one; only frames link them.
export const CREDIT_K: i32 = 0;             // i32 counter width k (counters are mod 2^k), 2..30
export const CREDIT_UNIT: i32 = CREDIT_K + I32;              // i32 credit unit U, bytes
export const CREDIT_CAPACITY: i32 = CREDIT_UNIT + I32;       // i32 receiver buffer for this flow, units
export const CREDIT_TBS: i32 = CREDIT_CAPACITY + I32;        // i32 sender: total blocks sent, mod 2^k
export const CREDIT_FCCL: i32 = CREDIT_TBS + I32;            // i32 sender: credit limit from the last grant, mod 2^k
export const CREDIT_ABR: i32 = CREDIT_FCCL + I32;            // i32 receiver: adjusted blocks received, mod 2^k
export const CREDIT_USED: i32 = CREDIT_ABR + I32;            // i32 receiver: buffer occupancy, units
export const CREDIT_LAST_CL: i32 = CREDIT_USED + I32;        // i32 receiver: limit carried by its last grant
export const CREDIT_AGING_PS: i32 = CREDIT_LAST_CL + I32;    // i64 credits expire this long after their grant (0 = never)
export const CREDIT_GRANT_AT: i32 = CREDIT_AGING_PS + I64;   // i64 sender: time FCCL was last set by a grant, ps
export const CREDIT_SENT_UNITS: i32 = CREDIT_GRANT_AT + I64; // i64 sender: units sent
export const CREDIT_BLOCKED: i32 = CREDIT_SENT_UNITS + I64;  // i64 sender: send attempts refused for lack of credit
export const CREDIT_EXPIRED_UNITS: i32 = CREDIT_BLOCKED + I64; // i64 sender: unused credit dropped by aging
export const CREDIT_GRANTS_RX: i32 = CREDIT_EXPIRED_UNITS + I64; // i64 sender: grants received
export const CREDIT_RECV_UNITS: i32 = CREDIT_GRANTS_RX + I64; // i64 receiver: units received into the buffer
export const CREDIT_OVERRUN_UNITS: i32 = CREDIT_RECV_UNITS + I64; // i64 receiver: units that found no room (dropped; must stay 0)
export const CREDIT_SYNCS_RX: i32 = CREDIT_OVERRUN_UNITS + I64; // i64 receiver: syncs received
export const CREDIT_SIZE: i32 = ((CREDIT_SYNCS_RX + I64) + 15) & ~15;

// ---------------------------------------------------------------------------------------------
// ets (assembly/ets.ts)
// ---------------------------------------------------------------------------------------------
// One 802.1Qaz transmission-selection record (128 bytes). Config bytes are written by the host,
// then etsConfigure derives the masks and quanta. TSA codes are the ETS TLV's: 0 strict, 1 CBS,
// 2 ETS, 255 vendor.
//
//    0  u8[8]  prio_tc        TC of priority 0..7
//    8  u8[8]  tsa            TSA per TC
//   16  u8[8]  bw             bandwidth % per TC (ETS TCs only)
//   24  i32    strict_mask    TCs served by strict priority (strict, CBS)
//   28  i32    weighted_mask  ETS TCs with bw > 0
//   32  i32    zero_mask      ETS TCs with bw == 0 (served only when no weighted TC can send)
//   36  i32    q_unit         Q = ceil(max wire frame / min non-zero bw), bytes per 1 %
//   40  i32    max_wire       max frame + 20 (preamble, SFD, IFG)
//   44  i32    cur            TC whose DRR visit is in progress (7 after configure: round starts at 0)
//   48  i32[8] quantum        bw * Q for weighted TCs, max_wire for 0 % TCs, 0 otherwise
//   80  i32[8] deficit        DRR deficit counter per TC, wire bytes
//  112  ...    reserved
export const ETS_PRIO_TC: i32 = 0;
export const ETS_TSA: i32 = ETS_PRIO_TC + 8 * U8;
export const ETS_BW: i32 = ETS_TSA + 8 * U8;
export const ETS_STRICT_MASK: i32 = ETS_BW + 8 * U8;
export const ETS_WEIGHTED_MASK: i32 = ETS_STRICT_MASK + I32;
export const ETS_ZERO_MASK: i32 = ETS_WEIGHTED_MASK + I32;
export const ETS_Q_UNIT: i32 = ETS_ZERO_MASK + I32;
export const ETS_MAX_WIRE: i32 = ETS_Q_UNIT + I32;
export const ETS_CUR: i32 = ETS_MAX_WIRE + I32;
export const ETS_QUANTUM: i32 = ETS_CUR + I32;
export const ETS_DEFICIT: i32 = ETS_QUANTUM + 8 * I32;
export const ETS_BYTES: i32 = ((ETS_DEFICIT + 8 * I32) + 63) & ~63; // 112..127 reserved
/** TSA codes (802.1Qaz ETS TLV / Linux IEEE_8021QAZ_TSA_*). */
export const TSA_STRICT: i32 = 0;
export const TSA_CBS: i32 = 1;
export const TSA_ETS: i32 = 2;
export const TSA_VENDOR: i32 = 255;

// ---------------------------------------------------------------------------------------------
// port (assembly/port.ts): rings and the per-port pipeline record
// ---------------------------------------------------------------------------------------------
// One egress port with 8 TCs (assembly/port.ts, docs/port.md). The port record embeds the ETS, PFC
// and QCN CP records of the port; queues and rings are separate static regions.
export const PORT_NOW: i32 = 0;            // i64 time of the last processed arrival, ps
export const PORT_TX_FREE: i32 = PORT_NOW + I64;             // i64 the link is busy until this time, ps
export const PORT_NEXT_REFRESH: i32 = PORT_TX_FREE + I64;    // i64 earliest PFC XOFF refresh deadline (may be stale-early)
export const PORT_PAUSE_EXPIRY: i32 = PORT_NEXT_REFRESH + I64; // i64 PORT_BLOCKED holds until this time (earliest running pause end)
export const PORT_PS_PER_BYTE: i32 = PORT_PAUSE_EXPIRY + I64; // i32 serialisation time of one byte, ps (80 at 100G)
export const PORT_BACKLOG: i32 = PORT_PS_PER_BYTE + I32;     // i32 bit t: TC t's queue is non-empty
export const PORT_BLOCKED: i32 = PORT_BACKLOG + I32;         // i32 bit t: TC t is blocked by a PFC pause
export const PORT_CP_MASK: i32 = PORT_BLOCKED + I32;         // i32 bit t: TC t has a QCN congestion point
export const PORT_GEN_RNG: i32 = PORT_CP_MASK + I32;         // u32 traffic generator xorshift32 state (entity id 8)
export const PORT_OUT_HEAD: i32 = PORT_GEN_RNG + I32;        // i32 next write index of the control-event ring (wraps)
export const PORT_PRIO_TC: i32 = PORT_OUT_HEAD + I32;        // i32 prio_tc packed 3 bits per priority (priority n at bit 3n)
export const PORT_RX_FRAMES: i32 = ((PORT_PRIO_TC + I32) + 7) & ~7; // i64 data frames arrived
export const PORT_TX_FRAMES: i32 = PORT_RX_FRAMES + I64;     // i64 frames transmitted
export const PORT_TX_BYTES: i32 = PORT_TX_FRAMES + I64;      // i64 frame bytes transmitted
export const PORT_QUEUE_DROPS: i32 = PORT_TX_BYTES + I64;   // i64 frames dropped because their TC's FIFO was full
export const PORT_PFC_RX: i32 = PORT_QUEUE_DROPS + I64;      // i64 PFC frames received
export const PORT_EVENTS_OUT: i32 = PORT_PFC_RX + I64;       // i64 control events written (PFC frames, CNMs)
export const PORT_Q_HEAD: i32 = PORT_EVENTS_OUT + I64;       // i32[8] FIFO read index per TC
export const PORT_Q_COUNT: i32 = PORT_Q_HEAD + 8 * I32;      // i32[8] frames queued per TC
export const PORT_HEAD_WIRE: i32 = PORT_Q_COUNT + 8 * I32;   // i32[8] wire bytes of each TC's head frame (0 when empty)
export const PORT_TC_TX_BYTES: i32 = PORT_HEAD_WIRE + 8 * I32; // i64[8] frame bytes transmitted per TC
export const PORT_ETS: i32 = PORT_TC_TX_BYTES + 8 * I64;          // ETS record (ETS_BYTES)
export const PORT_PFC: i32 = PORT_ETS + ETS_BYTES;           // PFC record (PFC_SIZE)
export const PORT_CP: i32 = PORT_PFC + PFC_SIZE;             // 8 QCN CP records (QCN_CP_SIZE each), one per TC
export const PORT_BYTES: i32 = ((PORT_CP + 8 * QCN_CP_SIZE) + 15) & ~15;
/** FIFO storage: per TC QUEUE_CAP u32 entries (bytes | prio << 16 | src << 19). */
export const QUEUE_CAP: i32 = 2048;
/** Arrival ring: IN_CAP entries of 8 bytes (word0 frame or control, word1 gap before it in ps). */
export const IN_CAP: i32 = 4096;
/** Control-event ring: OUT_CAP entries of 16 bytes (i32 kind word, i32 arg, i64 time ps). */
export const OUT_CAP: i32 = 1024;

// ---------------------------------------------------------------------------------------------
// Compile-time guards (a failed one stops the build with its message).
// ---------------------------------------------------------------------------------------------
// Record sizes: the last field ends within the record; sizes keep their alignment.
if (QCN_CP_CNMS + I64 > QCN_CP_SIZE || QCN_CP_SIZE % 8 != 0) ERROR('layout: QCN CP record');
if (DCQCN_CP_MARKS + I64 > DCQCN_CP_SIZE || DCQCN_CP_SIZE % 8 != 0) ERROR('layout: DCQCN CP record');
if (QCN_RP_TIMER_EVENTS + I64 > QCN_RP_SIZE || QCN_RP_SIZE % 16 != 0) ERROR('layout: QCN RP record');
if (DCQCN_NP_SPACING_PS + I64 > DCQCN_NP_SIZE) ERROR('layout: DCQCN NP record');
if (PFC_BLOCKED_UNTIL + I64 > PFC_SIZE || PFC_SIZE % 8 != 0) ERROR('layout: PFC record');
if (CREDIT_SYNCS_RX + I64 > CREDIT_SIZE || CREDIT_SIZE % 16 != 0) ERROR('layout: credit record');
if (ETS_DEFICIT + 8 * I32 > ETS_BYTES || ETS_BYTES % 64 != 0) ERROR('layout: ETS record');
// i64 fields are 8-byte aligned (a misaligned i64 load is slow and breaks the host's BigInt64Array views).
if (QCN_CP_SAMPLES % 8 != 0 || QCN_RP_ALPHA_DEADLINE % 8 != 0 || QCN_RP_FIRST_CNP_BPS % 8 != 0 || QCN_RP_CUTS % 8 != 0) ERROR('layout: QCN i64 alignment');
if (PFC_SPEED_BPS % 8 != 0 || PFC_QUANTUM_PS % 8 != 0 || PFC_NEXT_REFRESH % 8 != 0 || PFC_BLOCKED_FROM % 8 != 0) ERROR('layout: PFC i64 alignment');
if (CREDIT_AGING_PS % 8 != 0 || PORT_RX_FRAMES % 8 != 0 || PORT_TC_TX_BYTES % 8 != 0) ERROR('layout: i64 alignment');
// Embedded records: each starts where the previous part ends (no overlap) and the container holds it.
if (PORT_ETS < PORT_TC_TX_BYTES + 8 * I64 || PORT_PFC < PORT_ETS + ETS_BYTES || PORT_CP < PORT_PFC + PFC_SIZE) ERROR('layout: port records overlap');
if (PORT_CP + 8 * QCN_CP_SIZE > PORT_BYTES) ERROR('layout: port record too small');
