// The DCB netlink stand-in answers iproute2 `dcb` (libmnl, which checks the reply's port id and
// sequence number and waits for the NLMSG_ERROR acknowledgement) the way net/dcb/dcbnl.c does, keeps
// what was programmed in the device file, and leaves every other interface to the kernel.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeLldpdu } from '../../host/dcbx/lldpdu.js';
import { defaultDevice, formatDevice, parseDevice, StandinNetns } from './standin.js';

let net: StandinNetns;
// an LLDPDU from 02:00:00:00:00:99 with just a PFC TLV (not willing, no priority enabled)
const PEER_PFC_ONLY = encodeLldpdu({
  dst: '01:80:c2:00:00:0e', src: '02:00:00:00:00:99', chassis: { subtype: 4, id: '02:00:00:00:00:99' }, port: { subtype: 5, id: 'p' }, ttl: 120,
  tlvs: [{ type: 'pfc', willing: false, mbc: false, cap: 8, enable: [] }], end: true,
});
let port = 0;

// include/uapi/linux/rtnetlink.h, netlink.h and dcbnl.h values the raw probes use
const RTM_GETDCB = 78, RTM_SETDCB = 79, NLMSG_ERROR = 2, REQUEST = 1, ACK = 4;
const DCB_CMD_IEEE_SET = 20, DCB_CMD_GDCBX = 22;
interface Datagram { type: number; flags: number; seq: number; pid: number; len: number; size: number; hex: string }
/** Raw rtnetlink requests from python3 in the namespace, with the stand-in loaded (netlink-probe.py). */
function probe(requests: { type: number; flags: number; seq: number; cmd: number; attrs: [number, string][] }[]): { port: number; replies: Datagram[][] } {
  const r = net.run('python3', [join(dirname(fileURLToPath(import.meta.url)), 'netlink-probe.py'), JSON.stringify(requests)]);
  if (r.status !== 0) throw new Error(`netlink-probe: ${r.stderr}`);
  const out = JSON.parse(r.stdout);
  port = out.port;
  return out;
}
/** A netlink attribute: header, value, padding to 4 octets. */
function attr(type: number, value: Buffer): Buffer {
  const h = Buffer.alloc(4);
  h.writeUInt16LE(4 + value.length, 0);
  h.writeUInt16LE(type, 2);
  return Buffer.concat([h, value, Buffer.alloc((4 - (value.length % 4)) % 4)]);
}
beforeAll(() => {
  net = StandinNetns.open({ links: [['a', 'b']], managed: ['a'], tag: 'standin' });
});
afterAll(async () => {
  await net?.close();
});

