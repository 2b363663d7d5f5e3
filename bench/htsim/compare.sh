#!/usr/bin/env bash
# dcbkit against htsim (Broadcom/csg-htsim, the simulator of the NDP, EQDS and Ultra Ethernet work) as
# whole processes on one matched workload: a 16:1 lossless RoCE incast through one switch, 1 s
# simulated. Builds htsim at a pinned commit into a cache directory outside the repository (with the
# packet counter of packet-counter.patch: htsim counts no packet-hops of its own), writes both
# simulators' inputs, runs them one after the other N times (alternating, one process at a time),
# and prints each run's packet-hops, delivered frames, wall and CPU time and peak RSS, then the
# medians and dcbkit's ratio over htsim. Not part of CI: htsim is not a Debian package.
#
#   bash bench/htsim/compare.sh [RUNS]         (default 5; needs git, make, g++, GNU time, a built dist/)
#   bash bench/htsim/compare.sh --inputs DIR   only write both simulators' inputs into DIR (no build, no run)
#
# Environment: HTSIM_CACHE (default ${XDG_CACHE_HOME:-~/.cache}/dcbkit-htsim), HTSIM_REPO (a clone
# URL or a local mirror of the repository), DURATION_US (default 1000000), KEEP=1 keeps the run files.
#
# The match (docs/bench.md, "Against htsim"): htsim's RoCE data packet is its MTU plus a 64-byte
# header on the wire with no preamble or gap, so htsim -mtu 1500 serialises 1564 B, as a dcbkit frame
# of 1544 B (+ 20 B preamble, SFD and IFG); both receivers ACK every frame (htsim's RoceSink always
# does; dcbkit transport roce, ack_every 1); no congestion control (htsim's RoceSrc sends at line
# rate); links 100 Gb/s with 1 us propagation, switches without latency and nominal clocks
# (dcbkit timing: ideal); the same PFC thresholds in frames (htsim -pfc_thresholds 12 15 counts in
# MTUs of 1500 B: XOFF above 22,500 B, XON below 18,000 B, i.e. at the 15th packet of 1564 B and back
# at 11; dcbkit's xoff 22,500 B and xon_offset 4,500 B give 15 and 11 frames of 1544 B); buffers too
# large to bind (htsim's egress queue -q 2000 packets: at the default of 15 the 16 ingress queues'
# frames overflow it, and htsim prints "LOSSLESS not working!").
set -euo pipefail

INPUTS=""
if [ "${1:-}" = --inputs ]; then
  [ -n "${2:-}" ] || { echo "compare.sh: --inputs needs a directory" >&2; exit 2; }
  INPUTS=$2; RUNS=1
else
  RUNS=${1:-5}
