// The memory map of the simulator's arena (assembly/sim/): the header the host writes, the node, port,
// packet, flow, counter, storm, partition, ring and capture records, by byte offset. Same conventions
// as assembly/layout.ts, the kernels' records, which the port and flow records here embed (PFC, ETS,
// credit, QCN): every offset derived from the one before it, i64 fields 8-byte aligned, and the
// guards at the end checked at compile time. The host reads these constants from the Wasm exports
// (host/sim/fabric.ts) and scripts/layout-h.mjs writes them into the C header with the kernels'.

import { CREDIT_SIZE, DCQCN_CP_SIZE, DCQCN_NP_SIZE, ETS_BYTES, PFC_SIZE, QCN_CP_SIZE, QCN_RP_SIZE } from '../layout';

/** Field sizes, bytes. */
const I32: i32 = 4;
const I64: i32 = 8;

// The arena is reserved once (simReserve) after the static data; the host writes the header and
// the tables, then simInit reads the header. Records (byte offsets):
//
// Header (i32 unless noted): counts, table addresses, global parameters.
export const SH_NPORTS: i32 = 0;
export const SH_NNODES: i32 = SH_NPORTS + I32;                // nodes (hosts and switches)
export const SH_NFLOWS: i32 = SH_NNODES + I32;                // flows
export const SH_NHOSTS: i32 = SH_NFLOWS + I32;                // route row stride: destination hosts, then one column per pinned flow (host/sim/routes.ts)
export const SH_POOL_CAP: i32 = SH_NHOSTS + I32;              // packet records in the pool
export const SH_HEAP_CAP: i32 = SH_POOL_CAP + I32;            // event-queue entries (all four queues)
export const SH_PORTS: i32 = SH_HEAP_CAP + I32;               // address of the port records
export const SH_NODES: i32 = SH_PORTS + I32;                  // address of the node records
export const SH_FLOWS: i32 = SH_NODES + I32;                  // address of the flow records
export const SH_POOL: i32 = SH_FLOWS + I32;                   // address of the packet pool
export const SH_HEAP: i32 = SH_POOL + I32;                    // address of the event heaps
export const SH_ROUTE: i32 = SH_HEAP + I32;                  // i32[nSwitches * nHosts]: offset into SH_NH (in i32 words)
export const SH_NH: i32 = SH_ROUTE + I32;                    // i32 words: count, port, port, ...
export const SH_MIX: i32 = SH_NH + I32;                      // i32 pairs: frame bytes, cumulative weight
export const SH_COUNTERS: i32 = SH_MIX + I32;                 // address of the counters (SC_*)
export const SH_WDLOG: i32 = SH_COUNTERS + I32;               // address of the watchdog log (SW_SIZE entries)
export const SH_WDLOG_CAP: i32 = SH_WDLOG + I32;              // watchdog log entries
export const SH_STORMS: i32 = SH_WDLOG_CAP + I32;             // address of the storm sources (SS_*)
export const SH_NSTORMS: i32 = SH_STORMS + I32;               // storm sources
export const SH_QCN_MASK: i32 = SH_NSTORMS + I32;            // priorities with a congestion point / reaction point
export const SH_QCN_PROFILE: i32 = SH_QCN_MASK + I32;        // 0 qau-pc, 1 dcqcn (one profile per fabric)
export const SH_SEED: i32 = SH_QCN_PROFILE + I32;             // run seed of every random stream
export const SH_HOSTQ: i32 = SH_SEED + I32;                  // bytes a host TC queue holds before its flows wait
export const SH_WD_POLLS: i32 = SH_HOSTQ + I32;        // address of i64[SH_NWD_POLLS]: the distinct watchdog poll intervals, ps
export const SH_NWD_POLLS: i32 = SH_WD_POLLS + I32;           // distinct watchdog poll intervals
export const SH_PATHS: i32 = SH_NWD_POLLS + I32;            // address of i32[SH_NFLOWS * SH_PATH_LEN]: each flow's egress port at its
                                                             //   1st, 2nd, ... switch (filled by simInit from the routes; mmu.ts)
export const SH_PATH_LEN: i32 = SH_PATHS + I32;              // row stride of SH_PATHS: the most switches any flow's frames cross
export const SH_CREDIT_AGING: i32 = ((SH_PATH_LEN + I32) + 7) & ~7; // i64 ps (0 = credits never age)
export const SH_MAX_FRAME: i32 = SH_CREDIT_AGING + I64;          // largest frame of the fabric (MTU, bytes): every port's ETS quanta
export const SH_REV_PATHS: i32 = SH_MAX_FRAME + I32;         // 1: SH_PATHS also holds, in rows nFlows + f, each roce flow's path
                                                             //   back from its destination (ACKs, NACKs, CNPs), traced by simInit
