// Packet traces of a run (`dcbkit run --pcap DIR [--pcap-ports a>b,...] [--pcap-snaplen N]`,
// docs/capture.md): one pcapng file per selected port holding the frames that left it, in the order
// they left, with nanosecond timestamps.
//
// The engine records each departure of a selected port in its partition's capture ring
// (assembly/sim/capture.ts); this module sizes the rings, runs the engine in steps short enough
// that no ring can fill, drains the rings after each step, turns every record into its frame
// (capture-frames.ts) cut at the snap length, and appends it to its port's file as an Enhanced
// Packet Block (host/capture/pcapng-write.ts). A port belongs to one partition, and its records come in
// the order it sent its frames, so the files are the same on any number of threads.
//
// Bounds. A port starts at most one frame per smallest frame time (64 + 20 wire bytes at its
// rate), and a frame costs the file at most EPB_OVERHEAD + its captured bytes; the cost per wire
// byte is largest for the smallest frame, so (duration / that time + 1) x (32 + 64) bytes, plus the
// last, partly filled buffer, bound a port's file. The sum over the selected ports (plus the largest
// one, copied once more when the files are assembled) is counted against the run's memory budget
// before the run starts.
import { InputError } from '../errors/errors.js';
import { epbBytes, pcapngHeader, writeEpb } from '../capture/pcapng-write.js';
import { formatBytes } from './budget.js';
import type { CaptureLayout, Fabric } from './fabric.js';
import { frameBytes, type CaptureRecord, type FrameContext, type PacketKinds } from './capture-frames.js';
import type { Scenario } from '../scenario/scenario.js';

export const DEFAULT_SNAPLEN = 128;
/** Fabrics with more ports need --pcap-ports: a trace of every port of a big fabric is rarely what is meant. */
export const MAX_DEFAULT_PORTS = 32;
/** The smallest frame the engine sends (control frames, ACKs), bytes with FCS. */
const SMALLEST_FRAME = 64;
const WIRE_OVERHEAD = 20;
/** Ring records per partition: enough for a sampling interval of every port at line rate, within these bounds. */
const RING_MIN = 4096;
const RING_MAX = 1 << 20;
/** Departures may come slightly faster than nominal (transmit clocks off by up to +-100 ppm): a 1 % margin. */
const RATE_MARGIN = 1.01;
/** Bytes of the buffers a port's file is filled in (a new one when full). */
const CHUNK_BYTES = 1 << 20;
/** The name of the manifest written beside the files. */
export const CAPTURE_MANIFEST = 'capture.json';
export const CAPTURE_GENERATOR = 'dcbkit run --pcap';

export interface CaptureRequest {
  /** Port names (`node>peer`); undefined: every port, if the fabric has at most MAX_DEFAULT_PORTS. */
  ports?: readonly string[];
  /** Bytes kept of each frame (default DEFAULT_SNAPLEN). */
  snaplen?: number;
}

/** The ports a request selects (InputError naming --pcap-ports for an unknown or repeated name, or too many by default). */
export function selectPorts(scn: Scenario, req: CaptureRequest): number[] {
  if (req.ports === undefined) {
    if (scn.ports.length > MAX_DEFAULT_PORTS) {
      throw new InputError({ path: '--pcap-ports', rule: `the fabric has ${scn.ports.length} ports, more than the ${MAX_DEFAULT_PORTS} --pcap captures by default: name the ports to capture, e.g. --pcap-ports ${scn.ports[0].name}` });
    }
    return scn.ports.map((p) => p.id);
  }
  const byName = new Map(scn.ports.map((p) => [p.name, p.id]));
  const out: number[] = [];
  for (const name of req.ports) {
    const id = byName.get(name);
    if (id === undefined) throw new InputError({ path: '--pcap-ports', rule: `unknown port "${name}" (ports are named node>peer, e.g. ${scn.ports[0].name})` });
    if (out.includes(id)) throw new InputError({ path: '--pcap-ports', rule: `port "${name}" is listed twice` });
    out.push(id);
  }
  if (out.length === 0) throw new InputError({ path: '--pcap-ports', rule: 'name at least one port' });
  return out;
}

/** --pcap-snaplen: a whole number of bytes from 64 (a whole control frame) to 65535. */
export function checkSnaplen(n: number | undefined): number {
  if (n === undefined) return DEFAULT_SNAPLEN;
  if (!Number.isInteger(n) || n < 64 || n > 65535) throw new InputError({ path: '--pcap-snaplen', rule: `a whole number of bytes from 64 to 65535 (got ${n})` });
  return n;
}