fi
COMMIT=841d9e7be46bb968eece766aa4b6c044c7799f67
REPO=${HTSIM_REPO:-https://github.com/Broadcom/csg-htsim.git}
CACHE=${HTSIM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/dcbkit-htsim}
DURATION_US=${DURATION_US:-1000000}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
# The build is keyed by the commit and the patch, so a changed counter is rebuilt.
SRC="$CACHE/$COMMIT-$(sha256sum "$HERE/packet-counter.patch" | cut -c1-12)"
HTSIM="$SRC/sim/datacenter/htsim_roce"

die() { echo "compare.sh: $*" >&2; exit 2; }
[[ "$RUNS" =~ ^[1-9][0-9]*$ ]] || die "RUNS must be a whole number from 1, got '$RUNS'"
[[ "$DURATION_US" =~ ^[1-9][0-9]*$ ]] || die "DURATION_US must be a whole number of microseconds from 1, got '$DURATION_US'"
# htsim's flows are finite (2 GB each: its connection matrix reads a size into an int), dcbkit's are not:
# a sender gets about a sixteenth of 100 Gb/s, 0.8 GB a second, so 2 s stays short of the end.
(( DURATION_US <= 2000000 )) || die "DURATION_US is at most 2000000 (2 s: htsim's flows of 2 GB must not end), got '$DURATION_US'"

# Both simulators' inputs into $WORK, and htsim's arguments.
write_inputs() {
# htsim: a two-tier fat tree whose one ToR holds all 17 hosts (the tier above carries nothing here);
# host 0 receives from hosts 1-16, each flow larger than it can send in the run.
cat > "$WORK/incast.topo" <<EOF
Nodes 17
Tiers 2
Podsize 17

Tier 0
Downlink_speed_Gbps 100
Radix_Down 17
Radix_Up 1
Downlink_Latency_ns 1000
Switch_Latency_ns 0
Oversubscribed 17

Tier 1
Downlink_speed_Gbps 100
Radix_Down 1
Downlink_Latency_ns 1000
Switch_Latency_ns 0
EOF
{ echo "Nodes 17"; echo "Connections 16"; for i in $(seq 1 16); do echo "$i->0 start 0 size 2000000000"; done; } > "$WORK/incast.cm"
HTSIM_ARGS=(-topo "$WORK/incast.topo" -tm "$WORK/incast.cm" -nodes 17 -strat ecmp_host -paths 1
  -queue_type lossless_input -mtu 1500 -linkspeed 100000 -q 2000 -pfc_thresholds 12 15 -end "$DURATION_US")

# dcbkit: the same incast (h0 receives from h1-h16 through sw0), unlimited roce flows.
node -e '
const hosts = Array.from({ length: 17 }, (_, i) => ({ name: `h${i}` }));
process.stdout.write(JSON.stringify({
  name: "htsim-matched-incast-16to1", seed: 1, duration: `${process.argv[1]}us`, sample: "1ms", timing: "ideal",
  defaults: {
    link: { speed: "100G", delay: "1us" },
    buffer: { size: "16MB", headroom: "auto", xoff: "22500B", xon_offset: "4500B" },
    dcb: { port: { mtu: 1544 }, pfc: { enable: [3] } },
  },
  transport: "roce", roce: { ack_every: 1 },
  hosts, switches: [{ name: "sw0" }], links: hosts.map((h) => ({ a: h.name, b: "sw0" })),
  traffic: { incast: [{ senders: hosts.slice(1).map((h) => h.name), dst: "h0", priority: 3, frames: 1544 }] },
  series: { ports: [], flows: [] },
}));' "$DURATION_US" > "$WORK/incast.json"
}

if [ -n "$INPUTS" ]; then
  mkdir -p "$INPUTS" && WORK=$(cd "$INPUTS" && pwd) && write_inputs && exit 0
fi
[ -x /usr/bin/time ] || die "GNU time (/usr/bin/time) is needed for CPU time and peak RSS"
[ -f "$ROOT/dist/cli/dcbkit.js" ] || die "no dist/cli/dcbkit.js under $ROOT: run npm run build first"

# Build once per commit and patch: only the sim/ tree is checked out, the packet counter applied, then the
# library and the one program this comparison runs.
if [ ! -x "$HTSIM" ]; then
  rm -rf "$SRC.tmp" && mkdir -p "$CACHE"
  git clone -q --no-checkout "$REPO" "$SRC.tmp"
  git -C "$SRC.tmp" checkout -q "$COMMIT" -- sim
  git -C "$SRC.tmp" apply "$HERE/packet-counter.patch"
  make -s -C "$SRC.tmp/sim" > "$CACHE/make.log" 2>&1 || die "make in sim/ failed: $CACHE/make.log"
  make -s -C "$SRC.tmp/sim/datacenter" htsim_roce >> "$CACHE/make.log" 2>&1 || die "make htsim_roce failed: $CACHE/make.log"
  mv "$SRC.tmp" "$SRC"
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/dcbkit-htsim-XXXXXX")
[ "${KEEP:-0}" = 1 ] && echo "run files in $WORK" >&2 || trap 'rm -rf "$WORK"' EXIT
write_inputs

# One whole process under GNU time; prints "hops delivered pfc_frames wall_s cpu_s peak_kB" (pfc_frames:
# the PFC frames among dcbkit's packet-hops; htsim's PAUSE takes no link time, so it has none).
run_dcbkit() {
  /usr/bin/time -f '%e %U %S %M' -o "$WORK/time" node "$ROOT/dist/cli/dcbkit.js" run "$WORK/incast.json" --json > "$WORK/dcbkit.json"
  node -e '
const s = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
const frames = s.flows.reduce((n, f) => n + f.bytes_delivered, 0) / 1544;
process.stdout.write(`${s.sim.packet_hops} ${frames} ${s.pfc.pause_frames}`);' "$WORK/dcbkit.json"
  awk '{ printf " %s %.2f %s\n", $1, $2 + $3, $4 }' "$WORK/time"
}
run_htsim() {
  (cd "$WORK" && /usr/bin/time -f '%e %U %S %M' -o "$WORK/time" "$HTSIM" "${HTSIM_ARGS[@]}" > htsim.out 2> htsim.err)
  ! grep -q "LOSSLESS not working" "$WORK/htsim.out" || die "htsim's lossless queues overflowed (see $WORK/htsim.out)"
  awk '/^dcbkit-count/ { for (i = 2; i < NF; i += 2) v[$i] = $(i + 1); printf "%s %s 0", v["hops"], v["delivered"] }' "$WORK/htsim.err"
  awk '{ printf " %s %.2f %s\n", $1, $2 + $3, $4 }' "$WORK/time"
}

echo "# $(date -u +%FT%TZ) $(uptime | sed 's/.*load/load/'); $RUNS alternating runs of ${DURATION_US} us simulated; htsim $COMMIT"
printf '%-6s %3s %12s %10s %8s %8s %8s %8s %14s %14s\n' sim run packet_hops delivered pfc wall_s cpu_s rss_MB hops/wall_s hops/cpu_s
: > "$WORK/rows"
for r in $(seq 1 "$RUNS"); do
  for sim in dcbkit htsim; do
    "run_$sim" > "$WORK/row"
    read -r hops delivered pfc wall cpu kb < "$WORK/row"
    echo "$sim $r $hops $delivered $pfc $wall $cpu $kb" >> "$WORK/rows"
    awk -v s="$sim" -v r="$r" -v h="$hops" -v d="$delivered" -v p="$pfc" -v w="$wall" -v c="$cpu" -v k="$kb" 'BEGIN {
      printf "%-6s %3d %12d %10d %8d %8.2f %8.2f %8.1f %14s %14s\n", s, r, h, d, p, w, c, k * 1024 / 1e6,
        (w > 0 ? sprintf("%.0f", h / w) : "-"), (c > 0 ? sprintf("%.0f", h / c) : "-") }'
  done
