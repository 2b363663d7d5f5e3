// The memory map of the core: the one module that says where every table lives (DESIGN.md §3).
//
// Each kernel file defines its own record layout (field offsets and record size) at its top; this
// module re-exports those constants so that the host reads them from the Wasm exports
// (`exports.QCN_RP_CR.value`, ...) and builds zero-copy views without a second copy of the layout.
// Static scratch records used by the vectors command and the benchmarks are placed here with
// memory.data, so their addresses are compile-time constants that Binaryen folds into loads.
//
// Invariant: nothing allocates after init; memory.buffer never grows during a run.

/** Size of one scratch record region handed to the host for single-entity work (vectors). */
export const SCRATCH_BYTES: i32 = 64 * 1024;
/** A zeroed 64 KiB static region, 16-byte aligned: the host puts one entity's record here. */
export const SCRATCH: usize = memory.data(SCRATCH_BYTES, 16);

/** Address of the scratch region, for hosts that cannot read exported globals of type usize. */
export function scratchPtr(): i32 {
  return <i32>SCRATCH;
}
