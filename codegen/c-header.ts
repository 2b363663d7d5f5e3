// SmartNIC register-map target: dcb_regs.h, a C header in the style of Linux mlxsw reg.h (one
// item macro per field: byte offset, bit shift, bit width, with inline get/set), and
// dcb_regs.bin, the image of the register values a driver writes (little-endian 32-bit words).
//
// Image layout (offsets in bytes; every block is a whole number of 32-bit words):
//   0x000 HDR    magic "DCBR", version, port count, image length, CRC-32 (IEEE 802.3, as zlib)
//                over the image with the crc field zero
//   0x010 GLB    MTU, cell size, PFC enable/cap/MBC/willing, pause time, watchdog
//   0x030 PRIO   8 x 4 B: TC, PG, PFC enable per priority 0..7
//   0x050 TC     8 x 16 B: TSA, DWRR weight %, queue, PG, DWRR quantum in 64-B credits, ECN, QCN
//   0x0D0 DSCP   8 x 4 B: TC per DSCP, eight 4-bit fields a word (DSCP 8i+j at bits 4j..4j+3)
//   0x0F0 PORT   n x 144 B: index, speed, cable, then 8 x 16 B per-PG thresholds in cells
// The quantum is held in 64-byte credits (as Intel 82599 DCB refill credits), rounded up, so each
// credit quantum is >= the byte quantum; the rounding is reported. Thresholds are whole cells.
import { crc32 } from 'node:zlib';
import type { Ir, Quantisation } from './ir.js';
import { irProblemsFor } from './ir.js';
import type { CodegenTarget, Emitted } from './target.js';
import { problem } from './target.js';
import type { Problem } from '../host/errors/errors.js';

export const CREDIT_BYTES = 64;
export const MAGIC = 0x52424344; // "DCBR" read as little-endian bytes 44 43 42 52
export const VERSION = 1;

export interface Field {
  name: string;
  offset: number; // byte offset of the 32-bit word within its block (instance)
  shift: number;
  width: number;
  doc: string;
}

export interface Block {
  name: string;
  base: number;
  stride: number;
  /** Instances: fixed count, or 'ports' for one per device port. */
  count: number | 'ports';
  fields: Field[];
  doc: string;
}

const f = (name: string, offset: number, shift: number, width: number, doc: string): Field => ({ name, offset, shift, width, doc });