export const SH_ETS_METER: i32 = SH_REV_PATHS + I32;         // address of the ETS share meter's table (EM_SIZE per measured port)
export const SH_NETS_METER: i32 = SH_ETS_METER + I32;        // ports it measures
export const SH_ETS_MIN_BYTES: i32 = SH_NETS_METER + I32;    // wire bytes an interval must carry to count (8 largest frames)
export const SH_CAPTURE: i32 = SH_ETS_MIN_BYTES + I32;       // address of the capture rings (CG_SIZE per partition; assembly/sim/capture.ts), 0 = none
export const SH_SIZE: i32 = ((SH_CAPTURE + I32) + 7) & ~7;
// Flow-control modes and watchdog parameters are per port (SP_MODES, SP_WD_*); the PFC, congestion
// point and credit parameters sit in the port's kernel records (SP_PFC, and the tables SP_CP_AT and
// SP_CREDIT_AT point to) and the reaction-point parameters in each flow's RP record (SF_RP), written
// by host/core/kernels/* before simInit calls each kernel's configure: each from its own node's config.
/** Counter width k of every simulator credit record (16-bit counters, IB-style). */
export const SIM_CREDIT_BITS: i32 = 16;
/** Entries of the event queue's FIFO of in-order frame arrivals (assembly/sim/events.ts), at most
 * the packet records': enough for every frame in flight of a k = 8 fat tree (about 1,500) and more; a
 * push into a full FIFO goes to the heap, so this bounds memory, not correctness. */
export const SIM_ARR_FIFO_MAX: i32 = 4096;

// Node record (i32): kind, ordinal, shared pool, lossy queue limit.
export const SN_KIND: i32 = 0;        // 0 host, 1 switch
export const SN_ORD: i32 = SN_KIND + I32;                    // ordinal among hosts or among switches
export const SN_SHARED_SIZE: i32 = SN_ORD + I32;              // shared pool of a switch, bytes (buffer minus reserved headroom)
export const SN_SHARED_USED: i32 = SN_SHARED_SIZE + I32;      // bytes of admitted frames still in the switch
export const SN_LOSSY_Q: i32 = SN_SHARED_USED + I32;     // bytes a lossy egress queue may hold
export const SN_SIZE: i32 = ((SN_LOSSY_Q + I32) + 7) & ~7;

// Port record: one per link end; egress queues per TC, credit counters, watchdog state, and the
// records of the kernels it runs: ETS (transmission selection), PFC (both sides of the port:
// ingress accounting of frames received here, pause timers of this transmitter), and the addresses
// of its credit receivers (one per priority) and congestion points (one QCN CP per TC), if any.
// The port's own fields are grouped by cache line (the record size is a multiple of 64, so records
// start on a line) after what a frame's hop reads: line 0 what both the ingress port (node, flags,
// modes) and the egress port read for every frame; line 1 the rest of the egress port's per-frame
// scalars beside the TCs' head-frame sizes (ETS selection); then one 16-byte queue record per TC,
// so a frame's enqueue and dequeue touch one line; the transmitted-bytes counters; then the fields
// that only some frames, the watchdog's polls or set-up read.
//
// Line 0: every frame, at both ends of its hop.
export const SP_NODE: i32 = 0;
export const SP_PEER: i32 = SP_NODE + I32;                    // port at the other end of the link
export const SP_PPB: i32 = SP_PEER + I32;                    // ps per byte
export const SP_FLAGS: i32 = SP_PPB + I32;                   // bit 0 host port, bit 1 a transmitter-done event is queued, bit 2 its peer is in another partition
export const SP_FLAG_REMOTE_PEER: i32 = 4;                      // SP_FLAGS bit 2 (partitioned runs, assembly/sim/partition.ts)
export const SP_FLAG_CAPTURE: i32 = 16;                         // SP_FLAGS bit 4: the port's departures are recorded (assembly/sim/capture.ts)
export const SP_DELAY: i32 = SP_FLAGS + I32;                 // i64 one-way propagation, ps
export const SP_BUSY_UNTIL: i32 = SP_DELAY + I64;            // i64 the frame on the wire ends (transmitter idle from then)
export const SP_BACKLOG: i32 = SP_BUSY_UNTIL + I64;          // TC bitmap of non-empty egress queues
export const SP_CTRL_HEAD: i32 = SP_BACKLOG + I32;           // control frames (PFC, PAUSE, CNM, grants) go first
export const SP_FWD_JITTER: i32 = SP_CTRL_HEAD + I32;        // forwarding jitter of the switch it sends into: each frame adds a uniform draw in [0, this) ps
export const SP_MODES: i32 = SP_FWD_JITTER + I32;            // flow-control mode of priority n in bits 4n..4n+3: 0 lossy 1 pfc 2 pause 3 credit
export const SP_CREDIT_MASK: i32 = SP_MODES + I32;           // credit priorities
export const SP_SINK_PRIOS: i32 = SP_CREDIT_MASK + I32;      // priorities whose data frames need no arrival event (peer is a host; docs/sim.md)
export const SP_WD_DROP: i32 = SP_SINK_PRIOS + I32;          // priorities the watchdog drops
export const SP_UNSAT: i32 = SP_WD_DROP + I32;               // set when a weighted ETS TC was not eligible at a selection
// Line 1: the egress port's other per-frame fields.
export const SP_HEADWIRE: i32 = SP_UNSAT + I32;              // i32[8] wire bytes of each TC's head frame (ETS selection)
export const SP_PAUSED_VALID: i32 = SP_HEADWIRE + 8 * I32;   // i64 SP_PAUSED_MASK holds before this time (0: recompute; link.ts pausedPrios)
export const SP_FWD_LAST: i32 = SP_PAUSED_VALID + I64;       // i64 latest arrival given a forwarding latency (keeps the link FIFO)
export const SP_PAUSED_MASK: i32 = SP_FWD_LAST + I64;        // priorities the PFC kernel's blocked mask pauses, valid until SP_PAUSED_VALID
// Fabric timing (assembly/sim/timing.ts; all 0 under `timing: ideal`; SP_FWD_JITTER, SP_FWD_LAST
// and SP_FWD_RNG are its other fields).
export const SP_PPB_FRAC: i32 = SP_PAUSED_MASK + I32;        // u32 fraction (/2^32) of ps per byte at the port's clock
export const SP_PPB_REM: i32 = SP_PPB_FRAC + I32;            // u32 serialisation remainder carried to the next frame (/2^32 ps)
export const SP_FWD_LAT: i32 = SP_PPB_REM + I32;             // forwarding latency of the switch this port sends into, ps (0: a host)
// Lines 2-5: one queue record per TC (SQ_*), TC t's at SP_TCQ + t * SQ_SIZE, two to a line: a frame's
// enqueue, dequeue and its TC's transmitted-bytes count touch one line.
export const SP_TCQ: i32 = SP_FWD_LAT + I32;
export const SQ_HEAD: i32 = 0;                                  // packet index, -1 empty
export const SQ_TAIL: i32 = SQ_HEAD + I32;                      // packet index, -1 empty
export const SQ_BYTES: i32 = SQ_TAIL + I32;                     // frame bytes queued
export const SQ_NIC_RING: i32 = SQ_BYTES + I32;                 // host port: the last flow of the TC's ring of flows ready to send
                                                                //   (SF_RING_NEXT links them in a circle), -1 none
