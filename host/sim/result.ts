// The result of one simulation run (`dcbkit run`): a summary of counters and figures plus sampled
// time series. This is the interface between the engine (host/sim/run.ts) and the reports
// (host/report/report.ts: CSV, SVG plots, HTML). Times are integer picoseconds, sizes bytes, rates
// bit/s (docs/design.md §2). Extend only compatibly: add optional fields, rename nothing.

/**
 * One sampled quantity over time; `t_ps[i]` is the end of sampling interval i and `values[i]` the
 * sample. A run preallocates both for its sample count (duration / sample, known before it starts):
 * every series of one run shares one `t_ps` array, and read them by index and length only.
 */
export interface SimSeries {
  name: string;
  kind: 'queue' | 'rate' | 'pause' | 'throughput' | 'credit' | 'other';
  unit: string;
  /** The port, flow or node the series belongs to (`sw0:p3`, `flow 2`, `h1`). */
  entity: string;
  /** The priority of a per-(port, priority) series (pause series); absent otherwise. */
  priority?: number;
  /** The traffic class of a per-(port, TC) queue series; absent on a port's total. */
  tc?: number;
  t_ps: Float64Array;
  values: Float64Array;
}

export interface SimFlowResult {
  id: number;
  src: string;
  dst: string;
  priority: number;
  bytes_sent: number;
  bytes_delivered: number;
  start_ps: number;
  /** Flow completion time (last byte delivered - start), null when the flow did not finish or has no size. */
  fct_ps: number | null;
  /** Payload bytes delivered within the window, x 8 / window (docs/reports.md "Throughput"). */
  throughput_bps: number;
  /** The measurement window: start to completion (finished sized flow) or to stop / the run's end, ps. */
  window_ps?: number;
  /** Marked by the scenario as a victim flow (not itself part of the congestion). */
  victim?: boolean;
  /** `none` (open-loop source) or `roce` (go-back-N queue pair). */
  transport?: 'none' | 'roce';
  /** Bytes the application received (roce: in order) x 8 / window; equals throughput_bps. */
  goodput_bps?: number;
  /** Frame bytes sent again (roce go-back-N); 0 for transport none. */
  retransmitted_bytes?: number;
  /** roce: retransmission timeouts at the sender and NACKs from the receiver. */
  timeouts?: number;
  nacks?: number;
  /**
   * The completion time of the flow alone on its path (its bytes at the path's slowest link, one frame
   * on each other link, every propagation delay), and fct_ps over it; null without fct_ps.
   */
  ideal_fct_ps?: number | null;
  slowdown?: number | null;
}

export interface SimSummary {
  scenario: { name: string; seed: number; duration_ps: number; sample_ps: number };
  /** How the run ran: wall time, speed and threads (the only fields that differ between runs of one scenario). */
  sim: { packet_hops: number; events: number; wall_s: number; packet_hops_per_s: number; threads: number };
  drops: { lossless: number; lossy: number; by_priority: number[] };
  pfc: {
    /** XOFF sent per priority (a PFC frame pausing two priorities counts twice), refreshes included. */
    xoff_frames: number;
    /** XOFF sent from the not-paused state: the pause episodes; one per storm source that began. */
    xoff_episodes: number;
    /** Deprecated: the old name of xoff_frames (run.json lists it under `deprecated`). */
    xoff_sent?: number;
    xon_sent: number; paused_ps_by_priority: number[]; pause_frames: number;
    /** Paused time of each port's transmitter per priority, ports with any pause only, in port order. */
    paused_ps_by_port?: { port: string; paused_ps_by_priority: number[] }[];
  };
  qcn: { cnms: number };
  ets: {
    max_share_error_pp: number | null;
    per_tc: { port: string; tc: number; configured_pct: number; measured_pct: number }[];
  };
  fairness: { jain: number | null };
  /**
   * Goodput of all flows per second of run (goodput_bps) and over the traffic's active window (first
   * flow start to last delivery); per port that sent anything, wire bytes per second of run of data
   * frames (the TC queues: data, roce ACK/NACK/CNP) and control frames (PFC, PAUSE, grants, CNMs),
   * their sum against the rate (utilisation_pct) and the busy share of the port's active window.
   * total_bps and sent_bps are the deprecated names of goodput_bps and data_wire_bps.
   */
  throughput?: {
    goodput_bps: number; active_from_ps: number; active_to_ps: number; active_goodput_bps: number;
    total_bps?: number;
    links: {
      port: string; rate_bps: number; utilisation_pct: number; sent_bps?: number;
      data_wire_bps: number; control_wire_bps: number; wire_bps: number;
      active_from_ps: number; active_to_ps: number; active_utilisation_pct: number;
    }[];
  };
  flows: SimFlowResult[];
  watchdog: {
    t_ps: number;
    port: string;
    priority: number;
    event: 'storm_detected' | 'storm_restored';
    action: string;
  }[];
  /**
   * The first lossless deadlock seen (host/analysis/deadlock-monitor.ts): a cycle of the dependency graph
   * whose ports were all paused, with frames waiting and none sent, for at least the scenario's
   * deadlock_threshold; null when none.
   */
  deadlock: { detected_at_ps: number; priority: number; ports: string[] } | null;
}

/** Summary fields renamed in this release -> their new names; the old ones stay one release (run.json says so). */
export const DEPRECATED_FIELDS: Record<string, string> = {
  'pfc.xoff_sent': 'pfc.xoff_frames',
  'throughput.total_bps': 'throughput.goodput_bps',
  'throughput.links[].sent_bps': 'throughput.links[].data_wire_bps',
};

export interface SimResult {
  summary: SimSummary;
  series: SimSeries[];
}