export const BLOCKS: Block[] = [
  {
    name: 'hdr', base: 0x000, stride: 16, count: 1, doc: 'Image header',
    fields: [
      f('magic', 0x0, 0, 32, 'Magic 0x52424344 ("DCBR" in memory order)'),
      f('version', 0x4, 0, 16, 'Layout version'),
      f('num_ports', 0x4, 16, 16, 'Number of PORT blocks'),
      f('length', 0x8, 0, 32, 'Image length in bytes'),
      f('crc32', 0xc, 0, 32, 'CRC-32 of the image with this field zero'),
    ],
  },
  {
    name: 'glb', base: 0x010, stride: 32, count: 1, doc: 'Global DCB settings',
    fields: [
      f('mtu', 0x0, 0, 16, 'Maximum frame size in bytes'),
      f('cell_bytes', 0x0, 16, 16, 'Buffer cell size in bytes (threshold unit)'),
      f('pfc_enable', 0x4, 0, 8, 'PFC enable bitmap, bit n = priority n'),
      f('pfc_cap', 0x4, 8, 4, 'PFC capability: priorities that may be enabled at once (0 = 8)'),
      f('pfc_mbc', 0x4, 12, 1, 'MACsec bypass capability'),
      f('pfc_willing', 0x4, 13, 1, 'PFC willing (DCBX)'),
      f('ets_willing', 0x4, 14, 1, 'ETS willing (DCBX)'),
      f('pause_time', 0x4, 16, 16, 'Pause time sent with XOFF, in quanta of 512 bit times'),
      f('wd_detect_ms', 0x8, 0, 16, 'PFC watchdog detection time, ms'),
      f('wd_restore_ms', 0x8, 16, 16, 'PFC watchdog restoration time, ms'),
      f('wd_poll_ms', 0xc, 0, 16, 'PFC watchdog poll interval, ms'),
      f('wd_action', 0xc, 16, 2, 'PFC watchdog action: 0 drop, 1 forward, 2 alert'),
      f('quantum_unit', 0x10, 0, 32, 'DWRR bytes per ETS percent (quantum = bw x unit)'),
    ],
  },
  {
    name: 'prio', base: 0x030, stride: 4, count: 8, doc: 'Per priority 0..7',
    fields: [
      f('tc', 0x0, 0, 4, 'Traffic class of the priority'),
      f('pg', 0x0, 4, 4, 'Ingress priority group'),
      f('pfc_en', 0x0, 8, 1, 'PFC enabled (lossless)'),
    ],
  },
  {
    name: 'tc', base: 0x050, stride: 16, count: 8, doc: 'Per traffic class 0..7 (higher TC = strict precedence)',
    fields: [
      f('tsa', 0x0, 0, 8, 'Transmission selection: 0 strict, 1 CBS, 2 ETS, 255 vendor (802.1Qaz)'),
      f('dwrr_weight', 0x0, 8, 8, 'ETS bandwidth percent; ETS TCs sum to 100'),
      f('queue', 0x0, 16, 4, 'Egress queue'),
      f('pg', 0x0, 20, 4, 'Ingress priority group'),
      f('used', 0x0, 24, 1, 'Some priority maps to this TC'),
      f('lossless', 0x0, 25, 1, 'All priorities of the TC have PFC on'),
      f('ecn_en', 0x0, 26, 1, 'ECN marking enabled'),
      f('quantum_credits', 0x4, 0, 16, 'DWRR quantum in 64-byte credits'),
      f('qcn_qeq_cells', 0x4, 16, 16, 'QCN congestion point equilibrium queue depth (cells)'),
      f('ecn_kmin_cells', 0x8, 0, 24, 'ECN marking starts above this queue depth (cells)'),
      f('ecn_pmax_pct', 0x8, 24, 8, 'Marking probability at kmax, percent'),
      f('ecn_kmax_cells', 0xc, 0, 24, 'All packets marked above this queue depth (cells)'),
      f('qcn_w', 0xc, 24, 4, 'QCN feedback weight w (802.1Qau: fb = (Qeq - q) - w (q - qOld))'),
    ],
  },
  {
    name: 'dscp', base: 0x0d0, stride: 4, count: 8, doc: 'DSCP to TC: word i holds DSCP 8i..8i+7, 4 bits each',
    fields: Array.from({ length: 8 }, (_, j) => f(`tc${j}`, 0x0, 4 * j, 4, `TC of DSCP 8i+${j}`)),
  },
  {
    name: 'port', base: 0x0f0, stride: 144, count: 'ports', doc: 'Per port; PG thresholds in cells',
    fields: [
      f('index', 0x0, 0, 16, 'Data-plane port number'),
      f('speed_gbps', 0x0, 16, 16, 'Port speed in Gb/s'),
      f('cable_m', 0x4, 0, 32, 'Cable length in metres'),
      ...Array.from({ length: 8 }, (_, g) => [
        f(`pg${g}_xon_cells`, 0x10 + 16 * g, 0, 24, `PG ${g}: XON when occupancy <= this`),
        f(`pg${g}_lossless`, 0x10 + 16 * g, 24, 1, `PG ${g}: lossless (PFC)`),
        f(`pg${g}_xoff_cells`, 0x14 + 16 * g, 0, 24, `PG ${g}: XOFF when occupancy >= this`),
        f(`pg${g}_headroom_cells`, 0x18 + 16 * g, 0, 24, `PG ${g}: headroom above the XOFF trigger`),
        f(`pg${g}_size_cells`, 0x1c + 16 * g, 0, 24, `PG ${g}: reserved = xoff + headroom`),
      ]).flat(),
    ],
  },
];

const WD_ACTION: Record<string, number> = { drop: 0, forward: 1, alert: 2 };

export function imageLength(nports: number): number {
  const port = BLOCKS.find((b) => b.name === 'port')!;
  return port.base + port.stride * nports;
}

