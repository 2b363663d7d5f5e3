// IEEE 802.1Qbb / IEEE 802.3 Annex 31D priority-based flow control frame (MAC Control opcode 0x0101).
//
// Parameters (offset from the start of the frame):
//   16  priority_enable_vector, u16: upper octet reserved 0; bit n = e[n]
//   18+2n time[n], u16 pause quanta (512 bit times), n = 0..7; 0 = XON; ignored where e[n] = 0
//   34  26 zero octets of pad
// `time` keeps all eight values, including those of disabled priorities, so decode -> encode is
// lossless.
import { InputError } from '../errors/errors.js';
import { Reader } from './bytes.js';
import { MAC_CONTROL_DA, OPCODE_PFC, PARAMS, finishMacControl, listToBits, openMacControl, readEnableVector, startMacControl } from './macctrl.js';
import { parseMac } from './bytes.js';

export interface PfcFrame {
  kind: 'pfc';
  dst: string;
  src: string;
  /** Priorities with e[n] = 1, ascending. */
  enable: number[];
  /** time[0..7] in pause quanta. */
  time: number[];
}

export function checkPriorityList(list: readonly number[], path: string): void {
  const seen = new Set<number>();
  for (const p of list) {
    if (!Number.isInteger(p) || p < 0 || p > 7) throw new InputError({ path, rule: `priority ${p} is not an integer 0..7` });
    if (seen.has(p)) throw new InputError({ path, rule: `priority ${p} is listed twice` });
    seen.add(p);
  }
}

export function checkU16(v: number, path: string): void {
  if (!Number.isInteger(v) || v < 0 || v > 0xffff) throw new InputError({ path, rule: `${v} is not an integer 0..65535` });
}

export function encodePfc(f: PfcFrame): Uint8Array {
  checkPriorityList(f.enable, 'enable');
  if (f.time.length !== 8) throw new InputError({ path: 'time', rule: 'needs 8 values (priorities 0..7)' });
  f.time.forEach((t, n) => checkU16(t, `time[${n}]`));
  const w = startMacControl(parseMac(f.dst, 'dst'), parseMac(f.src, 'src'), OPCODE_PFC);
  w.u16(listToBits(f.enable));
  for (const t of f.time) w.u16(t);
  return finishMacControl(w);
}

export function decodePfc(bytes: Uint8Array): PfcFrame {
  const { r, dst, src } = openMacControl(bytes, OPCODE_PFC, 'PFC');
  const enable = readEnableVector(r, PARAMS);
  const time = readTimes(r, PARAMS + 2);
  r.zeros(PARAMS + 18, bytes.length, 'PFC pad');
  return { kind: 'pfc', dst, src, enable, time };
}

export function readTimes(r: Reader, offset: number): number[] {
  return Array.from({ length: 8 }, (_, n) => r.u16(offset + 2 * n, `value of priority ${n}`));
}

/** A PFC frame to the reserved address from a `prio:quanta` map (the `frames pfc --pause` form). */
export function pfcFrame(src: string, pause: ReadonlyMap<number, number>): PfcFrame {
  const time = new Array<number>(8).fill(0);
  for (const [p, t] of pause) time[p] = t;
  return { kind: 'pfc', dst: '01:80:c2:00:00:01', src, enable: [...pause.keys()].sort((a, b) => a - b), time };
}

export const PFC_DEFAULT_DST = MAC_CONTROL_DA;