const smallestFramePs = (scn: Scenario, p: number) => (SMALLEST_FRAME + WIRE_OVERHEAD) * scn.ports[p].psPerByte;

/** Upper bound of each selected port's file, bytes (see the file comment). */
export function captureBound(scn: Scenario, ports: readonly number[], snaplen: number): { total: number; largest: number } {
  const perFrame = epbBytes(Math.min(snaplen, SMALLEST_FRAME));
  let total = 0;
  let largest = 0;
  for (const p of ports) {
    const bytes = CHUNK_BYTES + pcapngHeader(scn.ports[p].name, snaplen).length + (Math.floor((scn.duration_ps * RATE_MARGIN) / smallestFramePs(scn, p)) + 1) * perFrame;
    total += bytes;
    largest = Math.max(largest, bytes);
  }
  return { total, largest };
}

/** Refuses (InputError naming --pcap) a capture whose bound does not fit in `budget` bytes. */
export function checkCaptureBudget(scn: Scenario, ports: readonly number[], snaplen: number, budget: number, maxBytes: number): void {
  const b = captureBound(scn, ports, snaplen);
  if (b.total + b.largest > budget) {
    throw new InputError({
      path: '--pcap',
      rule: `${ports.length} port(s) over ${scn.duration_ps / 1e9} ms can make up to ${formatBytes(b.total)} of capture (every port sending 64-byte frames at line rate), ` +
        `more than the memory budget leaves (${formatBytes(Math.max(0, budget))} of ${formatBytes(maxBytes)}, --max-memory): capture fewer ports (--pcap-ports), shorten duration, or raise --max-memory`,
    });
  }
}

/** Records per partition ring for these ports: one sampling interval at line rate, within [RING_MIN, RING_MAX]. */
export function captureLayout(scn: Scenario, ports: readonly number[]): CaptureLayout {
  const perInterval = ports.reduce((n, p) => n + Math.ceil((scn.sample_ps * RATE_MARGIN) / smallestFramePs(scn, p)) + 2, 0);
  return { ports, ringRecords: Math.max(RING_MIN, 2 * ports.length, Math.min(RING_MAX, perInterval)) };
}

/** A file name for a port name: unsafe characters become '_', '>' becomes '_to_'. */
function fileNameOf(name: string): string {
  return name.replace(/>/g, '_to_').replace(/[^A-Za-z0-9._-]/g, '_');
}

/** One run's packet trace: attach to the fabric, run through `runUntil`, then take the files. */
export class PacketCapture {
  readonly ports: number[];
  readonly snaplen: number;
  private fab?: Fabric;
  private ctx?: FrameContext;
  private stepPs = 0;
  private reached = 0;
  /** Per selected port: the file so far (header, then EPBs) in filled chunks and the one being filled, and its frames. */
  private files_ = new Map<number, { done: Uint8Array[]; buf: Uint8Array; at: number; frames: number }>();

  constructor(readonly scn: Scenario, req: CaptureRequest) {
    this.ports = selectPorts(scn, req);
    this.snaplen = checkSnaplen(req.snaplen);
  }

  layout(): CaptureLayout {
    return captureLayout(this.scn, this.ports);
  }

  /** Starts recording on the fabric built with layout(). */
  attach(fab: Fabric): void {
    const { scn } = this;
    const L = fab.L;
    this.fab = fab;
    const rings = fab.r32(fab.base + L.SH_CAPTURE);
    if (rings === 0) throw new Error('capture: the fabric was built without capture rings');
    const ringRecords = fab.r32(rings + L.CG_CAP);
    // The longest step in which the selected ports cannot write more than a ring holds.
    const perPs = this.ports.reduce((s, p) => s + RATE_MARGIN / smallestFramePs(scn, p), 0);
    this.stepPs = Math.max(1, Math.floor((ringRecords - this.ports.length) / perPs));
    const hostOrd = new Map(scn.nodes.filter((n) => n.isHost).map((n, i) => [n.id, i]));
    const kinds = Object.fromEntries(['PKT_DATA', 'PKT_PFC', 'PKT_PAUSE', 'PKT_CNM', 'PKT_GRANT', 'PKT_CNP', 'PKT_ACK', 'PKT_NACK'].map((k) => [k, L[k]])) as unknown as PacketKinds;
    this.ctx = {
      kinds,
      flows: scn.flows.map((f) => ({ srcPort: scn.nodes[f.src].ports[0], dstPort: scn.nodes[f.dst].ports[0], srcHost: hostOrd.get(f.src)!, dstHost: hostOrd.get(f.dst)!, priority: f.priority })),
      npsn: (f) => (scn.flows[f].transport === 'roce' ? fab.r64(fab.flowAt(f) + L.SF_NPSN) : -1),
      ecnCapable: scn.qcn.enable && scn.qcn.profile === 'dcqcn',
    };
    for (const p of this.ports) this.files_.set(p, { done: [pcapngHeader(scn.ports[p].name, this.snaplen)], buf: new Uint8Array(0), at: 0, frames: 0 });
  }

