// The scenario format (docs/sim.md): the zod schema of a scenario document (shapes and units, every
// problem a `path: rule`), its JSON Schema for editors, and the normalised types checkScenario
// (scenario.ts) returns, with every quantity in integer base units (ps, bytes, bit/s).
import { z } from 'zod';
import { metres, sizeBytes, speedBps, timePs } from './units.js';
import type { DcbView } from './dcb.js';
import { configJsonSchema } from '../config/json-schema.js';
import type { QcnRpConfig } from '../config/index.js';
import { switchTimingShape, timingSchema, type NormTiming } from './timing.js';

export const FLOW_CONTROL_MODES = ['lossy', 'pfc', 'pause', 'credit'] as const;
export type FlowControlMode = (typeof FLOW_CONTROL_MODES)[number];

const name = z.string().regex(/^[A-Za-z0-9_.-]+$/, 'a name uses letters, digits, _ . -');
/** Flow-control mode of each priority 0..7 (scenario-wide or per node). */
const flowControl = z.array(z.enum(FLOW_CONTROL_MODES)).length(8, 'flow_control lists 8 priorities');
const priority = z.number().int().min(0, 'a priority is 0..7').max(7, 'a priority is 0..7');
/** A DCB config (the core config schema of host/config; validated by validateDcb) or a profile name. */
const dcbRef = z.union([name, z.record(z.string(), z.unknown())]);

const linkParams = z.strictObject({
  speed: speedBps.optional(),
  /** Cable length; propagation 5 ns/m (docs/design.md §4.1). */
  cable: metres.optional(),
  /** One-way propagation delay, instead of a cable length. */
  delay: timePs.optional(),
});

const bufferSchema = z.strictObject({
  /** Total packet buffer of the switch, shared by all ports. */
  size: sizeBytes,
  /** Headroom per lossless (port, priority group): `auto` = the headroom calculator for the link. */
  headroom: z.union([z.literal('auto'), sizeBytes]).default('auto'),
  /** Ingress PG occupancy that triggers XOFF; default: shared pool / (ports x lossless PGs), at least 2 MTU. */
  xoff: sizeBytes.optional(),
  /**
   * The bytes one lossless (port, priority group) may hold, whatever the mechanism, instead of
   * xoff: a credit receiver grants from all of it; XON/XOFF (PFC, PAUSE) keeps min(pg_buffer,
   * headroom) as headroom (headroom = what losslessness needs, default auto) and the rest below
   * the XOFF threshold (docs/sim.md, "One buffer for every mechanism").
   */
  pg_buffer: sizeBytes.optional(),
  /** XON is sent when the PG occupancy falls to xoff - xon_offset (default 2 x MTU). */
  xon_offset: sizeBytes.optional(),
  /** Tail-drop limit of one lossy egress queue (default: the shared pool). */
  lossy_queue: sizeBytes.optional(),
});

const frames = z.union([
  z.number().int().min(64, 'frames are at least 64 bytes'),
  z.strictObject({ uniform: z.tuple([z.number().int().min(64), z.number().int().min(64)]) }),
  z.strictObject({
    mix: z.array(z.strictObject({ bytes: z.number().int().min(64), weight: z.number().int().min(1) })).min(1).max(16),
  }),
]);

const flowCommon = {
  priority,
  start: timePs.default(0),
  stop: timePs.optional(),
  /** Bytes to send; absent = send until the end of the run. */
  size: sizeBytes.optional(),
  /** Offered rate; absent = as fast as the host link and QCN allow. */
  rate: speedBps.optional(),
  /** Frame size (bytes incl. FCS) or a distribution. */
  frames: frames.default(1500),
  victim: z.boolean().optional(),
  /** Gaps of the arrival process at `rate`: constant, or exponential (Poisson arrivals) from the flow's own stream. */
  interarrival: z.enum(['constant', 'poisson']).default('constant'),
  /** The start is delayed by a uniform draw in [0, start_jitter) from the flow's own stream. */
  start_jitter: timePs.optional(),
  /** The flow's share among its host's flows of one TC (deficit round robin quantum = this x the largest frame). */
  weight: z.number().int().min(1, 'a weight is a whole number from 1 to 1000').max(1000, 'a weight is a whole number from 1 to 1000').default(1),
  /** `none`: an open-loop source (the default); `roce`: one RC queue pair with go-back-N (docs/sim.md). */
  transport: z.enum(['none', 'roce']).optional(),
};

const roceSchema = z.strictObject({
  /** The receiver ACKs every this many in-order frames (and the message's last). */
  ack_every: z.number().int().min(1, 'ack_every is a whole number from 1').max(65536, 'ack_every is at most 65536').default(1),
  /** Retransmission timeout; default 4.096 us x 2^8 (the InfiniBand local ACK timeout, exponent 8). */
  rto: timePs.default(4_096_000 * 256),
  /** Priority of ACK, NACK and CNP frames; default the flow's own. */
  ack_priority: priority.optional(),
});

