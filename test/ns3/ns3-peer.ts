// ns-3 as an independent peer of dcbkit's fabric simulator (docs/sim.md, "Validation against ns-3"):
// builds test/ns3/dcbkit_ns3.cc against Debian's ns-3 3.37 (libns3-dev), writes the checked
// scenario dcbkit runs as that program's line format, and reads back its per-flow counts.
// Only what both models mean the same way is translated: lossy drop-tail switches, one fixed frame
// size, offered rates, pinned paths; anything else is refused here rather than compared.
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Scenario } from '../../host/scenario/scenario.js';
import { requireTool } from '../helpers.js';

/** ns-3 3.37's libraries the program uses, in link order (pkg-config also names libgsl, not installed). */
const NS3_LIBS = [
  'ns3-point-to-point', 'ns3-internet', 'ns3-applications', 'ns3-traffic-control', 'ns3-network', 'ns3-bridge', 'ns3-stats', 'ns3-core',
];

export interface Ns3Flow { id: number; sent_frames: number; delivered_frames: number; delivered_bytes: number }
export interface Ns3Result { frame: number; packet_hops: number; drops: number; wall_s: number; flows: Ns3Flow[] }

/** Compiles the peer program into a fresh temporary directory; returns the executable's path. */
export function buildNs3Peer(): string {
  requireTool('g++');
  requireTool('pkg-config');
  // The docs quote 3.37's behaviour (device-queue flow control, tie order); another version may differ.
  const version = spawnSync('pkg-config', ['--modversion', 'ns3-core'], { encoding: 'utf8' });
  if (version.status !== 0 || version.stdout.trim() !== '3.37') {
    throw new Error(`ns-3 3.37 is needed (Debian libns3-dev; scripts/test.sh installs it); pkg-config says: ${version.stdout.trim() || version.stderr.trim() || 'not found'}`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'dcbkit-ns3-'));
  const exe = join(dir, 'dcbkit_ns3');
  const src = fileURLToPath(new URL('./dcbkit_ns3.cc', import.meta.url));
  try {
    execFileSync('g++', ['-O2', '-std=c++17', src, '-o', exe, ...NS3_LIBS.map((l) => `-l${l}`)], { stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    const err = e as { stderr?: Buffer };
    throw new Error(`cannot build test/ns3/dcbkit_ns3.cc against ns-3 (Debian libns3-dev; scripts/test.sh installs it):\n${err.stderr?.toString() ?? e}`);
  }
  return exe;
}

/** The translation's preconditions, each a sentence naming what does not fit. */
function refuse(what: string): never {
  throw new Error(`scenario cannot be compared with ns-3: ${what}`);
}

/**
 * The peer program's description of a checked scenario: nodes, links (rate, delay, each end's
 * lossy egress limit in frame bytes; 0 at hosts, whose NIC never drops), flows with their paths.
 */
export function ns3Spec(scn: Scenario): string {
  // ns-3's devices have exact nominal clocks and no switch pipeline latency.
  if (!scn.timing.ideal) refuse('the scenario has port clock offsets and switch latency (add timing: ideal)');
  const frames = new Set<number>();
  for (const f of scn.flows) {
    if (f.frames.kind !== 0) refuse(`flow ${f.id} has a frame-size distribution (one fixed size only)`);
    frames.add(f.frames.a);
  }
  if (frames.size !== 1) refuse(`flows use frame sizes ${[...frames].join(', ')} (one fixed size only)`);
  const lines = [`seed ${scn.seed}`, `duration_ps ${scn.duration_ps}`, `frame ${[...frames][0]}`];
  // One priority: every egress port is one FIFO, as ns-3's device queue (no ETS between TCs).
  const priorities = new Set(scn.flows.map((f) => f.priority));
  if (priorities.size > 1) refuse(`flows use priorities ${[...priorities].join(', ')} (one only)`);
  for (const n of scn.nodes) {
    if (n.modes.some((m) => m !== 'lossy')) refuse(`${n.name} has lossless priorities (all must be lossy)`);
    // ns-3's queues are per port: the switch's shared buffer must hold every egress queue full.
    if (n.buffer && n.ports.length * n.buffer.lossyQueue > n.buffer.size) {
      refuse(`${n.name}: ${n.ports.length} egress queues of ${n.buffer.lossyQueue} B can outgrow its ${n.buffer.size} B buffer`);
    }
    lines.push(`node ${n.name} ${n.isHost ? 'host' : 'switch'}`);
  }
  if (scn.qcn.enable && scn.qcn.priorities.length > 0) refuse('QCN is on');
  const limit = (node: number) => scn.nodes[node].buffer?.lossyQueue ?? 0;
  for (const p of scn.ports) {
    if (p.id > p.peer) continue;
    const q = scn.ports[p.peer];
    if (p.bps !== q.bps || p.delay_ps !== q.delay_ps) refuse(`link ${p.name} differs between its ends`);
    lines.push(`link ${scn.nodes[p.node].name} ${scn.nodes[q.node].name} ${p.bps} ${p.delay_ps} ${limit(p.node)} ${limit(q.node)}`);
  }
  for (const f of scn.flows) {
    if (!f.path) refuse(`flow ${f.id} has no pinned path`);
    if (!(f.rate_bps > 0)) refuse(`flow ${f.id} has no offered rate`);
    if (f.size !== 0 || f.on_ps !== 0) refuse(`flow ${f.id} is sized or on/off`);
    if (f.transport !== 'none') refuse(`flow ${f.id} has transport ${f.transport} (open-loop sources only)`);
    // ns-3's host device is one FIFO: the NIC's per-flow DRR weights have nothing to map to.
    if (f.weight !== 1) refuse(`flow ${f.id} has weight ${f.weight} (1 only)`);
    // Each simulator would draw its own jitter: constant-rate sources would then run at other
    // phases in each, and the phases decide their shares (docs/sim.md).
    if (f.start_jitter_ps !== 0) refuse(`flow ${f.id} has a start_jitter`);
    const stop = Math.min(f.stop_ps, scn.duration_ps);
    const names = f.path.map((n) => scn.nodes[n].name);
    lines.push(`flow ${f.id} ${scn.nodes[f.src].name} ${scn.nodes[f.dst].name} ${f.rate_bps} ${f.start_ps} ${stop} ${f.interarrival} ${names.join(' ')}`);
  }
  return lines.join('\n') + '\n';
}

/** Removes the peer program's directory (buildNs3Peer's). */
export function removeNs3Peer(exe: string): void {
  rmSync(dirname(exe), { recursive: true, force: true });
}

/** The scenario's description in a file of a fresh temporary directory, and how to remove it. */
function tempSpec(scn: Scenario): { spec: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'dcbkit-ns3-spec-'));
  const spec = join(dir, 'scenario.spec');
  writeFileSync(spec, ns3Spec(scn));
  return { spec, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Runs the peer program on a scenario; its JSON result. */
export function runNs3(exe: string, scn: Scenario): Ns3Result {
  const { spec, remove } = tempSpec(scn);
  try {
    return JSON.parse(execFileSync(exe, [spec], { encoding: 'utf8' })) as Ns3Result;
  } finally {
    remove();
  }
}

/** runNs3 in a child process that runs while the caller works (dcbkit in this process). */
export function runNs3Async(exe: string, scn: Scenario): Promise<Ns3Result> {
  const { spec, remove } = tempSpec(scn);
  return new Promise<Ns3Result>((done, fail) => {
    execFile(exe, [spec], { encoding: 'utf8' }, (err, stdout, stderr) => {
      if (err) fail(new Error(`${exe} ${spec}: ${err.message}\n${stderr}`));
      else done(JSON.parse(stdout) as Ns3Result);
    });
  }).finally(remove);
}