export const SQ_TX_BYTES: i32 = SQ_NIC_RING + I32;              // i64 wire bytes the TC has sent (the summary, the ETS meter)
export const SQ_SIZE: i32 = SQ_TX_BYTES + I64 + I64;            // 32: 8 bytes spare keep each record within one line
// Line 6: fields some frames read (a switch's jitter draw, the sink list of a port whose peer is a
// host, control frames), pause and wake-up state, set-up's.
export const SP_FWD_RNG: i32 = SP_TCQ + 8 * SQ_SIZE;        // xorshift32 state of the peer port's stream (its draws after its clock)
export const SP_SINK_HEAD: i32 = SP_FWD_RNG + I32;           // oldest frame of SP_SINK_PRIOS on the wire, -1 none (FIFO: arrivals in send order)
export const SP_SINK_TAIL: i32 = SP_SINK_HEAD + I32;          // newest frame of the sink list, -1 none
export const SP_CTRL_TAIL: i32 = SP_SINK_TAIL + I32;          // last queued control frame, -1 none
export const SP_PRIO_TC: i32 = SP_CTRL_TAIL + I32;            // TC of priority n in bits 3n..3n+2 (pfcBlockedTcs)
export const SP_WD_IGNORE: i32 = SP_PRIO_TC + I32;           // priorities whose pause the watchdog ignores (storm, forward/drop)
export const SP_LOSSLESS: i32 = SP_WD_IGNORE + I32;          // priorities whose mode is not lossy
export const SP_WAKE_AT: i32 = ((SP_LOSSLESS + I32) + 7) & ~7; // i64 pending pause-expiry wake-up
export const SP_REFRESH_EV: i32 = SP_WAKE_AT + I64;          // i64 time of the queued XOFF-refresh event (max = none)
export const SP_TX_CTRL: i32 = SP_REFRESH_EV + I64;          // i64 control frames sent (PFC, PAUSE, grants, CNMs: CONTROL_FRAME_BYTES each)
export const SP_CLOCK_RANGE: i32 = SP_TX_CTRL + I64;         // host: transmit clock offset range, +- parts per 10^9
export const SP_CLOCK_OFFSET: i32 = SP_CLOCK_RANGE + I32;    // the offset drawn at set-up, parts per 10^9 (+ = faster clock)
export const SP_FLAG_TIMED: i32 = 8;                            // SP_FLAGS bit 3: clock offset or forwarding latency on this port
// Counters per priority and the watchdog's state.
export const SP_TX_PKTS: i32 = SP_CLOCK_OFFSET + I32;        // i64[8] data frames sent per priority, counted on a watched port only
export const SP_FLAG_WATCHED: i32 = 32;                         // SP_FLAGS bit 5: the port has a watchdog (SP_WD_POLL >= 0), the one reader of SP_TX_PKTS
export const SP_PFC_RX: i32 = SP_TX_PKTS + 8 * I64;          // i64[8] PFC/PAUSE frames received per priority
export const SP_WD_LEFT: i32 = SP_PFC_RX + 8 * I64;          // i64[8] detection / restoration countdown
export const SP_WD_LAST_TX: i32 = SP_WD_LEFT + 8 * I64;      // i64[8]
export const SP_WD_LAST_RX: i32 = SP_WD_LAST_TX + 8 * I64;   // i64[8]
// Per-port watchdog parameters from the node's own config (written by the host) and the credit receiver.
export const SP_WD_DETECT: i32 = SP_WD_LAST_RX + 8 * I64;    // i64 ps
export const SP_WD_RESTORE: i32 = SP_WD_DETECT + I64;        // i64 ps
export const SP_WD_ACTION: i32 = SP_WD_RESTORE + I64;        // watchdog action: 0 drop, 1 forward, 2 alert
export const SP_WD_POLL: i32 = SP_WD_ACTION + I32;           // index into SH_WD_POLLS, -1 = no watchdog on this port
export const SP_WD_STORM: i32 = SP_WD_POLL + I32;            // priorities in storm state
export const SP_CR_LASTCL: i32 = SP_WD_STORM + I32;          // i32[8] credit receiver: limit of the last grant sent
// Kernel records.
export const SP_ETS: i32 = ((SP_CR_LASTCL + 8 * I32) + 63) & ~63;  // ETS record (ETS_BYTES = 128)
export const SP_PFC: i32 = SP_ETS + ETS_BYTES;               // PFC record (PFC_SIZE)
// Credit receivers and congestion points live out of line, in tables of their own that hold records
// only for the ports that use them (most ports use neither: credit mode is rare, hosts and fabrics
// without QCN have no CP), so the port record stays small and a run faults fewer pages.
export const SP_CREDIT_AT: i32 = SP_PFC + PFC_SIZE;          // address of 8 x credit record (CREDIT_SIZE), one per priority; 0 = none
export const SP_CP_AT: i32 = SP_CREDIT_AT + I32;             // address of 8 x QCN CP record (QCN_CP_SIZE), one per TC; 0 = none
// An odd number of cache lines: records 2^n bytes apart put every port's hot fields in the same few
// sets of a first-level cache (its set index repeats every 4 KiB) and evict one another.
export const SP_SIZE: i32 = ((((SP_CP_AT + I32) + 63) >> 6) | 1) << 6;
/** Bytes of a port's credit table (SP_CREDIT_AT) and of its congestion-point table (SP_CP_AT). */
export const SP_CREDIT_TABLE: i32 = 8 * CREDIT_SIZE;
export const SP_CP_TABLE: i32 = 8 * QCN_CP_SIZE;

