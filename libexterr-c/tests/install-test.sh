#!/bin/bash
# SPDX-License-Identifier: MIT
# install-test.sh BUILD_DIR EXAMPLES_DIR CC CMAKE
#
# Installs the build to a scratch prefix and builds the example against it
# twice: with pkg-config and with find_package(exterr). Both must run.
set -euo pipefail

build=$1 examples=$2 cc=$3 cmake=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix

"$cmake" --install "$build" --prefix "$prefix" >/dev/null

pc=$(find "$prefix" -name exterr.pc)
libdir=$(dirname "$(dirname "$pc")")
export PKG_CONFIG_PATH=$(dirname "$pc")
flags=$(pkg-config --cflags --libs exterr)
echo "pkg-config: $flags"
incdir=$(pkg-config --variable=includedir exterr)
if [ "$(readlink -f "$incdir")" != "$(readlink -f "$prefix/include")" ]; then
	echo "pkg-config includedir $incdir is not in $prefix" >&2
	exit 1
fi
"$cc" -std=c11 -Wall -Werror -o "$tmp/example-pc" \
	"$examples/perf_open.c" $flags
LD_LIBRARY_PATH=$libdir "$tmp/example-pc"
ldd "$tmp/example-pc" | grep -q "$libdir/libexterr.so.1" ||
	LD_LIBRARY_PATH=$libdir ldd "$tmp/example-pc" |
	grep -q "$libdir/libexterr.so.1"

"$cmake" -S "$examples" -B "$tmp/cmake-build" \
	-DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$cc" >/dev/null
"$cmake" --build "$tmp/cmake-build" >/dev/null
ldd "$tmp/cmake-build/perf_open" | grep "libexterr.so.1 => $libdir/" >/dev/null
"$tmp/cmake-build/perf_open"

test -f "$prefix/share/man/man3/exterr_parse.3"
test -f "$prefix/include/exterr.h"
test -f "$libdir/libexterr.a"
echo "install test: ok"