const watchdogSchema = z.strictObject({
  detection_time: timePs.default(200e9),
  restoration_time: timePs.default(400e9),
  poll_interval: timePs.default(200e9),
  action: z.enum(['drop', 'forward', 'alert']).default('drop'),
});

const qcnSchema = z.strictObject({
  enable: z.boolean().default(true),
  /** CP/RP profile: 802.1Qau pseudo-code (docs/design.md §4.4-4.5) or DCQCN; default: qcn.rp.profile of the config. */
  profile: z.enum(['qau-pc', 'dcqcn']).optional(),
  q_eq: sizeBytes.optional(),
  w: z.number().int().min(1).max(16).optional(),
  /** RP parameters (docs/design.md §4.5 names). */
  bc_bytes: sizeBytes.optional(),
  timer: timePs.optional(),
});

export const scenarioSchema = z.strictObject({
  kind: z.literal('scenario').optional(),
  name: name.default('scenario'),
  seed: z.number().int().min(0).max(0xffffffff).default(1),
  duration: timePs,
  /** Sampling interval of the time series (default duration / 200). */
  sample: timePs.optional(),
  /** How long a cycle of lossless ports must stay paused with nothing sent to count as a deadlock (default 1 ms). */
  deadlock_threshold: timePs.default(1e9),
  /**
   * Port clock offsets and switch forwarding latency (docs/sim.md, "Timing"): `real` (the default:
   * +-100 ppm clocks, 300 ns switches), `ideal` (exact nominal timing, as ns-3 and htsim have) or
   * {clock_ppm, switch_latency, switch_latency_jitter}.
   */
  timing: timingSchema,
  /**
   * Flow-control mode of each priority 0..7 for every node without its own `flow_control`; default:
   * each node's DCB config (pause for pause.enable, pfc for pfc.enable, credit for credit.priorities, else lossy).
   */
  flow_control: flowControl.optional(),
  defaults: z
    .strictObject({
      link: linkParams.optional(),
      dcb: dcbRef.optional(),
      buffer: bufferSchema.optional(),
      /**
       * The NIC moves frames from its flows into a TC queue while it holds fewer than host_queue bytes;
       * default 0: only into an empty queue, one frame ahead of the wire, as a NIC's transmit scheduler
       * dispatches one packet per opportunity (a deeper queue delays what its rate limiters decide).
       */
      host_queue: sizeBytes.optional(),
    })
    .default({}),
  dcb_profiles: z.record(name, z.record(z.string(), z.unknown())).default({}),
  hosts: z.array(z.strictObject({ name, dcb: dcbRef.optional(), flow_control: flowControl.optional() })).min(1, 'a scenario needs hosts'),
  switches: z
    .array(z.strictObject({
      name, dcb: dcbRef.optional(), flow_control: flowControl.optional(), buffer: bufferSchema.optional(), watchdog: watchdogSchema.optional(),
      ...switchTimingShape,
    }))
    .default([]),
  /**
   * `a_dcb` / `b_dcb`: the DCB config of the port at end a / b (a config or a profile name), instead
   * of its node's; only the per-port settings may differ (PORT_FIELDS in checkScenario).
   */
  links: z
    .array(z.strictObject({ a: name, b: name, ...linkParams.shape, a_dcb: dcbRef.optional(), b_dcb: dcbRef.optional() }))
    .min(1, 'a scenario needs links'),
  qcn: qcnSchema.optional(),
  watchdog: watchdogSchema.optional(),
  /** Transport of every flow without its own `transport` key (default none). */
  transport: z.enum(['none', 'roce']).default('none'),
  /** Parameters of the roce transport. */
  roce: roceSchema.default({ ack_every: 1, rto: 4_096_000 * 256 }),
  traffic: z
    .strictObject({
      flows: z.array(z.strictObject({
        src: name, dst: name, ...flowCommon,
        /** The flow's route, node by node from src to dst (each consecutive pair a link), instead of ECMP. */
        path: z.array(name).min(2, 'a path lists at least src and dst').optional(),
      })).default([]),
      incast: z.array(z.strictObject({ senders: z.array(name).min(1), dst: name, ...flowCommon })).default([]),
      all_to_all: z.array(z.strictObject({ hosts: z.array(name).min(2), ...flowCommon })).default([]),
      /** Bursts: send for `on_time`, pause for `off_time`, repeat (old names `on`/`off`: renameDeprecatedKeys). */
      on_off: z
        .array(z.strictObject({ src: name, dst: name, on_time: timePs, off_time: timePs, ...flowCommon }))
        .default([]),
      /** A misbehaving NIC that sends XOFF for `priority` every `interval` (default pause_time / 2). */
      pfc_storm: z
        .array(z.strictObject({ host: name, priority, start: timePs.default(0), stop: timePs.optional(), interval: timePs.optional() }))
        .default([]),
    })
    .default({ flows: [], incast: [], all_to_all: [], on_off: [], pfc_storm: [] }),
  /** Which series to sample: ports (`sw0>h1`) and flows (index); default: up to 64 of each. */
  series: z.strictObject({ ports: z.array(z.string()).optional(), flows: z.array(z.number().int()).optional() }).optional(),
});