// Packet record (pool entry).
export const SK_NEXT: i32 = 0;
export const SK_FLOW: i32 = SK_NEXT + I32;                    // flow of a data frame (CNM / CNP: the flow it is about)
export const SK_BYTES: i32 = SK_FLOW + I32;                   // frame bytes (FCS included, no preamble or IFG)
export const SK_PRIO: i32 = SK_BYTES + I32;                   // priority 0..7 (control frames 7)
export const SK_PORT: i32 = SK_PRIO + I32;                   // receiving port while in flight; ingress port while queued in a switch
export const SK_KIND: i32 = SK_PORT + I32;                   // bits 0..7 kind (PKT_*), 8..15 buffer account, 16 CE mark,
                                                             //   17 roce data (its receiver acts on arrival), 18 travels its flow's path backwards
export const SK_A: i32 = SK_KIND + I32;                      // PFC/grant: priority; CNM: flow
export const SK_B: i32 = SK_A + I32;                         // PFC: quanta; grant: credit limit; CNM: qf; roce data: PSN; ACK/NACK: the PSN expected next
export const SK_ARRIVE_AT: i32 = SK_A;  // i64 data frame in a port's sink list: arrival time at the host (overlays A, B)
export const SK_HOP: i32 = SK_A;        // data frame on its way: switches it has entered, its column in its flow's path row
export const SK_SIZE: i32 = SK_B + I32;

