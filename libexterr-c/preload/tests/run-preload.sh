#!/bin/bash
# SPDX-License-Identifier: MIT
# Usage: run-preload.sh fake|unpatched DRIVER SHIM [VALGRIND]
#
# Runs every case of preload_driver bare and with SHIM preloaded, and
# compares stdout, stderr and the exit status:
#   fake       SHIM is libexterr-preload-fake.so, whose fake kernel hands
#              out the description the driver sets: stderr must be the
#              bare run's plus the explanation line where a case expects
#              one, and exactly the bare run's everywhere else;
#   unpatched  SHIM is libexterr-preload.so on this machine's kernel
#              (without exterr: prctl fails EINVAL): everything identical.
# With VALGRIND (the path of valgrind), the preloaded runs go under
# memcheck, and any error it reports fails the case.
# Exit status 0 when every case passes.
set -uo pipefail

mode=$1 driver=$2 shim=$3 valgrind=${4:-}
short=${driver##*/}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/preload-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C
expl='Invalid argument: sample_freq above kernel.perf_event_max_sample_rate [perf attr_field=sample_freq] (kernel/events/core.c:12883)'

# CASE EXPECT: EXPECT is "none", or "after:N:PREFIX" (the explanation, as
# PREFIX "kernel: " ..., right after stderr line N; N=$ for the last).
# @short and @full stand for the driver's short and full name.
cases=()
plain="perror:ctx warn:@short warn_null:@short vwarn:@short err:@short verr:@short"
plain+=" perror_null: perror_empty:"
code="warnc:@short vwarnc:@short errc:@short verrc:@short error:@full"
code+=" error_exit:@full error_m:@full error_long:@full"
code+=" error_at_line:@full error_at_line_exit:@full"
for fp in $plain $code; do
	fn=${fp%%:*} pre=${fp#*:}
	cases+=("$fn:match after:\$:$pre" "$fn:mismatch none" "$fn:none none")
done
for fp in $code; do
	fn=${fp%%:*}
	cases+=("$fn:other none")
done
for fn in error error_exit error_at_line; do
	cases+=("$fn:zero none")
done
# Not covered: no errno is reported, so nothing may be added.
for fn in warnx vwarnx errx verrx; do
	cases+=("$fn:match none" "$fn:none none")
done
cases+=(
	"quiet none"
	"thread-none after:\$:main"
	"thread-own after:1:@short"
	"fork after:1:child"
	"vfork after:\$:exec"
	"signal after:\$:handler"
	"signal-inside after:\$:outer"
	"atexit after:\$:@short"
	"destructor after:\$:destructor"
	"stderr-closed none"
	"all-closed none"
	"wide after:\$:wide"
	"one-per-line after:1:@full"
	"consumed none"
)

failed=0 passed=0
for c in "${cases[@]}"; do
	name=${c%% *} expect=${c#* }
	# memcheck is slow: the cases where nothing is pending run no more
	# of the shim than its size query, which the other cases run too.
	case $valgrind:$name in
	?*:*:none) continue ;;
	esac
	"$driver" "$name" >"$tmp/out0" 2>"$tmp/err0"
	st0=$?
	vg=()
	if [ -n "$valgrind" ]; then
		vg=("$valgrind" -q --error-exitcode=99 --leak-check=full
		    --show-leak-kinds=definite,indirect
		    --errors-for-leak-kinds=definite,indirect
		    --log-file="$tmp/vg")
	fi
	LD_PRELOAD=$shim ${vg[@]+"${vg[@]}"} "$driver" "$name" \
		>"$tmp/out1" 2>"$tmp/err1"
	st1=$?
	cp "$tmp/err0" "$tmp/want"
	if [ "$mode" = fake ] && [ "$expect" != none ]; then
		IFS=: read -r _ at pre <<<"$expect"
		case $pre in
		@short) pre=$short ;;
		@full) pre=$driver ;;
		esac
		line="${pre:+$pre: }kernel: $expl"
		[ "$at" = '$' ] && at=$(wc -l <"$tmp/err0")
		awk -v at="$at" -v line="$line" \
			'{ print } NR == at { print line }' "$tmp/err0" >"$tmp/want"
	fi
	if [ "$mode" = fake ] && [ "$name" = consumed ]; then
		sed -i 's/^pending after mismatch: -$/pending after mismatch: no/' \
			"$tmp/out0"
	fi
	why=
	[ "$st0" = "$st1" ] || why+=" status $st1, bare $st0;"
	cmp -s "$tmp/out0" "$tmp/out1" || why+=" stdout differs;"
	cmp -s "$tmp/want" "$tmp/err1" || why+=" stderr differs;"
	case $name in
	err:*|verr:*|errc:*|verrc:*|errx:*|verrx:*|*_exit:*|all-closed)
		[ "$st0" = 7 ] || why+=" bare status $st0, want 7;" ;;
	*) [ "$st0" = 0 ] || why+=" bare status $st0, want 0;" ;;
	esac
	if [ -s "$tmp/vg" ]; then
		why+=" valgrind:"
		cat "$tmp/vg"
	fi
	rm -f "$tmp/vg"
	if [ -z "$why" ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "FAIL $name:$why"
		diff -u "$tmp/want" "$tmp/err1" | head -n 20
		diff -u "$tmp/out0" "$tmp/out1" | head -n 10
	fi
done
echo "$mode${valgrind:+ (valgrind)}: $passed passed, $failed failed"
[ "$failed" = 0 ]
