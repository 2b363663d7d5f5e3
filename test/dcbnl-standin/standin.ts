// Test harness for the DCB netlink stand-in (dcbnl-standin.c in this folder): a private network
// namespace with veth pairs whose named ends answer DCB netlink like a host-managed DCBX NIC, a
// private lldpad in it, and `dcb`/`lldptool`/`dcbtool` run against them.
//
// Isolation: lldpad keeps its pid and per-interface records in POSIX shared memory (/dev/shm/lldpad.state,
// open-lldp lldpad_shm.c), which is shared by every network namespace, so each lldpad started here runs
// in its own network namespace *and* its own mount namespace with a private tmpfs on /dev/shm, with
// its own config file (-f) and no pid file (-p: lldpad's pid file path is fixed, /var/run/lldpad.pid);
// it is stopped by the pid this harness spawned. Its control socket (abstract /com/intel/lldpad) is
// per network namespace, so lldptool and dcbtool run in the same namespace reach it; one lldpad per
// namespace.
//
// The library is built once per test run (by the first caller; later callers reuse it while it is
// newer than its source). Needs root (namespaces, veth), gcc, iproute2 (ip, dcb) and lldpad.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { requireTool } from '../helpers.js';

const here = dirname(fileURLToPath(import.meta.url));
const SOURCE = join(here, 'dcbnl-standin.c');
const LIBRARY = join(here, '..', '..', 'build', 'dcbnl-standin', 'libdcbnl-standin.so');

export interface RunResult {
  status: number;
  stdout: string;
  stderr: string;
}

/** The path of the stand-in library, built with gcc when missing or older than its source. */
export function standinLibrary(): string {
  if (existsSync(LIBRARY) && statSync(LIBRARY).mtimeMs >= statSync(SOURCE).mtimeMs) return LIBRARY;
  requireTool('gcc');
  const r = spawnSync('sh', [join(here, 'build.sh'), LIBRARY], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`building the DCB netlink stand-in failed:\n${r.stdout}${r.stderr}`);
  return LIBRARY;
}

// Debian 12's lldpad (1.1+git20221028.aa18720, open-lldp commit aa18720) wipes its CEE per-port record
// on its first CEE transmission: lldp_dcbx.c dcbx_gettlv() calls memset(tlvs, 0, sizeof(struct
// dcbx_tlvs)) after freeing the built TLVs, which also clears the interface name, the active flag and
// the list linkage, so dcbx_data() never finds the port again: no CEE TLV is ever sent and received
// CEE TLVs are dropped ("allocated TLV 127 was not stored"). open-lldp fixed it in 03cb011 (2023-08,
// "lldpad: dcbx: prevent null dereference in dcbx_free_data"): clear only the TLV pointers. Debian 12
// has no fixed package, so for CEE the harness runs a copy of /usr/sbin/lldpad with that fix applied
// to the machine code: the inlined 136-byte memset in dcbx_gettlv (49 bytes, found once, or the copy is
// refused) becomes ten stores of 0 to the pointers dcbx1..llink (struct offsets 0x20-0x68), keeping
// the `mov %rbp,%rsi` that sets up the next call.
const CEE_MEMSET = Buffer.from('488d7b08' + '4889d9' + '31c0' + '4883e7f8' + '48c70300000000' + '4889ee' + '48c7838000000000000000' + '4829f9' + '81c188000000' + 'c1e903' + 'f348ab', 'hex');
const CEE_CLEAR_POINTERS = Buffer.concat([
  Buffer.from('4889ee31c0', 'hex'), // mov %rbp,%rsi; xor %eax,%eax
  ...[0x20, 0x28, 0x30, 0x38, 0x40, 0x48, 0x50, 0x58, 0x60, 0x68].map((off) => Buffer.from([0x48, 0x89, 0x43, off])), // mov %rax,off(%rbx)
  Buffer.from('90909090', 'hex'),
]);

/**
 * The lldpad binary for CEE tests: /usr/sbin/lldpad itself when it does not carry the dcbx_gettlv
 * memset (a fixed build), else a copy with open-lldp 03cb011's fix applied (see above).
 */
export function ceeCapableLldpad(): string {
  const stock = readFileSync('/usr/sbin/lldpad');
  const at = stock.indexOf(CEE_MEMSET);
  if (at < 0) return '/usr/sbin/lldpad';
  if (stock.indexOf(CEE_MEMSET, at + 1) >= 0) throw new Error('/usr/sbin/lldpad: the dcbx_gettlv memset pattern occurs twice; not patching');
  if (CEE_CLEAR_POINTERS.length !== CEE_MEMSET.length) throw new Error('patch length mismatch');
  const out = join(dirname(LIBRARY), 'lldpad-03cb011');
  const patched = Buffer.from(stock);
  CEE_CLEAR_POINTERS.copy(patched, at);
  if (!existsSync(out) || !readFileSync(out).equals(patched)) {
    writeFileSync(`${out}.${process.pid}.tmp`, patched, { mode: 0o755 });
    renameSync(`${out}.${process.pid}.tmp`, out);
  }
  return out;
}