done

# Medians per simulator, then the ratios. The comparison holds only if both delivered the same frames
# in every run; then both also carried the same data and ACK frames (to within those on the wire at
# the end), so the ratio of their times is the ratio of their speeds on the same work, whatever
# each counts as a packet-hop.
node -e '
const rows = require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n").map((l) => l.split(" "));
const med = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const of = (sim) => {
  const r = rows.filter((x) => x[0] === sim).map((x) => x.slice(2).map(Number));
  const col = (i) => r.map((x) => x[i]);
  return { hops: [...new Set(col(0))], delivered: [...new Set(col(1))], pfc: col(2)[0], wall: med(col(3)), cpu: med(col(4)), rss: med(col(5)) * 1024 / 1e6,
           perWall: med(r.map((x) => x[0] / x[3])), perCpu: med(r.map((x) => x[0] / x[4])) };
};
const d = of("dcbkit"), h = of("htsim");
const M = (x) => (Number.isFinite(x) ? (x / 1e6).toFixed(2) : "-");
const X = (a, b) => (b > 0 && Number.isFinite(a / b) ? `${(a / b).toFixed(2)}x` : "- (below GNU time\u0027s 10 ms resolution)");
for (const [n, s] of [["dcbkit", d], ["htsim", h]])
  console.log(`median ${n}: ${s.hops.join("/")} packet-hops (${s.pfc} PFC frames), delivered ${s.delivered.join("/")} frames, wall ${s.wall.toFixed(2)} s, CPU ${s.cpu.toFixed(2)} s, peak RSS ${s.rss.toFixed(1)} MB; ${M(s.perWall)} M packet-hops per wall s, ${M(s.perCpu)} M per CPU s`);
console.log(`dcbkit / htsim: packet-hops per wall second ${X(d.perWall, h.perWall)}, per CPU second ${X(d.perCpu, h.perCpu)}; same work, htsim time / dcbkit time: wall ${X(h.wall, d.wall)}, CPU ${X(h.cpu, d.cpu)}; peak RSS ${X(d.rss, h.rss)}`);
if (d.hops.length > 1 || h.hops.length > 1) console.log("NOTE: a simulator counted different packet-hops in different runs (not deterministic)");
const same = d.delivered.length === 1 && h.delivered.length === 1 && d.delivered[0] === h.delivered[0];
console.log(same ? `delivered frames equal in every run: ${d.delivered[0]}` : `DELIVERED FRAMES DIFFER (dcbkit ${d.delivered.join("/")}, htsim ${h.delivered.join("/")}): the workloads are not matched`);
process.exit(same ? 0 : 1);' "$WORK/rows"
