// The JSON Schema (draft 2020-12) of the DCB config input, for editors (YAML language server, VS Code)
// and external tools. z.toJSONSchema gives the structure; the fields whose zod form is a transform
// (speed, cable, MAC, TSA, selector, protocol, PGID, the rp profile union) get their accepted input
// spelled out here, and every key gets a description with its unit and default (docs/config.md).
// Cross-field rules (bandwidth sums, ets/pg agreement, ...) cannot be expressed: `dcbkit validate`.
import { z } from 'zod';
import { APP_SELECTORS, APP_SELECTOR_ALIASES, configShapeSchema, rpDcqcnSchema, rpQauPcSchema } from './schema.js';

type Json = Record<string, unknown>;

const int = (minimum: number, maximum: number): Json => ({ type: 'integer', minimum, maximum });

/** Input forms that the zod transforms accept, by path (`[]` = array items). */
const FORMS: Record<string, Json> = {
  // A rate and a length carry their unit (docs/units.md): no bare numbers, 0 alone for the cable.
  'port.speed': { type: 'string', pattern: '^[0-9]+(\\.[0-9]+)?\\s*[kKMGTmgt]([bB]([pP][sS]|/[sS]|[iI][tT](/[sS])?|[eE])?)?$', examples: ['10G', '25G', '100G', '400G', '100Gbit'] },
  'port.cable': { anyOf: [{ type: 'string', pattern: '^[0-9]+(\\.[0-9]+)?\\s*([mM]|[kK][mM])$', examples: ['3m', '300m', '2km'] }, { const: 0 }] },
  'port.mac': { type: 'string', pattern: '^[0-9A-Fa-f]{2}([:-])[0-9A-Fa-f]{2}(\\1[0-9A-Fa-f]{2}){4}$' },
  'ets.tsa.[]': { anyOf: [{ enum: ['strict', 'ets', 'cbs', 'vendor'] }, { enum: [0, 1, 2, 255] }] },
  'ets.recommendation.tsa.[]': { anyOf: [{ enum: ['strict', 'ets', 'cbs', 'vendor'] }, { enum: [0, 1, 2, 255] }] },
  'pg.prio_pgid.[]': { enum: [0, 1, 2, 3, 4, 5, 6, 7, 15] },
  'pfc.headroom': { anyOf: [{ const: 'auto' }, int(0, 0x7fffffff)] },
  'app.[].selector': { anyOf: [{ enum: [...Object.keys(APP_SELECTORS), ...Object.keys(APP_SELECTOR_ALIASES)] }, int(1, 5)] },
  'app.[].protocol': { anyOf: [int(0, 65535), { type: 'string', pattern: '^(0[xX][0-9A-Fa-f]{1,4}|[0-9]+)$' }] },
  'credit.oui': { type: 'string', pattern: '^[0-9A-Fa-f]{2}([:-])[0-9A-Fa-f]{2}\\1[0-9A-Fa-f]{2}$' },
};