/** Every field value of the image, by block, instance and field name (what the C check prints). */
export function registerValues(ir: Ir): Map<string, number> {
  const v = new Map<string, number>();
  const put = (block: string, i: number, field: string, value: number) => v.set(`${block}[${i}].${field}`, value);
  const cells = (bytes: number) => Math.ceil(bytes / ir.cellBytes);
  put('hdr', 0, 'magic', MAGIC);
  put('hdr', 0, 'version', VERSION);
  put('hdr', 0, 'num_ports', ir.ports.length);
  put('hdr', 0, 'length', imageLength(ir.ports.length));
  put('glb', 0, 'mtu', ir.mtu);
  put('glb', 0, 'cell_bytes', ir.cellBytes);
  put('glb', 0, 'pfc_enable', ir.pfc.enabled.reduce((m, on, p) => m | (on ? 1 << p : 0), 0));
  put('glb', 0, 'pfc_cap', ir.pfc.cap & 15);
  put('glb', 0, 'pfc_mbc', ir.pfc.mbc ? 1 : 0);
  put('glb', 0, 'pfc_willing', ir.pfc.willing ? 1 : 0);
  put('glb', 0, 'ets_willing', ir.ets.willing ? 1 : 0);
  put('glb', 0, 'pause_time', ir.pfc.pauseTime);
  put('glb', 0, 'wd_detect_ms', ir.watchdog.detectionMs);
  put('glb', 0, 'wd_restore_ms', ir.watchdog.restorationMs);
  put('glb', 0, 'wd_poll_ms', ir.watchdog.pollMs);
  put('glb', 0, 'wd_action', WD_ACTION[ir.watchdog.action]);
  put('glb', 0, 'quantum_unit', ir.quantumUnitBytes);
  for (let p = 0; p < 8; p++) {
    put('prio', p, 'tc', ir.prioTc[p]);
    put('prio', p, 'pg', ir.tcPg[ir.prioTc[p]]);
    put('prio', p, 'pfc_en', ir.pfc.enabled[p] ? 1 : 0);
  }
  for (const t of ir.tcs) {
    put('tc', t.tc, 'tsa', t.tsaCode);
    put('tc', t.tc, 'dwrr_weight', t.bwPercent);
    put('tc', t.tc, 'queue', Math.max(0, t.queue));
    put('tc', t.tc, 'pg', t.pg);
    put('tc', t.tc, 'used', t.used ? 1 : 0);
    put('tc', t.tc, 'lossless', t.lossless ? 1 : 0);
    put('tc', t.tc, 'ecn_en', t.ecn ? 1 : 0);
    put('tc', t.tc, 'quantum_credits', Math.ceil(t.quantumBytes / CREDIT_BYTES));
    put('tc', t.tc, 'ecn_kmin_cells', t.ecn ? cells(t.ecn.kminBytes) : 0);
    put('tc', t.tc, 'ecn_pmax_pct', t.ecn ? Math.round(t.ecn.pmaxPercent) : 0);
    put('tc', t.tc, 'ecn_kmax_cells', t.ecn ? cells(t.ecn.kmaxBytes) : 0);
    put('tc', t.tc, 'qcn_qeq_cells', t.ecn ? cells(t.ecn.qEqBytes) : 0);
    put('tc', t.tc, 'qcn_w', t.ecn ? t.ecn.w : 0);
  }
  for (let i = 0; i < 8; i++) for (let j = 0; j < 8; j++) put('dscp', i, `tc${j}`, ir.dscpTc[8 * i + j]);
  ir.ports.forEach((port, i) => {
    put('port', i, 'index', port.index);
    put('port', i, 'speed_gbps', port.speedBps / 1e9);
    put('port', i, 'cable_m', port.cableM);
    for (let g = 0; g < 8; g++) {
      const pg = port.pgs.find((x) => x.pg === g);
      put('port', i, `pg${g}_xon_cells`, pg ? cells(pg.xonBytes) : 0);
      put('port', i, `pg${g}_lossless`, pg?.lossless ? 1 : 0);
      put('port', i, `pg${g}_xoff_cells`, pg ? cells(pg.xoffBytes) : 0);
      put('port', i, `pg${g}_headroom_cells`, pg ? cells(pg.headroomBytes) : 0);
      put('port', i, `pg${g}_size_cells`, pg ? cells(pg.sizeBytes) : 0);
    }
  });
  return v;
}

/** Field value of instance i read from an image (dcb_regs.bin), as a driver or the RTL reads it. */
export function imageField(image: Uint8Array, block: string, i: number, field: string): number {
  const b = BLOCKS.find((x) => x.name === block);
  const fl = b?.fields.find((x) => x.name === field);
  if (!b || !fl) throw new Error(`no register ${block}.${field}`);
  return wordField(image, b.base + b.stride * i + fl.offset, fl.shift, fl.width);
}

