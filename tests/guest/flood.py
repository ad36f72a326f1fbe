# SPDX-License-Identifier: GPL-2.0-or-later
# tests/guest/flood.py SRC DST_MAC SECS [MAX] - bounded traffic for the guest
# tests (observe.sh, profiles.sh): raw UDP frames out of SRC to DST_MAC, 64
# source ports so RSS spreads them over the receiver's queues, for SECS
# seconds or MAX frames (default 200000), whichever comes first; prints the
# number sent. The bridge of scripts/testhost carries them from tap to tap:
# nothing leaves the host.
import signal, socket, struct, sys, time
src, dst, secs = sys.argv[1], bytes.fromhex(sys.argv[2].replace(":", "")), float(sys.argv[3])
most = int(sys.argv[4]) if len(sys.argv) > 4 else 200000
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((src, 0))
smac = s.getsockname()[4][:6]
def csum(b):
    t = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    t = (t >> 16) + (t & 0xffff)
    return ~(t + (t >> 16)) & 0xffff
frames = []
for port in range(64):
    udp = struct.pack("!HHHH", 10000 + port, 9, 8 + 18, 0) + b"n" * 18
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), 0, 0, 64, 17, 0,
                     bytes([10, 77, 0, 2]), bytes([10, 77, 0, 1]))
    ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
    frames.append(dst + smac + b"\x08\x00" + ip + udp)
# SIGTERM ends the flood early; the count is printed either way. "flooding"
# on stderr says the first frame is about to go (a caller that measures
# waits for it).
signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
end = time.monotonic() + secs
n = 0
print("flooding", file=sys.stderr, flush=True)
try:
    while n < most and time.monotonic() < end:
        s.send(frames[n % 64])
        n += 1
finally:
    print(n, flush=True)
