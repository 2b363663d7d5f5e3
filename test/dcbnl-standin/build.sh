#!/bin/sh
# Builds the DCB netlink stand-in: build.sh [OUT.so] (default build/dcbnl-standin/libdcbnl-standin.so
# under the package root). Needs gcc and the kernel's UAPI headers (linux-libc-dev, pulled in by gcc).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../../build/dcbnl-standin/libdcbnl-standin.so}
mkdir -p "$(dirname "$out")"
tmp="$out.$$.tmp"
gcc -shared -fPIC -O2 -Wall -Wextra -Werror -o "$tmp" "$here/dcbnl-standin.c" -ldl -lpthread
mv -f "$tmp" "$out"