const ok = (args: string[]) => {
  const r = net.dcb(args);
  if (r.status !== 0) throw new Error(`dcb ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
};

describe('DCB netlink stand-in under iproute2 dcb', () => {
  it('a fresh device reads as the defaults: 8 ETS and PFC TCs, host IEEE DCBX, nothing programmed', () => {
    expect(JSON.parse(ok(['-j', 'ets', 'show', 'dev', 'a']))).toMatchObject({ willing: false, ets_cap: 8, tc_bw: [0, 0, 0, 0, 0, 0, 0, 0], prio_tc: [0, 0, 0, 0, 0, 0, 0, 0] });
    expect(JSON.parse(ok(['-j', 'pfc', 'show', 'dev', 'a']))).toMatchObject({ pfc_cap: 8, macsec_bypass: false, prio_pfc: Array(8).fill(false) });
    expect(ok(['dcbx', 'show', 'dev', 'a']).trim()).toBe('host ieee');
    expect(net.commands('a')).toEqual([]);
  });

  it('ETS, PFC, APP, buffer and DCBX mode written with dcb are read back by dcb and land in the device file', () => {
    ok(['ets', 'set', 'dev', 'a', 'willing', 'on', 'tc-tsa', '0:ets', '1:ets', '2:strict', 'tc-bw', '0:70', '1:30', 'prio-tc', '3:1', '4:2']);
    ok(['pfc', 'set', 'dev', 'a', 'prio-pfc', '3:on', '4:on', 'macsec-bypass', 'on', 'delay', '4096']);
    ok(['app', 'add', 'dev', 'a', 'ethtype-prio', '0x8906:3', 'dscp-prio', '26:5', 'port-prio', '4791:4']);
    ok(['buffer', 'set', 'dev', 'a', 'prio-buffer', '3:1', '4:1', 'buffer-size', '0:64K', '1:32K']);
    ok(['dcbx', 'set', 'dev', 'a', 'host', 'cee']);
    const ets = JSON.parse(ok(['-j', 'ets', 'show', 'dev', 'a']));
    expect(ets).toMatchObject({ willing: true, tc_bw: [70, 30, 0, 0, 0, 0, 0, 0], prio_tc: [0, 0, 0, 1, 2, 0, 0, 0] });
    expect(ets.tc_tsa.slice(0, 3)).toEqual(['ets', 'ets', 'strict']);
    expect(JSON.parse(ok(['-j', 'pfc', 'show', 'dev', 'a']))).toMatchObject({ macsec_bypass: true, delay: 4096, prio_pfc: [false, false, false, true, true, false, false, false] });
    expect(ok(['dcbx', 'show', 'dev', 'a']).trim()).toBe('host cee');
    const d = net.device('a');
    expect(d.ets).toMatchObject({ willing: 1, tc_tx_bw: [70, 30, 0, 0, 0, 0, 0, 0], tc_tsa: [2, 2, 0, 0, 0, 0, 0, 0], prio_tc: [0, 0, 0, 1, 2, 0, 0, 0] });
    expect(d.pfc).toMatchObject({ pfc_en: 0x18, mbc: 1, delay: 4096, pfc_cap: 8 });
    // the kernel's list_add puts the newest entry first; dcb sends them in command-line order
    expect(d.app).toEqual([{ selector: 4, priority: 4, protocol: 4791 }, { selector: 5, priority: 5, protocol: 26 }, { selector: 1, priority: 3, protocol: 0x8906 }]);
    expect(d.buffer.prio2buffer).toEqual([0, 0, 0, 1, 1, 0, 0, 0]);
    expect(d.buffer.buffer_size.slice(0, 2)).toEqual([65536, 32768]);
    expect(d.dcbx).toBe(0x05);
    expect(net.commands('a')).toEqual(expect.arrayContaining(['IEEE_SET ets -> 0', 'IEEE_SET pfc -> 0', 'SDCBX 5 ok']));
    const app = ok(['app', 'show', 'dev', 'a']);
    expect(app).toContain('ethtype-prio 8906:3');
    expect(app).toContain('port-prio 4791:4');
  });

  it('refuses what a host-managed driver refuses, with the errno dcbnl.c passes on', () => {
    // ETS bandwidths that do not sum to 100 (dcb and lldptool check this themselves, so raw netlink):
    // the driver's -EINVAL travels in the reply's DCB_ATTR_IEEE u8, then the ack says 0
    const before = net.device('a').ets;
    const ets = Buffer.alloc(59);
    ets[1] = 8; // ets_cap
    ets[3] = 50; // tc_tx_bw[0]
    ets.fill(2, 19, 27); // tc_tsa: all ETS
    const [reply, ack] = probe([{ type: RTM_SETDCB, flags: REQUEST | ACK, seq: 7, cmd: DCB_CMD_IEEE_SET, attrs: [[1, '6100'], [13, attr(1, ets).toString('hex')]] }]).replies[0];
    expect(reply).toMatchObject({ type: RTM_SETDCB, flags: REQUEST | ACK, seq: 7, pid: port });
    expect(reply.hex).toBe('00140000' + '0500' + '0d00' + 'ea000000'); // dcbmsg{cmd 20}, DCB_ATTR_IEEE = (u8)-22
    expect(ack).toMatchObject({ type: NLMSG_ERROR, flags: 0x100, seq: 7, pid: port }); // NLM_F_CAPPED
    expect(ack.hex.slice(0, 8)).toBe('00000000');
    expect(net.device('a').ets).toEqual(before);
    expect(net.commands('a').at(-1)).toBe('IEEE_SET -> -22');
    // an exact duplicate APP entry is -EEXIST (dcb_ieee_setapp); deleting a missing one -ENOENT
    expect(net.dcb(['app', 'add', 'dev', 'a', 'ethtype-prio', '0x8906:3']).status).not.toBe(0);
    expect(net.dcb(['app', 'del', 'dev', 'a', 'ethtype-prio', '0x8914:3']).status).not.toBe(0);
    ok(['app', 'del', 'dev', 'a', 'dscp-prio', '26:5']);
    expect(net.device('a').app.map((e) => e.selector)).toEqual([4, 1]);
    // DCBX modes outside the capability or not host-managed are refused (ixgbe_dcbnl_setdcbx)
    expect(net.dcb(['dcbx', 'set', 'dev', 'a', 'fw']).status).not.toBe(0);
    expect(net.device('a').dcbx).toBe(0x05);
  });

  it('leaves other interfaces to the kernel: the unmanaged veth end has no DCB, a missing one is no device', () => {
    const other = net.dcb(['ets', 'show', 'dev', 'b']);
    expect(other.status).not.toBe(0);
    expect(other.stderr).toMatch(/Operation not supported/);
    const missing = net.dcb(['ets', 'show', 'dev', 'nosuch']);
    expect(missing.status).not.toBe(0);
    // ordinary rtnetlink traffic still reaches the kernel with the library loaded
    const link = net.run('ip', ['-j', 'link', 'show', 'dev', 'a']);
    expect(JSON.parse(link.stdout)[0].ifname).toBe('a');
  });

  it('answers with the framing of net/dcb/dcbnl.c: same NLMSG_ERROR as the kernel for a bad command, reply without ack when none was asked', () => {
    const bad = (seq: number, dev: string) => ({ type: RTM_GETDCB, flags: REQUEST | ACK, seq, cmd: 200, attrs: [[1, Buffer.from(`${dev}\0`).toString('hex')]] as [number, string][] });
    const { replies } = probe([bad(11, 'a'), bad(11, 'b'), { type: RTM_GETDCB, flags: REQUEST, seq: 12, cmd: DCB_CMD_GDCBX, attrs: [[1, '6100']] }]);
    const [mine, kernels] = [replies[0], replies[1]];
    expect(mine).toHaveLength(1);
    expect(kernels).toHaveLength(1);
    expect(mine[0].type).toBe(NLMSG_ERROR);
    expect(mine[0].hex.slice(0, 8)).toBe('eaffffff'); // -EINVAL
    // byte for byte the kernel's, but for the interface name ('a' vs 'b') in the echoed request
    expect({ ...mine[0], hex: mine[0].hex.replace('6100', '6200') }).toEqual(kernels[0]);
    expect(replies[2]).toEqual([expect.objectContaining({ type: RTM_GETDCB, flags: REQUEST, seq: 12, pid: port })]);
    expect(replies[2][0].hex).toBe('00160000' + '0500' + '0e00' + '05000000'); // DCB_ATTR_DCBX = host|cee (set above)
  });

  it('a device file written by a test is what dcb reads (seeding a device)', () => {
    const d = defaultDevice();
    d.ets.tc_tx_bw = [10, 20, 30, 40, 0, 0, 0, 0];
    d.ets.tc_tsa = [2, 2, 2, 2, 0, 0, 0, 0];
    d.pfc.pfc_en = 0x81;
    d.app = [{ selector: 1, priority: 6, protocol: 0x88f7 }];
    net.setDevice('a', d);
    expect(JSON.parse(ok(['-j', 'ets', 'show', 'dev', 'a'])).tc_bw).toEqual([10, 20, 30, 40, 0, 0, 0, 0]);
    expect(JSON.parse(ok(['-j', 'pfc', 'show', 'dev', 'a'])).prio_pfc).toEqual([true, false, false, false, false, false, false, true]);
    expect(ok(['app', 'show', 'dev', 'a'])).toContain('ethtype-prio 88f7:6');
    expect(parseDevice(formatDevice(d))).toEqual(d);
  });

  it('lldpad runs on the stand-in: two at once in their own namespaces, each programming its own device', async () => {
    // a second lldpad beside the first (e.g. another test file, or a service on the machine) would
    // say "lldpad already running" without the private /dev/shm
    const other = StandinNetns.open({ tag: 'standin2' });
    try {
      const [l1, l2] = await Promise.all([net.startLldpad('a'), other.startLldpad('a')]);
      expect(l1.pid).not.toBe(l2.pid);
      for (const [n, l, bw] of [[net, l1, '70,30'], [other, l2, '20,80']] as const) {
        // lldpad runs its IEEE state machines, and programs the device, when it transmits
        expect(l.lldptool(['set-lldp', '-i', 'a', 'adminStatus=rxtx']).status).toBe(0);
        expect(l.lldptool(['-T', '-i', 'a', '-V', 'ETS-CFG', 'tsa=0:ets,1:ets,2:strict,3:strict,4:strict,5:strict,6:strict,7:strict', 'up2tc=0:0,1:1,2:0,3:0,4:0,5:0,6:0,7:0', `tcbw=${bw},0,0,0,0,0,0`]).status).toBe(0);
        // lldpad programs the device once IEEE DCBX leaves its start-up `pending` state (open-lldp
        // lldp_8021qaz.c ieee8021qaz_check_pending: ~15 s) or a peer's 802.1Qaz TLV arrives: send one
        const port = await n.openPort('b');
        await port.send(PEER_PFC_ONLY);
        const want = bw.split(',').map(Number);
        await n.waitFor(`lldpad in ${n.ns} to program ETS`, () => n.device('a').ets.tc_tx_bw[0] === want[0]);
        expect(n.device('a').ets).toMatchObject({ tc_tx_bw: [...want, 0, 0, 0, 0, 0, 0], prio_tc: [0, 1, 0, 0, 0, 0, 0, 0], tc_tsa: [2, 2, 0, 0, 0, 0, 0, 0] });
      }
    } finally {
      await other.close();
    }
  }, 60_000);
});
