// The codes of assembly/layout.ts ("Shared codes") for host code that runs without a core instance:
// config parsing, DCBX, codegen, the simulator's table writer. One TypeScript copy, checked against
// the core's exports by test/core/codes.test.ts, so the host never drifts from the core.

/** 802.1Qaz TSA names and codes (ETS TLVs, the core's ETS record: TSA_STRICT, TSA_CBS, TSA_ETS, TSA_VENDOR). */
export const TSA_NAMES = ['strict', 'cbs', 'ets', 'vendor'] as const;
export type TsaName = (typeof TSA_NAMES)[number];
export const TSA_CODE: Record<TsaName, number> = { strict: 0, cbs: 1, ets: 2, vendor: 255 };
/** The TSA name of a code, or undefined for a code 802.1Qaz reserves. */
export function tsaNameOf(code: number): TsaName | undefined {
  return TSA_NAMES.find((n) => TSA_CODE[n] === code);
}

/** Preamble + SFD (8) + minimum inter-frame gap (12): wire bytes beyond a frame (WIRE_OVERHEAD). */
export const WIRE_OVERHEAD = 20;
/** Bytes of every control frame, FCS included (CONTROL_FRAME_BYTES). */
export const CONTROL_FRAME_BYTES = 64;

/** Flow-control mode of a priority at a simulator port (FC_LOSSY, FC_PFC, FC_PAUSE, FC_CREDIT). */
export const FC_CODE = { lossy: 0, pfc: 1, pause: 2, credit: 3 } as const;
/** PFC watchdog action (WD_DROP, WD_FORWARD, WD_ALERT). */
export const WD_ACTION_CODE = { drop: 0, forward: 1, alert: 2 } as const;

/** PFC kernel mode (PFC_MODE_OFF, PFC_MODE_PFC, PFC_MODE_PAUSE). */
export type PfcMode = 'off' | 'pfc' | 'pause';
export const PFC_MODE_CODE: Record<PfcMode, number> = { off: 0, pfc: 1, pause: 2 };
/** The PFC record's whole-port unit (802.3x PAUSE state, the port's total occupancy). */
export const PFC_PORT_UNIT = 8;
/** QCN congestion point's Fb quantiser (QUANT_LINEAR, QUANT_MSB). */
export type QcnQuantiser = 'linear' | 'msb';
export const QUANT_CODE: Record<QcnQuantiser, number> = { linear: 0, msb: 1 };

/** Every code above by the name of its core export (for the consistency test). */
export const CORE_CODES: Record<string, number> = {
  TSA_STRICT: TSA_CODE.strict, TSA_CBS: TSA_CODE.cbs, TSA_ETS: TSA_CODE.ets, TSA_VENDOR: TSA_CODE.vendor,
  WIRE_OVERHEAD, CONTROL_FRAME_BYTES,
  FC_LOSSY: FC_CODE.lossy, FC_PFC: FC_CODE.pfc, FC_PAUSE: FC_CODE.pause, FC_CREDIT: FC_CODE.credit,
  WD_DROP: WD_ACTION_CODE.drop, WD_FORWARD: WD_ACTION_CODE.forward, WD_ALERT: WD_ACTION_CODE.alert,
  PFC_MODE_OFF: PFC_MODE_CODE.off, PFC_MODE_PFC: PFC_MODE_CODE.pfc, PFC_MODE_PAUSE: PFC_MODE_CODE.pause,
  QUANT_LINEAR: QUANT_CODE.linear, QUANT_MSB: QUANT_CODE.msb, PFC_PORT_UNIT,
};
