#!/bin/bash
# SPDX-License-Identifier: MIT
# install-test.sh BUILD_DIR EXAMPLES_DIR CC CMAKE [NLS]
#
# Installs the build to a scratch prefix and builds the example against it:
# with pkg-config, then, after moving the whole install elsewhere, with
# find_package(exterr) against both exterr::exterr and exterr::exterr_static.
# Also installs with prefix /usr (under DESTDIR), where pkg-config must
# filter the system include path out. All must build and run. With NLS 1
# the message catalogues must be installed too.
set -euo pipefail

build=$1 examples=$2 cc=$3 cmake=$4 nls=${5:-0}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
# The filtering of system paths is what is under test.
unset PKG_CONFIG_ALLOW_SYSTEM_CFLAGS PKG_CONFIG_ALLOW_SYSTEM_LIBS
unset PKG_CONFIG_SYSROOT_DIR

fail() {
	echo "install test: $*" >&2
	exit 1
}

"$cmake" --install "$build" --prefix "$prefix" >/dev/null

pc=$(find "$prefix" -name exterr.pc)
libdir=$(dirname "$(dirname "$pc")")
flags=$(PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --cflags --libs exterr)
echo "pkg-config: $flags"
incdir=$(PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --variable=includedir exterr)
if [ "$(readlink -f "$incdir")" != "$(readlink -f "$prefix/include")" ]; then
	fail "pkg-config includedir $incdir is not in $prefix"
fi
cflags=$(PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --cflags exterr)
[ "$(echo $cflags)" = "-I$prefix/include" ] ||
	fail "pkg-config --cflags for $prefix: '$cflags'"
# Every directory is spelled from ${prefix}, not as a second absolute path.
grep -qx 'includedir=${prefix}/include' "$pc" || fail "includedir in $pc"
grep -qx 'libdir=${exec_prefix}/.*' "$pc" || fail "libdir in $pc"
"$cc" -std=c11 -Wall -Werror -o "$tmp/example-pc" \
	"$examples/perf_open.c" $flags
LD_LIBRARY_PATH=$libdir "$tmp/example-pc"
# grep >/dev/null, not grep -q: with pipefail, ldd killed by SIGPIPE when
# grep -q stops reading early would fail the pipeline now and then.
ldd "$tmp/example-pc" | grep "$libdir/libexterr.so.1" >/dev/null ||
	LD_LIBRARY_PATH=$libdir ldd "$tmp/example-pc" |
	grep "$libdir/libexterr.so.1" >/dev/null

# A /usr install: -I/usr/include is the compiler's own, pkg-config drops it.
DESTDIR=$tmp/destdir "$cmake" --install "$build" --prefix /usr >/dev/null
usr_pc=$(find "$tmp/destdir" -name exterr.pc)
grep -qx 'prefix=/usr' "$usr_pc" || fail "DESTDIR leaked into $usr_pc"
usr_cflags=$(PKG_CONFIG_PATH=$(dirname "$usr_pc") pkg-config --cflags exterr)
echo "pkg-config --cflags, prefix /usr: '$usr_cflags'"
[ -z "$(echo $usr_cflags)" ] || fail "system include path not filtered"

# Nothing in the CMake package may name a path of this machine: not
# jansson's library, not the build tree, not the prefix it was installed to.
jansson_libdir=$(pkg-config --variable=libdir jansson)
for path in "$jansson_libdir/libjansson" "$build" "$prefix"; do
	if grep -rF "$path" "$libdir/cmake"; then
		fail "the installed CMake package names $path"
	fi
done

# Relocate the install; both targets must still resolve and link.
moved=$tmp/moved
mv "$prefix" "$moved"
libdir=$moved/${libdir#"$prefix"/}
"$cmake" -S "$examples" -B "$tmp/cmake-build" \
	-DCMAKE_PREFIX_PATH="$moved" -DCMAKE_C_COMPILER="$cc" >/dev/null
"$cmake" --build "$tmp/cmake-build" >/dev/null
ldd "$tmp/cmake-build/perf_open" | grep "libexterr.so.1 => $libdir/" >/dev/null
"$tmp/cmake-build/perf_open"
# The static one carries the library and needs only jansson's .so.
if ldd "$tmp/cmake-build/perf_open_static" | grep libexterr; then
	fail "perf_open_static links libexterr dynamically"
fi
ldd "$tmp/cmake-build/perf_open_static" | grep libjansson >/dev/null ||
	fail "perf_open_static does not link jansson"
"$tmp/cmake-build/perf_open_static"

test -f "$moved/share/man/man3/exterr_parse.3"
test -f "$moved/share/man/man3/exterr_supported.3"
test -f "$moved/share/man/man3type/exterr.3type"
test -f "$moved/share/man/man7/libexterr.7"
test -f "$moved/include/exterr.h"
test -f "$libdir/libexterr.a"
if [ "$nls" = 1 ]; then
	test -f "$moved/share/locale/de/LC_MESSAGES/exterr-kernel.mo" ||
		fail "no share/locale/de/LC_MESSAGES/exterr-kernel.mo"
	# The installed catalogue holds the German text of an id.
	if command -v gettext >/dev/null &&
	   locale -a | grep -ix 'c\.utf-\?8' >/dev/null; then
		de=$(LC_ALL=C.UTF-8 LANGUAGE=de \
		     TEXTDOMAINDIR=$moved/share/locale gettext -d exterr-kernel \
		     perf.sample_freq.above_max_rate)
		want="sample_freq liegt über kernel.perf_event_max_sample_rate"
		[ "$de" = "$want" ] || fail "installed catalogue: '$de'"
	fi
fi
echo "install test: ok"
