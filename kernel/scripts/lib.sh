# SPDX-License-Identifier: GPL-2.0
# Shared settings for the kernel scripts: where the source, trees and builds live.
# Sourced, not run.

EXTERR_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
KERNEL_DIR=$EXTERR_ROOT/kernel
# Everything large lives outside the checkout.
EXTERR_WORK=${EXTERR_WORK:-/var/tmp/exterr}
# Builds of this checkout's user-space code (CMake ties a build to one source).
EXTERR_ROOT_BUILD=$EXTERR_WORK/checkout-$(printf %s "$EXTERR_ROOT" | sha1sum | cut -c1-8)
LINUX_TARBALL=${LINUX_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
# The series is written against this stable release; newer 6.12.y usually
# still apply, and kernel/scripts/prepare-source says so when one does not.
LINUX_TESTED_VERSION=6.12.118
# The Rust toolchain for kernels with CONFIG_RUST=y (kernel/config/rust.config),
# installed by scripts/setup: Debian's rustc-web with the matching library
# source (rust-web-src), and bindgen-cli from crates.io in $EXTERR_TOOLS.
EXTERR_TOOLS=${EXTERR_TOOLS:-/var/tmp/exterr-tools}
EXTERR_RUSTC=${EXTERR_RUSTC:-/usr/bin/rustc}
EXTERR_BINDGEN=${EXTERR_BINDGEN:-$EXTERR_TOOLS/bin/bindgen}

die() { echo "${0##*/}: $*" >&2; exit 1; }
note() { echo "${0##*/}: $*" >&2; }

# Print the pristine source directory, unpacking the Debian tarball once.
pristine_source() {
	local dir=$EXTERR_WORK/src/linux-source-6.12
	if [ ! -f "$dir/.exterr-unpacked" ]; then
		[ -f "$LINUX_TARBALL" ] ||
			die "$LINUX_TARBALL missing: apt-get install linux-source-6.12"
		mkdir -p "$EXTERR_WORK/src"
		# Unpack once even when several scripts start at the same time.
		(
			flock 7
			[ -f "$dir/.exterr-unpacked" ] && exit 0
			rm -rf "$dir"
			note "unpacking $LINUX_TARBALL"
			tar -C "$EXTERR_WORK/src" -xJf "$LINUX_TARBALL" || exit 1
			touch "$dir/.exterr-unpacked"
		) 7>"$EXTERR_WORK/src.lock" || die "unpack failed"
	fi
	echo "$dir"
}

# Build libexterr of this checkout statically, once, and print the path of
# libexterr.a, for guest programs (the guest has no shared libraries).
static_libexterr() {
	local lib=$EXTERR_ROOT_BUILD/libexterr-static
	cmake -S "$EXTERR_ROOT" -B "$lib" -DEXTERR_BUILD_TESTS=OFF \
		-DCMAKE_BUILD_TYPE=Release >/dev/null &&
		cmake --build "$lib" -j"$(nproc)" >/dev/null || die "libexterr build failed"
	find "$lib" -name libexterr.a | head -n 1
}

# The patches of the series, in order, as absolute paths.
series_patches() {
	local p
	while read -r p; do
		case $p in ''|'#'*) continue ;; esac
		echo "$KERNEL_DIR/patches/$p"
	done < "$KERNEL_DIR/patches/series"
}

# arm64 kernels and guest programs are cross-built with Debian's
# gcc-aarch64-linux-gnu and booted on qemu-system-aarch64 (kernel/config/arm64.config).
ARM64_CROSS=aarch64-linux-gnu-
# The arm64 guest's busybox (scripts/setup unpacks Debian's busybox-static).
ARM64_BUSYBOX=$EXTERR_TOOLS/arm64/bin/busybox

# kernel_arch BUILD_DIR: the architecture a configured build is for
# (arm64, i386 or x86_64), from its .config.
kernel_arch() {
	if grep -qx CONFIG_ARM64=y "$1/.config" 2>/dev/null; then
		echo arm64
	elif grep -qx CONFIG_X86_32=y "$1/.config" 2>/dev/null; then
		echo i386
	else
		echo x86_64
	fi
}

# kernel_image BUILD_DIR: the boot image of that build.
kernel_image() {
	case $(kernel_arch "$1") in
	arm64) echo "$1/arch/arm64/boot/Image" ;;
	*) echo "$1/arch/x86/boot/bzImage" ;;
	esac
}

# guest_cc BUILD_DIR: the compiler (and flags) for static programs that run
# as the guest's /init on that build: 32-bit for an i386 kernel, the cross
# compiler for arm64.
guest_cc() {
	case $(kernel_arch "$1") in
	arm64) echo "${ARM64_CROSS}gcc" ;;
	i386) echo "gcc -m32 $(m32_cflags)" ;;
	*) echo gcc ;;
	esac
}

# gcc -m32 finds <asm/*.h> through /usr/include/asm, which Debian's
# gcc-multilib package provides; that package conflicts with the arm64
# cross compiler, so the tests install gcc-12-multilib and point -m32
# builds at the x86 uapi headers (they serve both x86 ABIs) directly.
m32_cflags() {
	echo "-idirafter /usr/include/$(gcc -print-multiarch)"
}
