// The memory map of the core: the one module that says where every table lives (DESIGN.md §3).
//
// Every kernel's state is a flat record at an address the caller passes (`rec: usize`). The field
// offsets and record sizes of all kernels are defined here, one section per kernel, and exported
// as immutable globals, so the host reads them from the Wasm exports (`exports.QCN_RP_CR.value`)
// and builds zero-copy views without a second copy of the layout. The simulator lays out arrays of
// these records in its arena; the vectors command and the benchmarks use the static scratch region.
//
// Conventions: i64 fields 8-byte aligned, record sizes multiples of 8 (16 where SIMD may scan).
// Invariant: nothing allocates after init; memory.buffer never grows during a run.

/** Size of the static scratch region handed to the host for single-entity work (vectors, tests). */
export const SCRATCH_BYTES: i32 = 64 * 1024;
/** A zeroed 64 KiB static region, 16-byte aligned. */
export const SCRATCH: usize = memory.data(SCRATCH_BYTES, 16);

/** Address of the scratch region as an i32 (hosts read exported globals too; this is for symmetry). */
export function scratchPtr(): i32 {
  return <i32>SCRATCH;
}

// ---------------------------------------------------------------------------------------------
// rng (assembly/rng.ts): one u32 word per entity, kept inside the entity's own record.
// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------
// qcn_cp (assembly/qcn_cp.ts)
// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------
// qcn_rp (assembly/qcn_rp.ts)
// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------
// pfc (assembly/pfc.ts)
// ---------------------------------------------------------------------------------------------

// 802.1Qbb PFC / 802.3x PAUSE, both sides of one port (DESIGN.md §4.1). One record per port.
// Per-"unit" arrays have 9 entries: units 0..7 are the priorities, unit 8 is the whole port
// (the 802.3x PAUSE state, and the port's total ingress occupancy).
export const PFC_UNITS: i32 = 9;
export const PFC_PORT_UNIT: i32 = 8;
export const PFC_MODE: i32 = 0;            // i32 0 off, 1 pfc, 2 pause (802.3x)
export const PFC_ENABLE: i32 = 4;          // i32 bit n: priority n is PFC-enabled (lossless)
export const PFC_PAUSE_TIME: i32 = 8;      // i32 quanta carried by XOFF (default 0xFFFF)
export const PFC_XOFF_STATE: i32 = 12;     // i32 bit u: unit u has sent XOFF and not yet XON
export const PFC_PENDING: i32 = 16;        // i32 bit u: a PFC time (bits 0..7) / PAUSE (bit 8) awaits sending
export const PFC_QUANTUM_PS: i32 = 24;     // i64 512 bit times at the port speed, ps
export const PFC_REFRESH_PS: i32 = 32;     // i64 XOFF refresh interval, ps (pause_time/2 quanta)
export const PFC_RX_IGNORED: i32 = 40;     // i64 received pause entries not acted upon (wrong mode / priority)
// i32 arrays, 9 entries + 1 pad (stride 40)
export const PFC_OCC: i32 = 48;            // i32[9] ingress occupancy, bytes (unit 8 = port total)
export const PFC_XOFF_TH: i32 = 88;        // i32[9] XOFF threshold, bytes
export const PFC_XON_TH: i32 = 128;        // i32[9] XON threshold, bytes
export const PFC_LIMIT: i32 = 168;         // i32[9] drop limit = xoff + headroom, bytes
export const PFC_TX_TIME: i32 = 208;       // i32[9] time field of the pending frame, quanta
// i64 arrays, 9 entries (stride 72)
export const PFC_NEXT_REFRESH: i32 = 248;  // i64[9] ps of the next XOFF refresh (i64.MAX when none)
export const PFC_PAUSED_UNTIL: i32 = 320;  // i64[9] egress: blocked while now < pausedUntil
export const PFC_PAUSE_START: i32 = 392;   // i64[9] egress: when the current pause interval began
export const PFC_PAUSED_PS: i32 = 464;     // i64[9] egress: paused time of closed intervals, ps
export const PFC_XOFF_TX: i32 = 536;       // i64[9] XOFF frames generated (incl. refreshes)
export const PFC_XON_TX: i32 = 608;        // i64[9] XON frames generated
export const PFC_XOFF_RX: i32 = 680;       // i64[9] XOFF (time > 0) entries obeyed
export const PFC_XON_RX: i32 = 752;        // i64[9] XON (time 0) entries obeyed
export const PFC_DROPS: i32 = 824;         // i64[9] frames dropped at ingress (by frame priority; unit 8 unused)
export const PFC_DROP_BYTES: i32 = 896;    // i64[9] bytes dropped at ingress
export const PFC_SIZE: i32 = 976;

// ---------------------------------------------------------------------------------------------
// credit (assembly/credit.ts)
// ---------------------------------------------------------------------------------------------

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
export const ETS_TSA: i32 = 8;
export const ETS_BW: i32 = 16;
export const ETS_STRICT_MASK: i32 = 24;
export const ETS_WEIGHTED_MASK: i32 = 28;
export const ETS_ZERO_MASK: i32 = 32;
export const ETS_Q_UNIT: i32 = 36;
export const ETS_MAX_WIRE: i32 = 40;
export const ETS_CUR: i32 = 44;
export const ETS_QUANTUM: i32 = 48;
export const ETS_DEFICIT: i32 = 80;
export const ETS_BYTES: i32 = 128;
/** TSA codes (802.1Qaz ETS TLV / Linux IEEE_8021QAZ_TSA_*). */
export const TSA_STRICT: i32 = 0;
export const TSA_CBS: i32 = 1;
export const TSA_ETS: i32 = 2;
export const TSA_VENDOR: i32 = 255;

// ---------------------------------------------------------------------------------------------
// port (assembly/port.ts): rings and the per-port pipeline record
// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------
// sim (assembly/sim/): the simulator arena
// ---------------------------------------------------------------------------------------------