// Entity ids of the simulator's random streams (docs/design.md §2: each entity owns an xorshift32 seeded
// from the run seed and its id). Disjoint ranges, so no two entities share a stream in any fabric
// with fewer than 2^26 ports and 2^29 flows: congestion point of (port p, TC t) = p * 8 + t,
// reaction point of flow f = SIM_ID_RP | f, traffic source of flow f = SIM_ID_SOURCE | f, the draw of
// flow f's start jitter = SIM_ID_START | f, port p = SIM_ID_PORT | p.
export const SIM_ID_RP: i32 = 1 << 29;
export const SIM_ID_SOURCE: i32 = 2 << 29;
export const SIM_ID_START: i32 = 3 << 29;
/** Port p's stream (its clock offset, then the forwarding jitter of frames it receives) = SIM_ID_PORT | p: bit 31, above every other range. */
export const SIM_ID_PORT: i32 = 4 << 29;

// Flow record: traffic source, its place in its host's NIC scheduler, the RoCE transport's sender
// and receiver halves, delivery counters, and its QCN reaction point (assembly/sim/nic.ts,
// assembly/sim/transport.ts).
export const SF_SRC: i32 = 0;                                // source host (node id)
export const SF_DST: i32 = SF_SRC + I32;                     // destination host (node id)
export const SF_PRIO: i32 = SF_DST + I32;                    // priority 0..7 of its frames
export const SF_PORT: i32 = SF_PRIO + I32;                   // the source host's port
export const SF_FKIND: i32 = SF_PORT + I32;                  // frame-size law: 0 fixed (FA), 1 uniform [FA, FB], 2 weighted mix
export const SF_FA: i32 = SF_FKIND + I32;                    // frame bytes (fixed), or the smallest (uniform, mix)
export const SF_FB: i32 = SF_FA + I32;                       // the largest frame bytes (uniform, mix)
export const SF_MIXOFF: i32 = SF_FB + I32;                   // first entry of its mix in SH_MIX (pairs bytes, cumulative weight)
export const SF_MIXN: i32 = SF_MIXOFF + I32;                 // entries in its mix
export const SF_MIXTOT: i32 = SF_MIXN + I32;                 // total weight of its mix
export const SF_RNG: i32 = SF_MIXTOT + I32;                  // u32 xorshift32 state of the traffic source (sizes, Poisson gaps)
export const SF_STATE: i32 = SF_RNG + I32;                   // 0 not in its NIC ring, 1 in its ring, 3 done
export const SF_RING_NEXT: i32 = SF_STATE + I32;             // next flow in the ring of its (host port, TC) (SQ_NIC_RING)
export const SF_DST_ORD: i32 = SF_RING_NEXT + I32;           // route column of its frames (host/sim/routes.ts)
export const SF_SRC_ORD: i32 = SF_DST_ORD + I32;             // route column back to its source (CNMs, ACKs)
export const SF_TC: i32 = SF_SRC_ORD + I32;                  // TC of its priority at the source port
export const SF_QUANTUM: i32 = SF_TC + I32;                  // NIC DRR quantum, wire bytes: largest wire frame x weight
export const SF_DEFICIT: i32 = SF_QUANTUM + I32;             // NIC DRR deficit, wire bytes (0 while out of the ring)
export const SF_TURN: i32 = SF_DEFICIT + I32;                // 1 while its DRR turn runs (the quantum was added)
export const SF_NEXT_BYTES: i32 = SF_TURN + I32;             // bytes of its next new frame, drawn ahead (0 = not drawn)
export const SF_GAPS: i32 = SF_NEXT_BYTES + I32;             // arrival-process gaps: GAPS_CONSTANT or GAPS_POISSON
export const SF_TRANSPORT: i32 = SF_GAPS + I32;              // TRANSPORT_NONE (open loop) or TRANSPORT_ROCE (go-back-N)
export const SF_ACK_PRIO: i32 = SF_TRANSPORT + I32;          // roce: priority of its ACK, NACK and CNP frames
export const SF_ACK_EVERY: i32 = SF_ACK_PRIO + I32;          // roce: the receiver ACKs every this many in-order frames
export const SF_RCV_UNACKED: i32 = SF_ACK_EVERY + I32;       // roce receiver: in-order frames since its last ACK
export const SF_RCV_NACKED: i32 = SF_RCV_UNACKED + I32;      // roce receiver: 1 once it NACKed the current gap
export const SF_TAIL_BYTES: i32 = SF_RCV_NACKED + I32;       // roce: bytes of the message's last frame
export const SF_LAST_WIRE: i32 = SF_TAIL_BYTES + I32;        // wire bytes of the last frame it sent (rate limiter gap)
export const SF_START: i32 = ((SF_LAST_WIRE + I32) + 7) & ~7; // i64 fields from here: ps the source starts (jitter applied by simInit)
export const SF_STOP: i32 = SF_START + I64;                  // i64 ps: the source stops
export const SF_LEFT: i32 = SF_STOP + I64;                   // bytes still to generate, -1 unlimited (transport none)
export const SF_RATE: i32 = SF_LEFT + I64;                   // offered rate, bit/s; 0 = none (as fast as the NIC serves it)
export const SF_ON: i32 = SF_RATE + I64;                     // i64 ps: on part of an on/off period (0: always on)
export const SF_OFF: i32 = SF_ON + I64;                      // i64 ps: off part
export const SF_NEXT_AT: i32 = SF_OFF + I64;                 // i64 ps: its arrival process makes the next frame (offered rate only)
export const SF_FLOW_EV_AT: i32 = SF_NEXT_AT + I64;          // i64 ps: its one queued FLOW event (max = none)
export const SF_LAST_AT: i32 = SF_FLOW_EV_AT + I64;          // i64 ps: its last frame left the rate limiter
export const SF_SENT: i32 = SF_LAST_AT + I64;                // i64 frame bytes sent (retransmissions included)
export const SF_DELIV: i32 = SF_SENT + I64;                  // i64 bytes delivered to the destination (roce: in order)
export const SF_LAST_DELIV: i32 = SF_DELIV + I64;            // i64 ps of the last delivery
export const SF_START_JITTER: i32 = SF_LAST_DELIV + I64;     // i64 ps: the start is delayed by a uniform draw in [0, this)
export const SF_LINE_BPS: i32 = SF_START_JITTER + I64;       // i64
export const SF_RP_EV_AT: i32 = SF_LINE_BPS + I64;           // i64 time of the one queued RP timer event (max = none)
export const SF_RTO: i32 = SF_RP_EV_AT + I64;                // i64 ps: roce retransmission timeout
export const SF_RTO_AT: i32 = SF_RTO + I64;                  // i64 ps: the running retransmission timer's deadline (max = none)
export const SF_RTO_EV_AT: i32 = SF_RTO_AT + I64;            // i64 ps: its one queued RTO event (max = none)
export const SF_NPSN: i32 = SF_RTO_EV_AT + I64;              // i64 roce: frames (PSNs) of the message, -1 unlimited
export const SF_SND_NXT: i32 = SF_NPSN + I64;                // i64 roce sender: next PSN to send
export const SF_SND_UNA: i32 = SF_SND_NXT + I64;             // i64 roce sender: oldest PSN not yet acknowledged
export const SF_SND_MAX: i32 = SF_SND_UNA + I64;             // i64 roce sender: one past the highest PSN ever sent
export const SF_RCV_NXT: i32 = SF_SND_MAX + I64;             // i64 roce receiver: next PSN expected in order
export const SF_RETX_BYTES: i32 = SF_RCV_NXT + I64;          // i64 roce: frame bytes sent again (PSN below SND_MAX)
export const SF_DONE_AT: i32 = SF_RETX_BYTES + I64;          // i64 ps: roce receiver got the whole message in order (0 = not yet)
export const SF_TIMEOUTS: i32 = SF_DONE_AT + I64;            // i64 roce: retransmission timeouts
export const SF_NACKS: i32 = SF_TIMEOUTS + I64;              // i64 roce: NACKs the receiver sent
export const SF_RP: i32 = SF_NACKS + I64;                    // QCN reaction point record (QCN_RP_SIZE = 176)
export const SF_NP: i32 = SF_RP + QCN_RP_SIZE;               // dcqcn notification point at the receiver (DCQCN_NP_SIZE = 16)
export const SF_PACE_BYTES: i32 = SF_NP + DCQCN_NP_SIZE;      // the last rate-limiter gap's wire bytes (0 = none yet)
export const SF_ARR_BYTES: i32 = SF_PACE_BYTES + I32;        // the last constant arrival gap's wire bytes (0 = none yet)
export const SF_PACE_RATE: i32 = SF_ARR_BYTES + I32;         // i64 ... the rate-limiter gap's rate, bit/s
export const SF_PACE_PS: i32 = SF_PACE_RATE + I64;           // i64 ... and the gap: wire bits / rate, ps
export const SF_ARR_PS: i32 = SF_PACE_PS + I64;              // i64 the constant arrival gap at SF_RATE, ps
export const SF_SIZE: i32 = SF_ARR_PS + I64;

