// Entry point of build/core.wasm: re-exports the memory map and every kernel's exported functions.
// Kernels stay plain functions over record addresses so that the simulator engine, compiled into the
// same module, calls them directly; only batch drivers and test helpers are exported to the host.
export * from './layout';
export * from './sim/layout';
export { rngSeed as rng_seed_value } from './rng';
export { etsConfigure, etsSelectOne, etsEmptiedOne } from './ets';
export { etsBenchSetup, etsBenchRun } from './bench/ets';
export {
  pfcConfigure, pfcNextRefresh,
  pfcRefreshDue, pfcReceivePfc, pfcReceivePause, pfcPausedPs, pfcArriveOne, pfcDepartOne, pfcTakePendingOne,
  pfcBlockedMaskOne, pfcBlockedTcsOne,
} from './pfc';
export { pfcBenchRunItems, pfcBenchSetup, pfcBenchRun, pfcBenchRunAccounting } from './bench/pfc';
export { simRunUntil, simBatchEnd, simEventsRun } from './sim/engine';
export { simInit, simReserve, simFreePackets, simPermutePool, simSetup, simAttach } from './sim/setup';
export { simStartPartition, simRunWindow, simWindowMin, simDrain } from './sim/partition';
export { etsMeterSample } from './sim/ets_meter';
export { evSelfTest } from './sim/events';
export {
  creditConfigure, creditOnGrant, creditSyncValue, creditAvailable, creditGrantValue, creditOnSync, creditTrySendOne,
  creditReceiveOne, creditDrainOne, creditAgeOne,
} from './credit';
export { creditBenchSetup, creditBenchRun } from './bench/credit';
export * from './qcn_exports';
export { qcnCpBenchRunItems, qcnCpBenchSetup, qcnCpBenchRun } from './bench/qcn';
export {
  PORT, QUEUES, IN_RING, OUT_RING, portInit, portGenerate, portProcess, portRun, portChecksum, portBenchSetup, portRefreshBlocked,
} from './port';