/** The device a managed interface stands for: the stand-in's IFNAME.state, key by key. */
export interface StandinDevice {
  /** DCB_CAP_DCBX_* bits: current mode (GDCBX/SDCBX) and what the device supports */
  dcbx: number;
  dcbx_cap: number;
  /** struct ieee_ets (include/uapi/linux/dcbnl.h) */
  ets: { willing: number; ets_cap: number; cbs: number; tc_tx_bw: number[]; tc_rx_bw: number[]; tc_tsa: number[]; prio_tc: number[]; tc_reco_bw: number[]; tc_reco_tsa: number[]; reco_prio_tc: number[] };
  /** struct ieee_pfc; pfc_en bit p = priority p */
  pfc: { pfc_cap: number; pfc_en: number; mbc: number; delay: number; requests: number[]; indications: number[] };
  maxrate: number[];
  buffer: { prio2buffer: number[]; buffer_size: number[]; total_size: number };
  /** the kernel's app list for the device, newest first: IEEE entries (selector 1..5) and CEE SAPP entries (selector = idtype 0/1, priority = bitmap) */
  app: { selector: number; priority: number; protocol: number }[];
  /** the CEE (pre-IEEE dcbnl) attributes; setall = how many SET_ALL commits so far */
  cee: {
    state: number; pfc_state: number; pfc: number[]; numtcs_pg: number; numtcs_pfc: number;
    pgtx: { prio_type: number[]; pgid: number[]; bw_pct: number[]; up_map: number[]; bwg: number[] };
    pgrx: { prio_type: number[]; pgid: number[]; bw_pct: number[]; up_map: number[]; bwg: number[] };
    feat_pg: number; feat_pfc: number; feat_app: number; setall: number;
  };
}

const zeros = () => [0, 0, 0, 0, 0, 0, 0, 0];

/** The device of an interface nobody has programmed (the stand-in's defaults). */
export function defaultDevice(): StandinDevice {
  const pg = () => ({ prio_type: zeros(), pgid: zeros(), bw_pct: zeros(), up_map: zeros(), bwg: zeros() });
  return {
    dcbx: 0x09, dcbx_cap: 0x0d,
    ets: { willing: 0, ets_cap: 8, cbs: 0, tc_tx_bw: zeros(), tc_rx_bw: zeros(), tc_tsa: zeros(), prio_tc: zeros(), tc_reco_bw: zeros(), tc_reco_tsa: zeros(), reco_prio_tc: zeros() },
    pfc: { pfc_cap: 8, pfc_en: 0, mbc: 0, delay: 0, requests: zeros(), indications: zeros() },
    maxrate: zeros(),
    buffer: { prio2buffer: zeros(), buffer_size: zeros(), total_size: 0 },
    app: [],
    cee: { state: 0, pfc_state: 0, pfc: zeros(), numtcs_pg: 8, numtcs_pfc: 8, pgtx: pg(), pgrx: pg(), feat_pg: 0, feat_pfc: 0, feat_app: 0, setall: 0 },
  };
}