/** The `width`-bit field at `shift` of the little-endian 32-bit word at byte `at`. */
export function wordField(image: Uint8Array, at: number, shift: number, width: number): number {
  const word = (image[at] | (image[at + 1] << 8) | (image[at + 2] << 16) | (image[at + 3] << 24)) >>> 0;
  return width === 32 ? word : Math.floor(word / 2 ** shift) % 2 ** width;
}

function check(ir: Ir): Problem[] {
  const out = irProblemsFor(ir, 'c-header');
  const values = registerValues(ir);
  for (const b of BLOCKS) {
    for (const fl of b.fields) {
      for (const [key, value] of values) {
        if (!key.startsWith(`${b.name}[`) || !key.endsWith(`].${fl.name}`)) continue;
        if (value < 0 || value >= 2 ** fl.width || !Number.isInteger(value)) {
          out.push(problem('c-header', key, `value ${value} does not fit the ${fl.width}-bit field (whole numbers 0..${2 ** fl.width - 1})`));
        }
      }
    }
  }
  return out;
}

function image(ir: Ir): Uint8Array {
  const len = imageLength(ir.ports.length);
  const buf = Buffer.alloc(len);
  const values = registerValues(ir);
  for (const b of BLOCKS) {
    const n = b.count === 'ports' ? ir.ports.length : b.count;
    for (let i = 0; i < n; i++) {
      for (const fl of b.fields) {
        const value = values.get(`${b.name}[${i}].${fl.name}`);
        if (value === undefined) continue;
        const at = b.base + b.stride * i + fl.offset;
        const mask = fl.width === 32 ? 0xffffffff : (2 ** fl.width - 1) * 2 ** fl.shift;
        const word = buf.readUInt32LE(at);
        buf.writeUInt32LE(((word & ~mask) | ((value * 2 ** fl.shift) & mask)) >>> 0, at);
      }
    }
  }
  buf.writeUInt32LE(crc32(buf) >>> 0, 0xc);
  return new Uint8Array(buf);
}

const up = (s: string) => s.toUpperCase();

