// Deadlock detection during a run (docs/deadlock.md, "In the simulator").
//
// At every sample the driver (run.ts) reports, for each port in a lossless priority's dependency
// graph (deadlock.ts), whether it was stuck for the whole interval: paused on that priority
// throughout, frames of the priority's TC waiting, and no byte of that TC sent. A port stays stuck
// while consecutive intervals are; once every port of a cycle of the dependency graph has been stuck
// for at least the threshold, the ports pause each other with nothing leaving: a deadlock. The first
// such cycle is reported with the sample time at which it qualified.
//
// State: per (priority, graph vertex) the time its current stuck streak began (-1 when not stuck).
// Invariant: a reported cycle is an elementary cycle of the analyser's graph, so the simulator and
// `analyze deadlock` name the same ports.
import { elementaryCycles, stronglyConnected, type DependencyGraph } from './deadlock.js';

export interface DeadlockFound { detected_at_ps: number; priority: number; ports: string[] }

export interface PortProbe {
  /** Picoseconds port `port` was paused on priority `pr` up to `t`. */
  pausedPs(port: number, t: number, pr: number): number;
  /** Wire bytes port `port` has sent from TC `tc` so far. */
  txBytes(port: number, tc: number): number;
  /** Frame bytes queued at port `port` in TC `tc` now. */
  queuedBytes(port: number, tc: number): number;
}

interface Watched { priority: number; port: number; tc: number; pausedLast: number; txLast: number; since: number }

export class DeadlockMonitor {
  private readonly watched: Watched[] = [];
  found: DeadlockFound | null = null;

  constructor(
    private readonly graphs: Map<number, DependencyGraph>,
    private readonly portName: (port: number) => string,
    tcOf: (port: number, pr: number) => number,
    private readonly thresholdPs: number,
  ) {
    for (const [priority, g] of [...graphs].sort((a, b) => a[0] - b[0])) {
      for (const scc of stronglyConnected(g)) {
        if (scc.length < 2) continue; // only ports on a cycle can deadlock
        for (const port of scc) this.watched.push({ priority, port, tc: tcOf(port, priority), pausedLast: 0, txLast: 0, since: -1 });
      }
    }
  }

  get active(): boolean {
    return this.found === null && this.watched.length > 0;
  }

  /** The interval (t - dt, t] has been simulated: update every streak, then look for a stuck cycle. */
  observe(t: number, dt: number, probe: PortProbe): void {
    if (!this.active) return;
    const due = new Map<number, Set<number>>(); // priority -> ports stuck for at least the threshold
    for (const w of this.watched) {
      const paused = probe.pausedPs(w.port, t, w.priority);
      const tx = probe.txBytes(w.port, w.tc);
      const stuck = paused - w.pausedLast >= dt && tx === w.txLast && probe.queuedBytes(w.port, w.tc) > 0;
      w.pausedLast = paused;
      w.txLast = tx;
      if (!stuck) { w.since = -1; continue; }
      if (w.since < 0) w.since = t - dt;
      if (t - w.since >= this.thresholdPs) {
        let s = due.get(w.priority);
        if (!s) due.set(w.priority, (s = new Set()));
        s.add(w.port);
      }
    }
    for (const [priority, ports] of due) {
      const g = this.graphs.get(priority)!;
      const sub: DependencyGraph = new Map();
      for (const [a, out] of g) {
        if (!ports.has(a)) continue;
        sub.set(a, new Map([...out].filter(([b]) => ports.has(b))));
      }
      for (const scc of stronglyConnected(sub)) {
        if (scc.length < 2) continue;
        let cycle: number[] | null = null;
        elementaryCycles(sub, scc, 1, (c) => { cycle = c; });
        if (cycle) {
          this.found = { detected_at_ps: t, priority, ports: (cycle as number[]).map(this.portName) };
          return;
        }
      }
    }
  }
}