// state-file key <-> place in StandinDevice (the C file's `fields` table, same order)
type Slot = [key: string, get: (d: StandinDevice) => number | number[], set: (d: StandinDevice, v: number[]) => void];
const one = (key: string, path: string[]): Slot => [key, (d) => dig(d, path) as number, (d, v) => put(d, path, v[0] ?? 0)];
const many = (key: string, path: string[]): Slot => [key, (d) => dig(d, path) as number[], (d, v) => put(d, path, [...v])];
function dig(d: unknown, path: string[]): unknown {
  return path.reduce((o, k) => (o as Record<string, unknown>)[k], d);
}
function put(d: unknown, path: string[], v: unknown): void {
  (dig(d, path.slice(0, -1)) as Record<string, unknown>)[path[path.length - 1]] = v;
}
const SLOTS: Slot[] = [
  one('dcbx', ['dcbx']), one('dcbx_cap', ['dcbx_cap']),
  one('ets_willing', ['ets', 'willing']), one('ets_cap', ['ets', 'ets_cap']), one('ets_cbs', ['ets', 'cbs']),
  ...['tc_tx_bw', 'tc_rx_bw', 'tc_tsa', 'prio_tc', 'tc_reco_bw', 'tc_reco_tsa', 'reco_prio_tc'].map((k) => many(`ets_${k}`, ['ets', k])),
  one('pfc_cap', ['pfc', 'pfc_cap']), one('pfc_en', ['pfc', 'pfc_en']), one('pfc_mbc', ['pfc', 'mbc']), one('pfc_delay', ['pfc', 'delay']),
  many('pfc_requests', ['pfc', 'requests']), many('pfc_indications', ['pfc', 'indications']),
  many('maxrate', ['maxrate']),
  many('buffer_prio2buffer', ['buffer', 'prio2buffer']), many('buffer_size', ['buffer', 'buffer_size']), one('buffer_total_size', ['buffer', 'total_size']),
  one('cee_state', ['cee', 'state']), one('cee_pfc_state', ['cee', 'pfc_state']), many('cee_pfc', ['cee', 'pfc']),
  one('cee_numtcs_pg', ['cee', 'numtcs_pg']), one('cee_numtcs_pfc', ['cee', 'numtcs_pfc']),
  ...(['pgtx', 'pgrx'] as const).flatMap((g) => ['prio_type', 'pgid', 'bw_pct', 'up_map', 'bwg'].map((k) => many(`cee_${g}_${k}`, ['cee', g, k]))),
  one('cee_feat_pg', ['cee', 'feat_pg']), one('cee_feat_pfc', ['cee', 'feat_pfc']), one('cee_feat_app', ['cee', 'feat_app']),
  one('cee_setall', ['cee', 'setall']),
];

/** Parses the text of an IFNAME.state file. */
export function parseDevice(text: string): StandinDevice {
  const d = defaultDevice();
  const byKey = new Map(SLOTS.map((s) => [s[0], s]));
  let apps: StandinDevice['app'] | undefined;
  for (const line of text.split('\n')) {
    const [key, ...rest] = line.trim().split(/\s+/);
    if (!key || key.startsWith('#')) continue;
    const v = rest.map(Number);
    if (key === 'app') (apps ??= []).push({ selector: v[0], priority: v[1], protocol: v[2] });
    else byKey.get(key)?.[2](d, v);
  }
  if (apps) d.app = apps;
  return d;
}

