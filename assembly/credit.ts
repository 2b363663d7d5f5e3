// Credit-based link-level flow control for lossless Ethernet priorities (IBM CE proposal, Kamble et al. 2014)
// with the InfiniBand link-layer counting rules (IBA Vol. 1 §7.9), as pinned in docs/design.md §4.2.
//
// Per (priority, channel), counters are absolute and cumulative modulo 2^k (default k = 16), in
// credit units of U bytes (default 64 = 512 bits); a frame of n bytes needs b = ceil(n / U) units.
//   sender   TBS  total blocks sent;  FCCL the limit of the last grant (and when it came)
//   receiver ABR  adjusted blocks received;  buffer capacity and occupancy in units
// Grant (receiver -> sender): CL = (ABR + min(free units, 2^(k-1))) mod 2^k; the sender sets FCCL := CL.
// Send test: b units may go iff b <= available, where available = (FCCL - TBS) mod 2^k when that
// is <= 2^(k-1), else 0 (a limit behind TBS, from a stale or corrupted grant, grants nothing); then TBS += b.
// Sync (sender -> receiver, after the data it counts): carries TBS; the receiver sets ABR := TBS.
// Aging: a grant older than the aging time is void; the sender drops the unused credit (FCCL := TBS).
//
// Why nothing is lost for good: the values exchanged are absolute, so a lost grant is superseded
// by the next one, and a lost data frame is counted into ABR by the next sync, which raises the next
// CL by exactly its units. Why the receiver never overruns: CL never exceeds ABR + free, and every
// unit sent after ABR either arrives into that free space or is lost.
//
// State: layout.ts CREDIT_* (one record per link direction, priority and channel; the sender half
// and the receiver half touch disjoint fields). Invariants: counters in [0, 2^k); 0 <= used <= capacity.
// The test compares b with the usable credit itself rather than the residue of TBS + b: a residue
// test lets a frame through with no credit when FCCL lies behind TBS (a stale or corrupted grant),
// and refuses a frame of exactly 2^(k-1) units even with full credit.
import {
  CREDIT_K, CREDIT_UNIT, CREDIT_CAPACITY, CREDIT_TBS, CREDIT_FCCL, CREDIT_ABR, CREDIT_USED,
  CREDIT_LAST_CL, CREDIT_AGING_PS, CREDIT_GRANT_AT, CREDIT_SENT_UNITS, CREDIT_BLOCKED,
  CREDIT_EXPIRED_UNITS, CREDIT_GRANTS_RX, CREDIT_RECV_UNITS, CREDIT_OVERRUN_UNITS, CREDIT_SYNCS_RX,
  CREDIT_SIZE,
} from './layout';

@inline function bump(addr: usize, by: i64): void {
  store<i64>(addr, load<i64>(addr) + by);
}

@inline function counterMask(rec: usize): i32 {
  return (1 << load<i32>(rec + CREDIT_K)) - 1;
}

/** Units needed for `bytes`: ceil(bytes / U). */
@inline
export function creditUnits(rec: usize, bytes: i32): i32 {
  const u = load<i32>(rec + CREDIT_UNIT);
  return (bytes + u - 1) / u;
}

/**
 * Configure protocol (host/core/kernels/credit.ts writes the config fields: counter width k, unit U in
 * bytes, receiver buffer in units, aging in ps, 0 = none): resets both halves, counters at 0 and no
 * grant yet (the sender has no credit until its first grant).
 */
export function creditConfigure(rec: usize): void {
  memory.fill(rec + <usize>CREDIT_TBS, 0, <usize>(CREDIT_AGING_PS - CREDIT_TBS));
  memory.fill(rec + <usize>CREDIT_GRANT_AT, 0, <usize>(CREDIT_SIZE - CREDIT_GRANT_AT));
}

// ---------------------------------------------------------------------------------------------
// Sender half
// ---------------------------------------------------------------------------------------------

/** Credit inside the grant, ignoring aging: (FCCL - TBS) mod 2^k when <= 2^(k-1), else 0 (FCCL behind TBS). */
@inline function creditGranted(rec: usize): i32 {
  const unused = (load<i32>(rec + CREDIT_FCCL) - load<i32>(rec + CREDIT_TBS)) & counterMask(rec);
  return unused <= (1 << (load<i32>(rec + CREDIT_K) - 1)) ? unused : 0;
}

/** Drops unused credit whose grant is older than the aging time; returns the units dropped. */
@inline
export function creditAge(rec: usize, now: i64): i32 {
  const aging = load<i64>(rec + CREDIT_AGING_PS);
  const tbs = load<i32>(rec + CREDIT_TBS);
  if (aging == 0 || load<i32>(rec + CREDIT_FCCL) == tbs || now - load<i64>(rec + CREDIT_GRANT_AT) < aging) return 0;
  const dropped = creditGranted(rec);
  store<i32>(rec + CREDIT_FCCL, tbs);
  bump(rec + CREDIT_EXPIRED_UNITS, <i64>dropped);
  return dropped;
}

