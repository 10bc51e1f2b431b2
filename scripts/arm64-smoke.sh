#!/usr/bin/env bash
# Runs the smoke session (scripts/smoke.sh) with dist/release/khaelor-linux-arm64 under qemu-user on
# an x64 Linux machine. qemu runs the binary itself; the arm64 ripgrep it unpacks and spawns runs
# through the kernel's binfmt_misc handler for aarch64, registered here (and removed again after)
# when the machine has none, since qemu-user does not follow a child's exec on its own.
# Needs root for apt-get and binfmt_misc, as in CI.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin="$root/dist/release/khaelor-linux-arm64"
[ -f "$bin" ] || { echo "arm64-smoke: $bin is missing: run bun run release --target linux-arm64" >&2; exit 1; }

if ! command -v qemu-aarch64-static > /dev/null || [ ! -d /usr/aarch64-linux-gnu ]; then
  command -v apt-get > /dev/null || { echo "arm64-smoke: qemu-aarch64-static is not installed and there is no apt-get to install it (Debian/Ubuntu: apt-get install qemu-user-static libc6-arm64-cross)" >&2; exit 1; }
  export DEBIAN_FRONTEND=noninteractive
  # Package lists may be missing on a fresh machine: update once, only when the install needs it.
  apt-get install -y -q qemu-user-static libc6-arm64-cross > /dev/null 2>&1 ||
    { apt-get update -q > /dev/null && apt-get install -y -q qemu-user-static libc6-arm64-cross > /dev/null; } ||
    { echo "arm64-smoke: apt-get could not install qemu-user-static libc6-arm64-cross" >&2; exit 1; }
fi

binfmt=/proc/sys/fs/binfmt_misc
mounted="" registered=""
cleanup() {
  [ -n "$registered" ] && echo -1 > "$binfmt/qemu-aarch64"
  [ -n "$mounted" ] && umount "$binfmt"
  return 0
}
trap cleanup EXIT
if [ ! -e "$binfmt/register" ]; then
  mount -t binfmt_misc binfmt_misc "$binfmt" || { echo "arm64-smoke: cannot mount binfmt_misc (needs root): the arm64 ripgrep could not run" >&2; exit 1; }
  mounted=1
fi
if [ ! -e "$binfmt/qemu-aarch64" ]; then
  conf=/usr/lib/binfmt.d/qemu-aarch64.conf
  [ -f "$conf" ] || { echo "arm64-smoke: $conf is missing (from qemu-user-static)" >&2; exit 1; }
  cat "$conf" > "$binfmt/register"
  registered=1
fi

started=$(date +%s%N)
KHAELOR_RUNNER="qemu-aarch64-static -L /usr/aarch64-linux-gnu" bash "$root/scripts/smoke.sh" "$bin"
echo "arm64-smoke: $(( ($(date +%s%N) - started) / 1000000 )) ms under qemu, --version included"
