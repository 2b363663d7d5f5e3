# One end of a veth as seen by a test: frames received on IFACE are printed as `RX <ms> <hex>` lines
# (PACKET_OUTGOING copies of our own frames are left out); each hex line read on stdin is sent on
# IFACE as one frame and acknowledged with `TX <ms>`. Ends when stdin closes.
import os, select, socket, sys, time

iface = sys.argv[1]
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x0003))  # ETH_P_ALL
s.bind((iface, 0))
t0 = time.monotonic()
ms = lambda: int((time.monotonic() - t0) * 1000)
buf = b''
print('READY', flush=True)
while True:
    r, _, _ = select.select([s, sys.stdin.fileno()], [], [])
    if s in r:
        data, addr = s.recvfrom(65535)
        if addr[2] != socket.PACKET_OUTGOING:
            print('RX', ms(), data.hex(), flush=True)
    if sys.stdin.fileno() in r:
        chunk = os.read(sys.stdin.fileno(), 65536)
        if not chunk:
            break
        buf += chunk
        while b'\n' in buf:
            line, buf = buf.split(b'\n', 1)
            if line.strip():
                s.send(bytes.fromhex(line.decode().strip()))
                print('TX', ms(), flush=True)