/** The text of an IFNAME.state file for a device. */
export function formatDevice(d: StandinDevice): string {
  const lines = SLOTS.map(([key, get]) => [key, ...[get(d)].flat()].join(' '));
  for (const a of d.app) lines.push(`app ${a.selector} ${a.priority} ${a.protocol}`);
  return lines.join('\n') + '\n';
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let opened = 0;

/** A running lldpad in a StandinNetns. */
export interface Lldpad {
  pid: number;
  /** its -f config file */
  config: string;
  /** what it printed so far (-V 7) */
  log(): string;
  lldptool(args: string[]): RunResult;
  dcbtool(args: string[]): RunResult;
  /** SIGTERM to its pid, then SIGKILL after 5 s */
  stop(): Promise<void>;
}

export interface StandinOptions {
  /** veth pairs to create, [end, peer end]; default [['a', 'b']] */
  links?: [string, string][];
  /** interfaces that answer DCB netlink; default the first end of every pair */
  managed?: string[];
  /** a word in the namespace name, to tell test files apart */
  tag?: string;
}

/** A private network namespace with veth pairs; the `managed` ends are DCB-capable devices. */
export class StandinNetns {
  readonly ns: string;
  readonly dir: string;
  readonly managed: string[];
  private lldpads: Lldpad[] = [];

  private constructor(ns: string, dir: string, managed: string[]) {
    this.ns = ns;
    this.dir = dir;
    this.managed = managed;
  }

  static open(opts: StandinOptions = {}): StandinNetns {
    for (const t of ['ip', 'dcb', 'lldpad', 'lldptool']) requireTool(t);
    if (process.getuid?.() !== 0) throw new Error('the DCB netlink stand-in needs root (network namespaces, veth pairs)');
    const lib = standinLibrary();
    const links = opts.links ?? [['a', 'b']];
    const ns = `dcbkit-${opts.tag ?? 'standin'}-${process.pid}-${++opened}`;
    const dir = mkdtempSync(join(tmpdir(), 'dcbkit-standin-'));
    const n = new StandinNetns(ns, dir, opts.managed ?? links.map((l) => l[0]));
    n.library = lib;
    const ip = (...args: string[]) => {
      const r = spawnSync('ip', args, { encoding: 'utf8' });
      if (r.status !== 0) {
        n.closeNow();
        throw new Error(`ip ${args.join(' ')}: ${r.stderr}`);
      }
    };
    ip('netns', 'add', ns);
    for (const [x, y] of links) {
      ip('-n', ns, 'link', 'add', 'dev', x, 'type', 'veth', 'peer', 'name', y);
      ip('-n', ns, 'link', 'set', 'dev', x, 'up');
      ip('-n', ns, 'link', 'set', 'dev', y, 'up');
    }
    return n;
  }

  private library = '';

  /** The environment that loads the stand-in into a program. */
  env(): Record<string, string> {
    return { LD_PRELOAD: this.library, DCBNL_STANDIN_IFACES: this.managed.join(','), DCBNL_STANDIN_DIR: this.dir };
  }

  /** Runs a program in the namespace, with the stand-in loaded unless standin is false. */
  run(cmd: string, args: string[], opts: { input?: string; standin?: boolean } = {}): RunResult {
    const env = { ...process.env, ...(opts.standin === false ? {} : this.env()) };
    const r = spawnSync('ip', ['netns', 'exec', this.ns, cmd, ...args], { encoding: 'utf8', input: opts.input, env, maxBuffer: 64 * 1024 * 1024 });
    return { status: r.status ?? -1, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
  }

  /** iproute2 `dcb ARGS` against the stand-in. */
  dcb(args: string[]): RunResult {
    return this.run('dcb', args);
  }

  /** The device behind a managed interface, as last programmed. */
  device(ifname: string): StandinDevice {
    const p = join(this.dir, `${ifname}.state`);
    return existsSync(p) ? parseDevice(readFileSync(p, 'utf8')) : defaultDevice();
  }

  /** Replaces the device behind a managed interface (as a driver's defaults or a firmware would). */
  setDevice(ifname: string, d: StandinDevice): void {
    const p = join(this.dir, `${ifname}.state`);
    writeFileSync(`${p}.harness.tmp`, formatDevice(d));
    renameSync(`${p}.harness.tmp`, p);
  }

  /** The set commands the device received, one line each (`IEEE_SET ets pfc -> 0`, `SDCBX 9 ok`, ...). */
  commands(ifname: string): string[] {
    const p = join(this.dir, `${ifname}.log`);
    return existsSync(p) ? readFileSync(p, 'utf8').split('\n').filter(Boolean) : [];
  }

  /** Polls f every 100 ms until it returns something other than undefined/false; throws naming `what`. */
  async waitFor<T>(what: string, f: () => T | undefined | false, timeoutMs = 10_000): Promise<T> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const v = f();
      if (v !== undefined && v !== false) return v;
      if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
      await sleep(100);
    }
  }

  /**
   * Starts lldpad in the namespace with the stand-in loaded, a private /dev/shm and its own config
   * file, and waits until it answers lldptool on `ifname`. `binary`: another lldpad executable
   * (ceeCapableLldpad() for CEE); `config`: the -f file's initial text.
   */
  async startLldpad(ifname: string, opts: { config?: string; binary?: string } = {}): Promise<Lldpad> {
    if (this.lldpads.some((l) => l.pid > 0)) throw new Error(`${this.ns} already runs an lldpad (its control socket is per namespace)`);
    const config = join(this.dir, `lldpad-${this.lldpads.length}.conf`);
    if (opts.config !== undefined) writeFileSync(config, opts.config);
    // `ip netns exec` gives the command its own mount namespace (it remounts /sys there), so this
    // tmpfs hides the machine's /dev/shm from this lldpad only; exec keeps the spawned pid lldpad's.
    // lldpad's log (-V 7 is verbose) goes to a file, line by line (stdbuf): a pipe would fill while
    // the test blocks in spawnSync, and lldpad would then stall in write() and stop answering
    const logFile = join(this.dir, `lldpad-${this.lldpads.length}.log`);
    writeFileSync(logFile, '');
    const script = 'mount -t tmpfs -o size=1m,mode=1777 dcbkit-shm /dev/shm && exec stdbuf -oL -eL "$1" -p -t -V 7 -f "$0" >>"$2" 2>&1';
    const child: ChildProcess = spawn('ip', ['netns', 'exec', this.ns, 'sh', '-c', script, config, opts.binary ?? 'lldpad', logFile], { env: { ...process.env, ...this.env() }, stdio: 'ignore' });
    let exited = false;
    child.on('exit', () => (exited = true));
    const self = this;
    const text = () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : '');
    const lldpad: Lldpad = {
      pid: child.pid ?? -1,
      config,
      log: text,
      lldptool: (args) => self.run('lldptool', args, { standin: false }),
      dcbtool: (args) => self.run('dcbtool', args, { standin: false }),
      async stop() {
        if (exited || child.pid === undefined) return;
        const gone = new Promise((r) => child.once('exit', r));
        process.kill(child.pid, 'SIGTERM');
        // lldpad removes what it programmed (IEEE_DEL) before it exits; on a loaded machine that
        // took over 5 s, and a SIGKILL then left the entries in place: give it 30 s
        if (await Promise.race([gone.then(() => true), sleep(30_000).then(() => false)])) return;
        process.kill(child.pid, 'SIGKILL');
        await gone;
      },
    };
    this.lldpads.push(lldpad);
    const end = Date.now() + 15_000;
    while (!exited && Date.now() < end) {
      if (lldpad.lldptool(['get-lldp', '-i', ifname, 'adminStatus']).status === 0) return lldpad;
      await sleep(150);
    }
    await lldpad.stop();
    throw new Error(`lldpad did not come up in ${this.ns}${exited ? ' (it exited)' : ''}:\n${text().slice(-2000)}`);
  }

  /** A raw Ethernet port on `ifname` (usually the peer end of a managed veth): see RawPort. */
  async openPort(ifname: string): Promise<RawPort> {
    const p = new RawPort(spawn('ip', ['netns', 'exec', this.ns, 'python3', join(here, 'rawport.py'), ifname], { stdio: ['pipe', 'pipe', 'pipe'] }));
    this.ports.push(p);
    await this.waitFor(`the raw port on ${ifname}`, () => p.ready || (p.exited && Promise.reject(new Error(`rawport.py on ${ifname} exited: ${p.stderr}`))));
    return p;
  }

  private ports: RawPort[] = [];

  /** Stops every lldpad and raw port started here (by pid), deletes the namespace and the state directory. */
  async close(): Promise<void> {
    for (const l of this.lldpads) await l.stop();
    for (const p of this.ports) await p.close();
    this.closeNow();
  }

  private closeNow(): void {
    spawnSync('ip', ['netns', 'del', this.ns]);
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A received frame: milliseconds since the port opened, the frame's bytes (no FCS) in hex. */
export interface RxFrame {
  ms: number;
  hex: string;
}

/**
 * Frames in and out of one interface, through an AF_PACKET socket (rawport.py): every frame received
 * is kept in `received` in arrival order; send() transmits one frame.
 */
export class RawPort {
  readonly received: RxFrame[] = [];
  ready = false;
  exited = false;
  stderr = '';
  private sent = 0;
  private acked = 0;
  private partial = '';

  constructor(private child: ChildProcess) {
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      const lines = (this.partial + chunk).split('\n');
      this.partial = lines.pop() ?? '';
      for (const line of lines) {
        const [kind, ms, hex] = line.split(' ');
        if (kind === 'READY') this.ready = true;
        else if (kind === 'RX') this.received.push({ ms: Number(ms), hex });
        else if (kind === 'TX') this.acked++;
      }
    });
    child.stderr!.on('data', (b) => (this.stderr += b));
    child.on('exit', () => (this.exited = true));
  }

  /** Sends one frame; resolves once it is on the wire. */
  async send(frame: Uint8Array | string): Promise<void> {
    const hex = typeof frame === 'string' ? frame : Buffer.from(frame).toString('hex');
    const n = ++this.sent;
    this.child.stdin!.write(hex + '\n');
    const end = Date.now() + 5000;
    while (this.acked < n) {
      if (this.exited || Date.now() > end) throw new Error(`rawport.py did not send the frame: ${this.stderr}`);
      await sleep(5);
    }
  }

  /** The first frame received from index `from` on that satisfies `pred`, waiting up to timeoutMs. */
  async next(pred: (f: RxFrame) => boolean, from = 0, timeoutMs = 10_000): Promise<RxFrame & { index: number }> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      for (let i = from; i < this.received.length; i++) if (pred(this.received[i])) return { ...this.received[i], index: i };
      if (this.exited) throw new Error(`rawport.py exited: ${this.stderr}`);
      if (Date.now() > end) throw new Error(`no matching frame within ${timeoutMs} ms (${this.received.length - from} others)`);
      await sleep(20);
    }
  }

  async close(): Promise<void> {
    if (this.exited) return;
    const gone = new Promise((r) => this.child.once('exit', r));
    this.child.stdin!.end();
    if (await Promise.race([gone.then(() => true), sleep(2000).then(() => false)])) return;
    this.child.kill('SIGKILL');
    await gone;
  }
}

/** True for an LLDPDU (EtherType 0x88CC, untagged). */
export const isLldp = (f: RxFrame) => f.hex.slice(24, 28) === '88cc';
