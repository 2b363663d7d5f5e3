#!/usr/bin/env bash
# Sets up everything the tests need on a fresh Debian machine and runs the whole suite:
#   1. the oracle tools (tshark, yanglint, protoc, tc/dcb, gcc + linux-libc-dev, python3, lldpad,
#      redis-server + redis-cli, chromium, slurm, munge, DPDK 22.11 with dpdk-testpmd and libdpdk for
#      pkg-config, ns-3 3.37 with g++, and the RTL tools
#      verilator, iverilog, yosys) from Debian, when any is missing;
#   2. the npm packages (npm ci, which also builds the Wasm core and the host through `prepare`),
#      and the third-party schemas unless found (scripts/fetch-schemas.sh --if-missing);
#   3. vitest over test/, ending with one plain line `N passed, N failed[, N skipped]` in which a
#      suite that failed to load counts as failed (scripts/test-summary.mjs).
# Extra arguments are passed to vitest (e.g. a file filter).
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
command -v tshark   >/dev/null 2>&1 || need_apt+=(tshark)
command -v yanglint >/dev/null 2>&1 || need_apt+=(libyang2-tools)
command -v protoc   >/dev/null 2>&1 || need_apt+=(protobuf-compiler)
[ -f /usr/include/google/protobuf/descriptor.proto ] || need_apt+=(libprotobuf-dev)
command -v tc       >/dev/null 2>&1 || need_apt+=(iproute2)
command -v gcc      >/dev/null 2>&1 || need_apt+=(gcc)
# the DCB netlink stand-in (test/dcbnl-standin/) is built from the kernel's UAPI dcbnl.h
[ -f /usr/include/linux/dcbnl.h ] || need_apt+=(linux-libc-dev)
command -v python3  >/dev/null 2>&1 || need_apt+=(python3)
command -v lldptool >/dev/null 2>&1 || need_apt+=(lldpad)
# git: test/first-run.test.ts clones the repository to time the first npx after npm ci
command -v git      >/dev/null 2>&1 || need_apt+=(git)
# make: the Makefile `vectors --format memh` writes (test/vectors-replay-kit.test.ts runs it)
command -v make     >/dev/null 2>&1 || need_apt+=(make)
# scapy: an independent RoCE ICRC for the packet traces of `run --pcap` (test/sim-pcap.test.ts)
/usr/bin/python3 -c 'import scapy' >/dev/null 2>&1 || need_apt+=(python3-scapy)
command -v redis-server >/dev/null 2>&1 || need_apt+=(redis-server)
command -v redis-cli >/dev/null 2>&1 || need_apt+=(redis-tools)
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
command -v sinfo    >/dev/null 2>&1 || need_apt+=(slurm-wlm)
command -v munge    >/dev/null 2>&1 || need_apt+=(munge)
# DPDK 22.11: rte_sched and the EAL to link the dpdk target's harness (libdpdk-dev, pkg-config),
# dpdk-testpmd for tm.testpmd (dpdk-dev) and the runtime libraries (dpdk)
command -v dpdk-testpmd >/dev/null 2>&1 || need_apt+=(dpdk dpdk-dev)
pkg-config --exists libdpdk 2>/dev/null || need_apt+=(libdpdk-dev pkg-config)
# ns-3 3.37 for the fabric comparison (test/sim-ns3.test.ts builds test/ns3/dcbkit_ns3.cc with g++)
pkg-config --exists ns3-core 2>/dev/null || need_apt+=(libns3-dev)
command -v g++        >/dev/null 2>&1 || need_apt+=(g++)
command -v pkg-config >/dev/null 2>&1 || need_apt+=(pkg-config)
command -v verilator >/dev/null 2>&1 || need_apt+=(verilator)
command -v iverilog >/dev/null 2>&1 || need_apt+=(iverilog)
command -v yosys    >/dev/null 2>&1 || need_apt+=(yosys)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "installing oracle tools: ${need_apt[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  # tshark asks whether non-root users may capture; answer no without a prompt.
  echo "wireshark-common wireshark-common/install-setuid boolean false" | $SUDO debconf-set-selections || true
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
fi

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ] || [ "${CI:-}" = "true" ]; then
  npm ci --no-audit --no-fund
else
  npm run build --silent
fi

# third-party schemas for the codegen suites (scripts/fetch-schemas.sh); without them those suites
# fail with one line saying how to get them
bash scripts/fetch-schemas.sh --if-missing || echo "could not fetch the third-party schemas: the codegen suites that need them will fail"

report=.vitest-report.json
rm -f "$report"
set +e
npx vitest run --reporter=default --reporter=json --outputFile.json="$report" "$@"
status=$?
set -e
if [ -f "$report" ]; then
  node scripts/test-summary.mjs "$report" || status=1
else
  echo "0 passed, 1 failed"
  status=1
fi
exit $status