// Counters (i64).
export const SC_HOPS: i32 = 0;                                // packet-hops: frames serialised on a link
export const SC_EVENTS: i32 = SC_HOPS + I64;                  // events handled
export const SC_DROP_LOSSLESS: i32 = SC_EVENTS + I64;         // frames dropped on lossless priorities (must stay 0 but for watchdog drops)
export const SC_DROP_LOSSY: i32 = SC_DROP_LOSSLESS + I64;     // frames dropped on lossy priorities
export const SC_DROP_PRIO: i32 = SC_DROP_LOSSY + I64;        // i64[8]
export const SC_STORM_XOFF: i32 = SC_DROP_PRIO + 8 * I64;    // XOFF frames sent by pfc_storm sources (kernel ports count their own)
export const SC_XOFF_REFRESHES: i32 = SC_STORM_XOFF + I64;    // XOFF re-sent by ports already in XOFF state (PFC_XOFF_TX counts them too)
export const SC_PAUSE_FRAMES: i32 = SC_XOFF_REFRESHES + I64;          // PFC / PAUSE frames received
export const SC_CNMS: i32 = SC_PAUSE_FRAMES + I64;            // CNMs (qau-pc) or CNPs (dcqcn) sent
export const SC_POOL_EXHAUSTED: i32 = SC_CNMS + I64;          // frames not generated for want of a packet record
export const SC_WD_EVENTS: i32 = SC_POOL_EXHAUSTED + I64;     // watchdog detections and restorations
export const SC_GRANTS: i32 = SC_WD_EVENTS + I64;             // credit grants sent
export const SC_NOW: i32 = SC_GRANTS + I64;                   // i64 ps: time the run reached
export const SC_SIZE: i32 = SC_NOW + I64;
// Watchdog log entry: i64 time, i32 port, i32 priority | event << 8 (1 detected, 2 restored).
export const SW_SIZE: i32 = 16;
// Storm source: i32 port, i32 priority, i64 start, i64 stop, i64 interval.
export const SS_PORT: i32 = 0;
export const SS_PRIO: i32 = SS_PORT + I32;
export const SS_START: i32 = SS_PRIO + I32;
export const SS_STOP: i32 = SS_START + I64;
export const SS_INTERVAL: i32 = SS_STOP + I64;
export const SS_SIZE: i32 = SS_INTERVAL + I64;
// ETS share meter entry (assembly/sim/ets_meter.ts): a port with two or more weighted ETS TCs.
export const EM_PORT: i32 = 0;                                 // the port
export const EM_WEIGHTED: i32 = EM_PORT + I32;                 // bit t: TC t is an ETS TC with bandwidth
export const EM_LAST: i32 = EM_WEIGHTED + I32;                 // i64[8] wire bytes sent per TC at the last sample
export const EM_ACC: i32 = EM_LAST + 8 * I64;                  // i64[8] wire bytes per TC summed over the saturated intervals
export const EM_SIZE: i32 = EM_ACC + 8 * I64;