/**
 * The sender wants to start a frame of `bytes` at `now`. Returns the units it consumed (> 0) if
 * b <= available and TBS advanced, 0 if it must wait (counted in CREDIT_BLOCKED).
 */
@inline
export function creditTrySend(rec: usize, bytes: i32, now: i64): i32 {
  creditAge(rec, now);
  const b = creditUnits(rec, bytes);
  if (b > creditGranted(rec)) {
    bump(rec + CREDIT_BLOCKED, 1);
    return 0;
  }
  store<i32>(rec + CREDIT_TBS, (load<i32>(rec + CREDIT_TBS) + b) & counterMask(rec));
  bump(rec + CREDIT_SENT_UNITS, <i64>b);
  return b;
}

/** A grant with limit `cl` reaches the sender at `now`: FCCL := cl (absolute, replaces). */
export function creditOnGrant(rec: usize, cl: i32, now: i64): void {
  store<i32>(rec + CREDIT_FCCL, cl & counterMask(rec));
  store<i64>(rec + CREDIT_GRANT_AT, now);
  bump(rec + CREDIT_GRANTS_RX, 1);
}

/** The value a sync/request frame carries: the sender's TBS. */
export function creditSyncValue(rec: usize): i32 {
  return load<i32>(rec + CREDIT_TBS);
}

/** Credit the sender may still use at `now` (units; 0 when FCCL is behind TBS or the grant has aged). */
export function creditAvailable(rec: usize, now: i64): i32 {
  const aging = load<i64>(rec + CREDIT_AGING_PS);
  if (aging != 0 && now - load<i64>(rec + CREDIT_GRANT_AT) >= aging) return 0;
  return creditGranted(rec);
}

// ---------------------------------------------------------------------------------------------
// Receiver half
// ---------------------------------------------------------------------------------------------

/**
 * A data frame of `bytes` arrives. ABR counts it; it takes buffer space if there is room, else it
 * is dropped and counted as overrun (never happens while the sender obeys the credit test).
 * Returns 1 if stored, 0 if overrun.
 */
@inline
export function creditReceive(rec: usize, bytes: i32): i32 {
  const b = creditUnits(rec, bytes);
  store<i32>(rec + CREDIT_ABR, (load<i32>(rec + CREDIT_ABR) + b) & counterMask(rec));
  const used = load<i32>(rec + CREDIT_USED) + b;
  if (used > load<i32>(rec + CREDIT_CAPACITY)) {
    bump(rec + CREDIT_OVERRUN_UNITS, <i64>b);
    return 0;
  }
  store<i32>(rec + CREDIT_USED, used);
  bump(rec + CREDIT_RECV_UNITS, <i64>b);
  return 1;
}

/** A stored frame of `bytes` leaves the receiver's buffer (frees ceil(bytes / U) units). */
@inline
export function creditDrain(rec: usize, bytes: i32): void {
  store<i32>(rec + CREDIT_USED, load<i32>(rec + CREDIT_USED) - creditUnits(rec, bytes));
}

/** The limit the receiver grants now: CL = (ABR + min(free, 2^(k-1))) mod 2^k (also kept in CREDIT_LAST_CL). */
export function creditGrantValue(rec: usize): i32 {
  const free = load<i32>(rec + CREDIT_CAPACITY) - load<i32>(rec + CREDIT_USED);
  const half = 1 << (load<i32>(rec + CREDIT_K) - 1);
  const cl = (load<i32>(rec + CREDIT_ABR) + (free < half ? free : half)) & counterMask(rec);
  store<i32>(rec + CREDIT_LAST_CL, cl);
  return cl;
}

/** A sync carrying the sender's TBS arrives: ABR := tbs (heals lost data frames). */
export function creditOnSync(rec: usize, tbs: i32): void {
  store<i32>(rec + CREDIT_ABR, tbs & counterMask(rec));
  bump(rec + CREDIT_SYNCS_RX, 1);
}

// ---------------------------------------------------------------------------------------------
// Host entry points for the per-packet functions
// ---------------------------------------------------------------------------------------------

/** Host entry of creditTrySend (vectors, tests): units consumed, 0 when the sender is blocked. */
export function creditTrySendOne(rec: usize, bytes: i32, now: i64): i32 {
  return creditTrySend(rec, bytes, now);
}

/** Host entry of creditReceive: the receiver takes a frame into its buffer; 0 on overrun. */
export function creditReceiveOne(rec: usize, bytes: i32): i32 {
  return creditReceive(rec, bytes);
}

/** Host entry of creditDrain: bytes leave the receiver's buffer. */
export function creditDrainOne(rec: usize, bytes: i32): void {
  creditDrain(rec, bytes);
}

/** Host entry of creditAge: drops credit older than the aging time; returns the units dropped. */
export function creditAgeOne(rec: usize, now: i64): i32 {
  return creditAge(rec, now);
}
