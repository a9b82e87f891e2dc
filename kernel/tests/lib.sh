# SPDX-License-Identifier: GPL-2.0
# Sourced by the kernel test suites (kernel/tests/run, reliability,
# perf-tool/run) after kernel/scripts/lib.sh: counting checks, running one
# and keeping its output, compiling guest programs, the final verdict.
# A suite sets $logs (where expect keeps NAME.log) and, to compile guest
# programs, $bin.

passed=0
failed=0

pass() { echo "PASS: $1"; passed=$((passed + 1)); }
fail() { echo "FAIL: $1"; failed=$((failed + 1)); }

# expect NAME STATUS COMMAND...: run COMMAND with its output in
# $logs/NAME.log and want exit STATUS; on a mismatch show the log's end.
expect() {
	local name=$1 want=$2 got start=$SECONDS
	shift 2
	"$@" > "$logs/$name.log" 2>&1
	got=$?
	if [ "$got" = "$want" ]; then
		pass "$name ($((SECONDS - start)) s)"
	else
		tail -n 60 "$logs/$name.log"
		fail "$name (exit status $got, want $want)"
	fi
}

# cc_guest OUT GCC-ARGS...: a static guest program, $bin/OUT.
cc_guest() {
	local out=$1
	shift
	gcc -static -O2 -Wall -Werror -o "$bin/$out" "$@"
}

# The last line of a suite: where the logs are, the counts, the status.
verdict() {
	echo "logs: $logs"
	echo "$passed passed, $failed failed"
	[ "$failed" = 0 ]
}