  /** The fabric's runUntil in steps no ring can overflow in, each followed by a drain. */
  runUntil(tPs: number, sampleEts?: boolean): void {
    const fab = this.fab!;
    while (this.reached + this.stepPs < tPs) {
      this.reached += this.stepPs;
      fab.runUntil(this.reached, false);
      this.drain();
    }
    this.reached = Math.max(this.reached, tPs);
    fab.runUntil(tPs, sampleEts);
    this.drain();
  }

  /** Moves every ring's records into their ports' files and empties the rings. */
  private drain(): void {
    const fab = this.fab!;
    const L = fab.L;
    const rings = fab.r32(fab.base + L.SH_CAPTURE);
    for (let w = 0; w < fab.threads; w++) {
      const ring = rings + w * L.CG_SIZE;
      if (fab.r32(ring + L.CG_LOST) !== 0) throw new Error('capture ring overflowed (sizing bug)');
      const n = fab.r32(ring + L.CG_COUNT);
      const at = fab.r32(ring + L.CG_RECORDS);
      for (let i = 0; i < n; i++) this.add(at + i * L.CR_SIZE);
      fab.core.i32[(ring + L.CG_COUNT) >>> 2] = 0;
    }
  }

  private add(rec: number): void {
    const fab = this.fab!;
    const L = fab.L;
    const r: CaptureRecord = {
      port: fab.r32(rec + L.CR_PORT), kind: fab.r32(rec + L.CR_KIND), bytes: fab.r32(rec + L.CR_BYTES),
      flow: fab.r32(rec + L.CR_FLOW), a: fab.r32(rec + L.CR_A), b: fab.r32(rec + L.CR_B),
    };
    const ns = BigInt(fab.r64(rec + L.CR_TIME)) / 1000n;
    const { data, origLen } = frameBytes(r, this.ctx!, this.snaplen);
    const out = this.files_.get(r.port)!;
    const need = epbBytes(data.length);
    if (out.at + need > out.buf.length) {
      out.done.push(out.buf.subarray(0, out.at));
      out.buf = new Uint8Array(Math.max(CHUNK_BYTES, need));
      out.at = 0;
    }
    out.at = writeEpb(out.buf, out.at, ns, data, origLen);
    out.frames++;
  }

  /** The files (relative names) and the manifest: one pcapng per selected port. */
  files(): Map<string, Uint8Array | string> {
    const out = new Map<string, Uint8Array | string>();
    const used = new Set<string>([CAPTURE_MANIFEST]);
    const listed: { port: string; file: string; frames: number; bytes: number }[] = [];
    for (const p of this.ports) {
      const base = fileNameOf(this.scn.ports[p].name);
      let file = `${base}.pcapng`;
      for (let k = 2; used.has(file); k++) file = `${base}-${k}.pcapng`;
      used.add(file);
      const f = this.files_.get(p)!;
      const parts = [...f.done, f.buf.subarray(0, f.at)];
      const bytes = new Uint8Array(parts.reduce((n, c) => n + c.length, 0));
      let at = 0;
      for (const c of parts) { bytes.set(c, at); at += c.length; }
      this.files_.delete(p);
      out.set(file, bytes);
      listed.push({ port: this.scn.ports[p].name, file, frames: f.frames, bytes: bytes.length });
    }
    const manifest = { generator: CAPTURE_GENERATOR, scenario: this.scn.name, snaplen: this.snaplen, timestamp: 'first bit of the frame leaves the port, ns since the start of the run', ports: listed };
    out.set(CAPTURE_MANIFEST, JSON.stringify(manifest, null, 2) + '\n');
    return out;
  }
}
