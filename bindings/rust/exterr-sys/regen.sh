#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Regenerate src/bindings.rs from the installed <exterr.h> with bindgen
# (the `regen` feature of this crate), or with --check only report whether
# the checked-in copy differs. Needs pkg-config to find exterr (set
# PKG_CONFIG_PATH) and libclang (LIBCLANG_PATH if it is not found).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
check=0
[ "${1:-}" = --check ] && check=1

if [ -z "${LIBCLANG_PATH:-}" ]; then
	# Debian ships only libclang.so.N in a versioned directory.
	for d in /usr/lib/llvm-*/lib; do
		[ -d "$d" ] && export LIBCLANG_PATH=$d
	done
fi

tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
# Building with the feature also proves the fresh bindings compile.
EXTERR_SYS_BINDINGS_OUT=$tmp cargo build -j"${CARGO_JOBS:-2}" \
	--manifest-path "$here/Cargo.toml" --features regen --locked --quiet

if [ $check = 1 ]; then
	if ! diff -u "$here/src/bindings.rs" "$tmp"; then
		echo "exterr-sys: src/bindings.rs is stale; run exterr-sys/regen.sh" >&2
		exit 1
	fi
	echo "exterr-sys: bindings up to date"
else
	cp "$tmp" "$here/src/bindings.rs"
	echo "exterr-sys: wrote src/bindings.rs"
fi
