# Sends raw rtnetlink requests and prints every datagram answered, for the stand-in's framing tests.
# argv[1]: JSON list of requests {"type", "flags", "seq", "cmd", "attrs": [[type, "hex"], ...]}
# (a DCB request: struct nlmsghdr, struct dcbmsg {family 0, cmd, pad}, then the attributes).
# stdout: JSON {"port": our netlink port id, "replies": [[{"type", "flags", "seq", "pid", "hex"}, ...]
# per request]}; a request's replies end at its NLMSG_ERROR/NLMSG_DONE or after 2 s.
# No poll/select before recv: the stand-in's queue is only visible to recv itself.
import json, socket, struct, sys, time

NLMSG_ERROR, NLMSG_DONE = 2, 3
s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0)
s.bind((0, 0))
port = s.getsockname()[0]
out = []
for req in json.loads(sys.argv[1]):
    body = struct.pack('BBH', 0, req['cmd'], 0)
    for t, h in req['attrs']:
        v = bytes.fromhex(h)
        a = struct.pack('HH', 4 + len(v), t) + v
        body += a + b'\0' * (-len(a) % 4)
    s.send(struct.pack('IHHII', 16 + len(body), req['type'], req['flags'], req['seq'], 0) + body)
    got, end = [], time.time() + 2
    while time.time() < end:
        try:
            d = s.recv(65536, socket.MSG_DONTWAIT)
        except BlockingIOError:
            time.sleep(0.01)
            continue
        ln, ty, fl, sq, pid = struct.unpack_from('IHHII', d)
        got.append({'type': ty, 'flags': fl, 'seq': sq, 'pid': pid, 'len': ln, 'size': len(d), 'hex': d[16:ln].hex()})
        if ty in (NLMSG_ERROR, NLMSG_DONE) or not (req['flags'] & 4):  # 4 = NLM_F_ACK
            break
    out.append(got)
print(json.dumps({'port': port, 'replies': out}))
