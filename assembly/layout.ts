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

// ---------------------------------------------------------------------------------------------
// credit (assembly/credit.ts)
// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------
// ets (assembly/ets.ts)
// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------
// port (assembly/port.ts): rings and the per-port pipeline record
// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------
// sim (assembly/sim/): the simulator arena
// ---------------------------------------------------------------------------------------------