const DESCRIPTIONS: Record<string, string> = {
  port: 'The link this config applies to.',
  'port.name': 'Port name. Default Ethernet0.',
  'port.speed': 'Port speed with its unit: "100G", "2.5G", "100000M", "100Gbit"; 8e12/speed must be whole picoseconds. Default 100G.',
  'port.mtu': 'Largest frame in bytes, FCS included (both frame terms of the headroom formula). Default 9216.',
  'port.cable': 'Cable length with its unit: "300m", "2km" (5 ns/m); 0 alone may stand bare. Default 300 m.',
  'port.mac': 'Unicast port MAC (LLDPDU source; PFC willing tie-break). Default 02:00:00:00:00:01.',
  ets: 'IEEE 802.1Qaz ETS. Default when neither ets nor pg is given: 802.1Q strict priority, prio_tc [1,0,2,3,4,5,6,7].',
  'ets.willing': 'Adopt the peer\'s ETS Recommendation (DCBX). Default false.',
  'ets.cbs': 'CBS bit: the credit-based shaper TSA is supported. Default: true if any TSA is cbs.',
  'ets.max_tcs': 'Traffic classes the device supports; priorities map to TCs below it. Default 8.',
  'ets.prio_tc': 'TC (0..7) of priority 0..7. A higher TC has strict precedence.',
  'ets.tsa': 'TSA of TC 0..7: strict, ets, cbs (treated as strict) or vendor.',
  'ets.bw': 'Bandwidth % of TC 0..7: ETS TCs sum to 100, other TCs 0.',
  'ets.recommendation': 'ETS Recommendation TLV for willing peers (same rules). Default: not sent.',
  pg: 'CEE priority groups; may replace ets (it is derived) or accompany it (they must agree).',
  'pg.willing': 'CEE PG Willing flag. Default false.',
  'pg.prio_pgid': 'PGID of priority 0..7: 0..7, or 15 = strict (no bandwidth limit); 8..14 reserved.',
  'pg.pg_bw': 'Bandwidth % of PGID 0..7, summing to 100 (0 when all priorities are in PGID 15).',
  pfc: 'IEEE 802.1Qbb priority flow control.',
  'pfc.enable': 'Priorities with PFC (lossless). Default [].',
  'pfc.willing': 'Adopt a non-willing peer\'s PFC settings. Default false.',
  'pfc.mbc': 'MACsec bypass capability bit (raw). Default false.',
  'pfc.cap': 'How many priorities may have PFC at once (0..8). Default 8.',
  'pfc.pause_time': 'Quanta (512 bit times) in an XOFF frame; refreshed every pause_time/2. Default 65535.',
  'pfc.headroom': 'Bytes per lossless priority above xoff, or auto (computed from speed, cable, mtu). Default auto.',
  'pfc.xoff': 'Ingress occupancy in bytes that sends XOFF. Default 4 x mtu.',
  'pfc.xon': 'Ingress occupancy in bytes at or below which XON is sent; below xoff. Default 2 x mtu.',
  'pfc.watchdog': 'PFC storm watchdog (SONiC pfcwd semantics). Default disabled.',
  'pfc.watchdog.enable': 'Default false.',
  'pfc.watchdog.detection_ms': 'Paused this long with no progress = storm (100..5000 ms). Default 200.',
  'pfc.watchdog.restoration_ms': 'No PFC frames for this long = restored (100..60000 ms). Default 200.',
  'pfc.watchdog.poll_ms': 'Poll interval (1..1000 ms). Default 200.',
  'pfc.watchdog.action': 'drop, forward or alert. Default drop.',
  pause: 'IEEE 802.3x PAUSE for the whole port; excludes PFC and credit.',
  'pause.enable': 'Default false.',
  'pause.pause_time': 'Quanta per PAUSE frame. Default 65535.',
  app: 'Application priority table (APP TLV), at most 168 entries.',
  'app.[].selector': 'ethertype (1), stream = tcp or sctp port (2), dgram = udp or dccp port (3), any = port (4), dscp (5).',
  'app.[].selector_name': 'Optional; must match selector (the normalised output always has it).',
  'app.[].protocol': 'Ethertype 0 or >= 0x0600, port 0..65535 or DSCP 0..63; a number or "0x8906".',
  'app.[].priority': 'Priority 0..7.',
  qcn: 'Congestion notification: 802.1Qau QCN or DCQCN.',
  'qcn.cp.priorities': 'Priorities with a congestion point. Default [].',
  'qcn.cp.q_eq': 'QCN queue set point in bytes. Default 26000.',
  'qcn.cp.w': 'QCN feedback weight. Default 2.',
  'qcn.cp.quantiser': 'Feedback quantiser: linear or msb. Default linear.',
  'qcn.cp.kmin': 'DCQCN: ECN marking starts above kmin bytes. Default 5000.',
  'qcn.cp.kmax': 'DCQCN: marking probability pmax at kmax bytes, 1 above. Default 200000.',
  'qcn.cp.pmax': 'DCQCN: marking probability at kmax, whole %. Default 1.',
  'qcn.rp': 'Reaction point: profile qau-pc (802.1Q MIB defaults) or dcqcn (Zhu et al. 2015 defaults).',
  credit: 'Credit-based link-level flow control (IBM CE proposal, InfiniBand-style counters).',
  'credit.priorities': 'Priorities under credit flow control (not also PFC). Default [].',
  'credit.unit': 'Credit unit in bytes, 64..mtu. Default 64.',
  'credit.aging_us': 'Credits older than this expire (us). Default 100.',
  'credit.counter_bits': 'Width k of the modulo-2^k counters. Default 16.',
  'credit.oui': 'OUI/CID of the CET capability TLV. Default 0A-DC-B0 (locally administered CID).',
};

function visit(node: Json, path: string): void {
  const props = node.properties as Record<string, Json> | undefined;
  if (props) {
    for (const [k, child] of Object.entries(props)) {
      const p = path ? `${path}.${k}` : k;
      if (FORMS[p]) {
        for (const key of ['type', 'anyOf', 'pattern', 'enum', 'const']) delete child[key];
        Object.assign(child, FORMS[p]);
      }
      if (DESCRIPTIONS[p]) child.description = DESCRIPTIONS[p];
      visit(child, p);
    }
  }
  const items = node.items as Json | undefined;
  if (items) {
    const p = `${path}.[]`;
    if (FORMS[p]) {
      for (const key of ['type', 'anyOf', 'pattern', 'enum', 'const']) delete items[key];
      Object.assign(items, FORMS[p]);
    }
    visit(items, p);
  }
}

/** JSON Schema (draft 2020-12) of the config input, for editors and external tools. */
export function configJsonSchema(): Json {
  const s = z.toJSONSchema(configShapeSchema, { io: 'input', unrepresentable: 'any' }) as Json;
  const props = s.properties as Record<string, Json>;
  const rp = (schema: z.ZodType) => {
    const j = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Json;
    delete j.$schema;
    return j;
  };
  // The rp union is read through a pre-step (profile defaults); spell out its two variants.
  const qcnProps = props.qcn.properties as Record<string, Json>;
  qcnProps.rp = { anyOf: [rp(rpQauPcSchema), rp(rpDcqcnSchema)] };
  visit(s, '');
  const { $schema, ...rest } = s;
  return {
    $schema,
    $id: 'https://dcbkit.invalid/schemas/dcb-config.json',
    title: 'dcbkit DCB port configuration',
    description: 'One port: port, ets or pg, pfc, pause, app, qcn, credit. Units, defaults and the cross-field rules: docs/config.md.',
    ...rest,
  };
}