// Partition record of a partitioned run (assembly/sim/partition.ts, docs/sim.md "One run on every
// core"): one per partition, written by the host; the instance that runs the partition keeps its
// mutable statics in the record's scratch (heap records, PFC times), since every instance shares
// one memory.
export const PT_PART: i32 = 0;                                 // this partition's number 0..PT_NPARTS-1
export const PT_NPARTS: i32 = PT_PART + I32;                   // partitions of the run
export const PT_OWNER: i32 = PT_NPARTS + I32;                  // address of u8[ports]: the partition of each port
export const PT_COUNTERS: i32 = PT_OWNER + I32;                // address of this partition's counters (SC_SIZE)
export const PT_WDLOG: i32 = PT_COUNTERS + I32;                // address of this partition's watchdog log (SH_WDLOG_CAP entries)
export const PT_HEAP: i32 = PT_WDLOG + I32;                    // address of this partition's event heap entries
export const PT_HEAP_CAP: i32 = PT_HEAP + I32;                 // its entries, of which PT_TX_CAP for FIFO TX, the pool's for ARR and ARR_FIFO
export const PT_TX_CAP: i32 = PT_HEAP_CAP + I32;
export const PT_POOL_LO: i32 = PT_TX_CAP + I32;                // the packet records [LO, HI) are this partition's
export const PT_POOL_HI: i32 = PT_POOL_LO + I32;
export const PT_RINGS: i32 = PT_POOL_HI + I32;                 // address of the ring table: RG_SIZE x 2 per (sender, receiver)
export const PT_SCRATCH: i32 = 64;                             // this instance's engine statics, at 8-byte alignment:
export const PT_HEAP_RECORDS: i32 = PT_SCRATCH;                //   the event queues' records (two heaps and two FIFOs, 64 bytes)
export const PT_PFC_TIMES: i32 = PT_HEAP_RECORDS + 64;         //   PFC time scratch (16 bytes)
export const PT_TOUCH_TARGET: i32 = PT_PFC_TIMES + 16;         //   the touch-ahead target (8 bytes)
export const PT_SIZE: i32 = PT_SCRATCH + 128;
// Ring of frames from one partition to another for one window parity: count, capacity, entries.
// An entry is the frame's i64 arrival time followed by its packet record (SK_SIZE bytes).
export const RG_COUNT: i32 = 0;
export const RG_CAP: i32 = RG_COUNT + I32;
export const RG_ENTRIES: i32 = RG_CAP + I32;
export const RG_SIZE: i32 = 16;
export const RG_ENTRY: i32 = I64 + SK_SIZE;
// Capture ring of one partition (assembly/sim/capture.ts): records written, capacity, address of the
// records, records lost to a full ring (a host sizing bug). A record: the departure's start time,
// then port, kind word (SK_KIND bits 0..18, priority in bits 24..26), frame bytes, flow, SK_A, SK_B.
export const CG_COUNT: i32 = 0;
export const CG_CAP: i32 = CG_COUNT + I32;
export const CG_RECORDS: i32 = CG_CAP + I32;
export const CG_LOST: i32 = CG_RECORDS + I32;
export const CG_SIZE: i32 = CG_LOST + I32;
export const CR_TIME: i32 = 0;                                 // i64 ps: the frame's first bit leaves the port
export const CR_PORT: i32 = CR_TIME + I64;
export const CR_KIND: i32 = CR_PORT + I32;
export const CR_BYTES: i32 = CR_KIND + I32;
export const CR_FLOW: i32 = CR_BYTES + I32;
export const CR_A: i32 = CR_FLOW + I32;
export const CR_B: i32 = CR_A + I32;
export const CR_SIZE: i32 = CR_B + I32;
export const CR_PRIO_SHIFT: i32 = 24;