function header(ir: Ir): string {
  const L: string[] = [];
  L.push('/* SPDX-License-Identifier: Apache-2.0 */');
  L.push('/* dcb_regs.h: DCB register map (802.1Qaz ETS, 802.1Qbb PFC, ECN, PFC watchdog). Generated by dcbkit codegen. */');
  L.push('/* Register words are little-endian 32-bit; each item is (block base + instance x stride + offset, shift, width). */');
  L.push('#ifndef DCB_REGS_H', '#define DCB_REGS_H', '', '#include <stdint.h>', '');
  L.push(`#define DCB_REGS_MAGIC 0x${MAGIC.toString(16)}u`, `#define DCB_REGS_VERSION ${VERSION}`, `#define DCB_REGS_CREDIT_BYTES ${CREDIT_BYTES}`);
  L.push(`#define DCB_REGS_NUM_PORTS ${ir.ports.length}`, `#define DCB_REGS_LEN 0x${imageLength(ir.ports.length).toString(16)}`, '');
  L.push('static inline uint32_t dcb_regs_load32(const uint8_t *p)');
  L.push('{', '\treturn (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;', '}', '');
  L.push('static inline void dcb_regs_store32(uint8_t *p, uint32_t v)');
  L.push('{', '\tp[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);', '}', '');
  L.push('#define DCB_REGS_MASK(width) ((uint32_t)(((uint64_t)1 << (width)) - 1))', '');
  L.push('/* DCB_ITEM32(block, field, offset, shift, width): offset/shift/width constants and get/set of field of instance i. */');
  L.push('#define DCB_ITEM32(_block, _field, _offset, _shift, _width) \\');
  L.push('\tenum { DCB_##_block##_##_field##_OFFSET = (_offset), DCB_##_block##_##_field##_SHIFT = (_shift), DCB_##_block##_##_field##_WIDTH = (_width) }; \\');
  L.push('\tstatic inline uint32_t dcb_##_block##_##_field##_get(const uint8_t *img, unsigned int i) \\');
  L.push('\t{ return (dcb_regs_load32(img + DCB_##_block##_BASE + i * DCB_##_block##_STRIDE + (_offset)) >> (_shift)) & DCB_REGS_MASK(_width); } \\');
  L.push('\tstatic inline void dcb_##_block##_##_field##_set(uint8_t *img, unsigned int i, uint32_t v) \\');
  L.push('\t{ uint8_t *p = img + DCB_##_block##_BASE + i * DCB_##_block##_STRIDE + (_offset); \\');
  L.push('\t  uint32_t m = DCB_REGS_MASK(_width) << (_shift); \\');
  L.push('\t  dcb_regs_store32(p, (dcb_regs_load32(p) & ~m) | ((v << (_shift)) & m)); }', '');
  for (const b of BLOCKS) {
    const count = b.count === 'ports' ? 'DCB_REGS_NUM_PORTS' : String(b.count);
    L.push(`/* ${up(b.name)}: ${b.doc} */`);
    L.push(`#define DCB_${b.name}_BASE 0x${b.base.toString(16).padStart(3, '0')}`, `#define DCB_${b.name}_STRIDE ${b.stride}`, `#define DCB_${b.name}_COUNT ${count}`);
    for (const fl of b.fields) {
      L.push(`/* ${b.name}.${fl.name}: ${fl.doc} */`);
      L.push(`DCB_ITEM32(${b.name}, ${fl.name}, 0x${fl.offset.toString(16)}, ${fl.shift}, ${fl.width})`);
    }
    // Layout checks the compiler enforces: fields inside their word and block, no overlaps.
    for (const fl of b.fields) {
      L.push(`_Static_assert(DCB_${b.name}_${fl.name}_SHIFT + DCB_${b.name}_${fl.name}_WIDTH <= 32 && DCB_${b.name}_${fl.name}_OFFSET + 4 <= DCB_${b.name}_STRIDE, "${b.name}.${fl.name} outside its block");`);
    }
    for (let i = 0; i < b.fields.length; i++) {
      for (let j = i + 1; j < b.fields.length; j++) {
        const a = b.fields[i];
        const c = b.fields[j];
        if (a.offset !== c.offset) continue;
        L.push(`_Static_assert(((DCB_REGS_MASK(DCB_${b.name}_${a.name}_WIDTH) << DCB_${b.name}_${a.name}_SHIFT) & (DCB_REGS_MASK(DCB_${b.name}_${c.name}_WIDTH) << DCB_${b.name}_${c.name}_SHIFT)) == 0, "${b.name}.${a.name} overlaps ${c.name}");`);
      }
    }
    L.push('');
  }
  const order = BLOCKS.filter((b) => b.count !== 'ports');
  for (let i = 0; i + 1 < order.length; i++) {
    const a = order[i];
    const n = BLOCKS[i + 1];
    L.push(`_Static_assert(DCB_${a.name}_BASE + DCB_${a.name}_STRIDE * DCB_${a.name}_COUNT <= DCB_${n.name}_BASE, "${a.name} overlaps ${n.name}");`);
  }
  L.push('_Static_assert(DCB_port_BASE + DCB_port_STRIDE * DCB_REGS_NUM_PORTS == DCB_REGS_LEN, "image length");', '');
  L.push('/* Every field, for table-driven code: X(block, field). */', '#define DCB_REGS_FIELDS(X) \\');
  L.push(BLOCKS.flatMap((b) => b.fields.map((fl) => `\tX(${b.name}, ${fl.name})`)).join(' \\\n'), '');
  L.push('#endif /* DCB_REGS_H */', '');
  return L.join('\n');
}

function emit(ir: Ir): Emitted {
  const quantisation: Quantisation[] = [];
  for (const t of ir.tcs) {
    const bytes = Math.ceil(t.quantumBytes / CREDIT_BYTES) * CREDIT_BYTES;
    if (bytes !== t.quantumBytes) quantisation.push({ target: 'c-header', path: `tc[${t.tc}].quantum`, quantity: `DWRR quantum in ${CREDIT_BYTES}-byte credits`, wanted: t.quantumBytes, got: bytes, unit: 'B', error: bytes - t.quantumBytes });
    if (t.ecn && Math.round(t.ecn.pmaxPercent) !== t.ecn.pmaxPercent) quantisation.push({ target: 'c-header', path: `tc[${t.tc}].ecn.pmax`, quantity: 'ECN Pmax in whole percent', wanted: t.ecn.pmaxPercent, got: Math.round(t.ecn.pmaxPercent), unit: '%', error: Math.round(t.ecn.pmaxPercent) - t.ecn.pmaxPercent });
  }
  return { files: { 'dcb_regs.h': header(ir), 'dcb_regs.bin': image(ir) }, quantisation };
}

export const cHeaderTarget: CodegenTarget = { name: 'c-header', check, emit };