export type ScenarioInput = z.input<typeof scenarioSchema>;
/** A scenario as the schema returns it (before checkScenario). */
export type Parsed = z.output<typeof scenarioSchema>;

/** Frame-size distribution: kind 0 fixed(a), 1 uniform[a, b], 2 weighted mix. */
export interface FrameDist { kind: 0 | 1 | 2; a: number; b: number; mix: { bytes: number; weight: number }[] }

export interface NormFlow {
  id: number; src: number; dst: number; priority: number; start_ps: number; stop_ps: number;
  size: number; rate_bps: number; on_ps: number; off_ps: number; frames: FrameDist; victim: boolean;
  interarrival: 'constant' | 'poisson'; start_jitter_ps: number; weight: number;
  /** Transport (the flow's key, else the scenario's) and, for roce, its parameters. */
  transport: 'none' | 'roce'; ack_every: number; rto_ps: number; ack_priority: number;
  /** Pinned route: node ids from src to dst (host/sim/routes.ts gives it its own route column). */
  path?: number[];
}
export interface NormPort {
  id: number; node: number; peer: number; peerNode: number; name: string; bps: number; psPerByte: number; delay_ps: number; cable_m: number;
  /** The port's DCB config: the link's a_dcb / b_dcb, else its node's (same flow control, MTU and qcn.rp). */
  dcb: DcbView;
  /** The port's QCN congestion-point parameters (its dcb's qcn.cp, the scenario's qcn keys overriding). */
  qcn: NodeQcn;
}
/** QCN parameters of one node: its reaction points (hosts) and congestion points (switch egress queues). */
export interface NodeQcn {
  /** qcn.rp of the node's config (of the fabric's profile's defaults when its own is the other
   *  profile), bc_bytes and timer_ps overridden by the scenario's qcn keys. */
  rp: QcnRpConfig;
  q_eq: number; w: number; quantiser: 'linear' | 'msb'; kmin: number; kmax: number; pmax: number;
}
export interface NormNode {
  id: number; name: string; isHost: boolean; dcb: DcbView; ports: number[];
  /** Flow-control mode of each priority on every port of this node. */
  modes: FlowControlMode[];
  qcn: NodeQcn;
  buffer: { size: number; headroom: number[]; xoff: number; xon: number; lossyQueue: number } | null;
  /** Forwarding latency and its jitter span, ps (switches; 0 on hosts). */
  latency_ps: number; latency_jitter_ps: number;
  watchdog: z.output<typeof watchdogSchema> | null;
}
export interface Scenario {
  name: string; seed: number; duration_ps: number; sample_ps: number; deadlock_threshold_ps: number;
  timing: NormTiming;
  /** Per priority, the mode every node uses, or 'mixed' when nodes differ (see NormNode.modes). */
  modes: (FlowControlMode | 'mixed')[]; nodes: NormNode[]; ports: NormPort[]; flows: NormFlow[];
  storms: { host: number; priority: number; start_ps: number; stop_ps: number; interval_ps: number }[];
  /** One profile for the whole fabric; the parameters are per node (NormNode.qcn). */
  qcn: { enable: boolean; profile: 'qau-pc' | 'dcqcn'; priorities: number[] };
  hostQueue: number; maxFrame: number; minFrame: number;
  seriesPorts: number[]; seriesFlows: number[];
}

type Json = Record<string, unknown>;

/**
 * JSON Schema of the scenario format (input side). The embedded DCB configs (defaults.dcb, a node's
 * dcb, a link end's a_dcb / b_dcb, dcb_profiles.*) are checked by the config rules at run time, so the zod schema leaves them
 * open; here they point at the config's own JSON Schema ($defs.dcbConfig), so an editor checks
 * them too. A node's dcb and a port's (links[].a_dcb / b_dcb) may also be the name of a profile.
 */
export function scenarioJsonSchema(): unknown {
  const s = z.toJSONSchema(scenarioSchema, { io: 'input', unrepresentable: 'any' }) as Json;
  const { $schema: _drop, ...config } = configJsonSchema();
  const ref = { $ref: '#/$defs/dcbConfig' };
  const refOrProfile = { anyOf: [{ type: 'string', pattern: '^[A-Za-z0-9_.-]+$', description: 'name of a profile in dcb_profiles' }, ref] };
  const props = s.properties as Record<string, Json>;
  ((props.defaults.properties as Record<string, Json>).dcb) = refOrProfile;
  for (const list of ['hosts', 'switches']) ((props[list].items as Json).properties as Record<string, Json>).dcb = refOrProfile;
  const linkProps = (props.links.items as Json).properties as Record<string, Json>;
  linkProps.a_dcb = refOrProfile;
  linkProps.b_dcb = refOrProfile;
  props.dcb_profiles.additionalProperties = ref;
  return { ...s, $defs: { ...(s.$defs as Json | undefined), dcbConfig: config } };
}
