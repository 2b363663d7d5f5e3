// dcbkit's DCBX agent (host/dcbx/agent.ts) as a live LLDP peer on a real interface: the LLDPDUs it
// receives on a RawPort are decoded by dcbkit and fed to the agent in wall-clock time, and what the
// agent transmits goes out on the port. The same agent class `dcbx negotiate` runs, so a test can
// hold lldpad and dcbkit to the same outcome.
import { DcbxAgent, DEFAULT_TIMERS, type LogEntry } from '../../host/dcbx/agent.js';
import type { DcbxMode, DcbxPortConfig } from '../../host/dcbx/advertise.js';
import { decodeLldpdu, encodeLldpdu, type Lldpdu } from '../../host/dcbx/lldpdu.js';
import { parseHex } from '../../host/frames/bytes.js';
import { isLldp, type RawPort } from '../dcbnl-standin/standin.js';

const PS_PER_MS = 1e9;

export class LivePeer {
  readonly agent: DcbxAgent;
  readonly log: LogEntry[] = [];
  /** every LLDPDU received (from lldpad), decoded by dcbkit, with its arrival in ms */
  readonly heard: { ms: number; pdu: Lldpdu }[] = [];
  /** every LLDPDU the agent sent */
  readonly said: { ms: number; pdu: Lldpdu }[] = [];
  private readonly t0 = Date.now();
  private seen = 0;
  private timer: NodeJS.Timeout | undefined;
  private busy = false;
  private failure: unknown;
  private withheld = new Set<string>();

  constructor(private readonly port: RawPort, cfg: DcbxPortConfig, mode: DcbxMode) {
    this.agent = new DcbxAgent('dcbkit', cfg, mode, DEFAULT_TIMERS, (e) => this.log.push(e));
  }

  private now(): number {
    return (Date.now() - this.t0) * PS_PER_MS;
  }

  start(): void {
    this.agent.start(this.now());
    this.timer = setInterval(() => void this.tick(), 10);
  }

  private async tick(): Promise<void> {
    if (this.busy || this.failure) return;
    this.busy = true;
    try {
      const now = this.now();
      while (this.seen < this.port.received.length) {
        const f = this.port.received[this.seen++];
        if (!isLldp(f)) continue;
        const pdu = decodeLldpdu(parseHex(f.hex, 'frame'));
        if (pdu.dst !== '01:80:c2:00:00:0e') continue; // lldpad's other agents (non-TPMR, customer bridge)
        this.heard.push({ ms: f.ms, pdu });
        this.agent.receive(now, pdu);
      }
      if (this.agent.peerExpires <= now) this.agent.expire(now);
      if (this.agent.nextTx <= now) await this.send(this.agent.transmit(now));
    } catch (e) {
      this.failure = e;
    } finally {
      this.busy = false;
    }
  }

  /** Changes the agent's admin config now (it advertises the change at once). */
  configure(cfg: DcbxPortConfig): void {
    this.agent.configure(this.now(), cfg);
  }

  private async send(full: Lldpdu): Promise<void> {
    const pdu = { ...full, tlvs: full.tlvs.filter((t) => !this.withheld.has(t.type)) };
    this.said.push({ ms: Date.now() - this.t0, pdu });
    await this.port.send(encodeLldpdu(pdu));
  }

  /**
   * From now on the LLDPDUs leave out TLVs of these types (a peer withdrawing its ETS-REC or PFC
   * TLV while the agent itself still runs its config); one such LLDPDU goes out at once.
   */
  async withhold(types: string[]): Promise<void> {
    for (const t of types) this.withheld.add(t);
    await this.send(this.agent.lldpdu());
  }

  /** Throws what went wrong in the loop (a frame dcbkit could not decode, a send that failed). */
  check(): void {
    if (this.failure) throw this.failure;
  }

  stop(): void {
    clearInterval(this.timer);
    this.check();
  }
}