// ---------------------------------------------------------------------------------------------
// Compile-time guards (a failed one stops the build with its message), as in assembly/layout.ts.
// ---------------------------------------------------------------------------------------------
// Record sizes: the last field ends within the record; sizes keep their alignment.
if (SN_LOSSY_Q + I32 > SN_SIZE) ERROR('layout: sim node record');
if (SK_B + I32 > SK_SIZE || SK_ARRIVE_AT + I64 > SK_SIZE) ERROR('layout: sim packet record');
if (SF_ARR_PS + I64 > SF_SIZE || SF_SIZE % 8 != 0) ERROR('layout: sim flow record');
if (SC_NOW + I64 > SC_SIZE) ERROR('layout: sim counters');
if (SS_INTERVAL + I64 > SS_SIZE) ERROR('layout: sim storm record');
if (PT_RINGS + I32 > PT_SCRATCH || PT_TOUCH_TARGET + 8 > PT_SIZE) ERROR('layout: sim partition record');
if (SH_CAPTURE + I32 > SH_SIZE) ERROR('layout: sim header');
if (CR_SIZE != 32) ERROR('layout: capture record (32 bytes)');
// i64 fields are 8-byte aligned (a misaligned i64 load is slow and breaks the host's BigInt64Array views).
if (SP_DELAY % 8 != 0 || SP_WAKE_AT % 8 != 0 || SP_REFRESH_EV % 8 != 0 || SP_PAUSED_VALID % 8 != 0 || SP_FWD_LAST % 8 != 0 || (SP_TCQ + SQ_TX_BYTES) % 8 != 0 || SP_TX_CTRL % 8 != 0 || SP_TX_PKTS % 8 != 0 || SP_WD_DETECT % 8 != 0) ERROR('layout: sim port i64 alignment');
if (SF_START % 8 != 0 || SF_RP % 8 != 0 || SF_NP % 8 != 0 || SF_PACE_RATE % 8 != 0 || SF_NACKS % 8 != 0) ERROR('layout: sim flow i64 alignment');
if (SH_CREDIT_AGING % 8 != 0 || SS_START % 8 != 0 || SK_ARRIVE_AT % 8 != 0) ERROR('layout: i64 alignment');
// Embedded records: each starts where the previous part ends (no overlap) and the container holds it.
if (SP_ETS < SP_CR_LASTCL + 8 * I32 || SP_PFC < SP_ETS + ETS_BYTES || SP_CREDIT_AT < SP_PFC + PFC_SIZE) ERROR('layout: sim port records overlap');
if (SP_CP_AT + I32 > SP_SIZE || SP_SIZE % 64 != 0 || (SP_SIZE >> 6) % 2 != 1) ERROR('layout: sim port record size (an odd number of 64-byte lines: records start on a cache line, in different sets)');
if (DCQCN_CP_SIZE > QCN_CP_SIZE || CREDIT_SIZE % 8 != 0 || QCN_CP_SIZE % 8 != 0) ERROR('layout: a CP table slot holds either profile\'s record, i64-aligned');
// The per-frame lines: each group ends on the line boundary its comments promise.
if (SP_HEADWIRE != 64 || SP_TCQ != 128 || SQ_SIZE != 32 || SP_FWD_RNG != 384) ERROR('layout: sim port per-frame fields (lines 0-5)');
if (SF_RP < SF_RP_EV_AT + I64 || SF_NP < SF_RP + QCN_RP_SIZE || SF_PACE_BYTES < SF_NP + DCQCN_NP_SIZE) ERROR('layout: sim flow records overlap');
