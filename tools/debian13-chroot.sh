#!/usr/bin/env bash
# Runs a command from the source tree inside a Debian 13 (trixie, GStreamer
# 1.26) chroot, which it creates when absent and reuses when present.
#
#   tools/debian13-chroot.sh [COMMAND [ARG...]]   (default: tools/test.sh)
#
# The chroot is a minbase system from the Debian archive that the host's apt
# already uses, with the packages of tools/debian-packages.txt; tools/test.sh
# inside it installs whatever is added to that list later. The folder that
# holds the checkout (and ../shared beside it) is bind-mounted at the same
# path, so a build inside writes to build-debian13/ of the checkout.
#
# GPC_CHROOT_DIR picks the folder (default /var/cache/gst-gpucodecs/debian13).
# Needs root (or sudo) for debootstrap, chroot and mounts.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
chroot_dir=${GPC_CHROOT_DIR:-/var/cache/gst-gpucodecs/debian13}
suite=trixie
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"

mirror() {
  # The archive the host's apt uses (deb822 or one-line sources).
  local m
  m=$(grep -hoE '^URIs: *\S+/debian/?$' /etc/apt/sources.list.d/*.sources 2>/dev/null |
      head -n1 | sed -E 's/^URIs: *//')
  if [ -z "$m" ]; then
    m=$(grep -hoE '^deb +(\[[^]]*\] +)?\S+/debian/? ' /etc/apt/sources.list \
        /etc/apt/sources.list.d/*.list 2>/dev/null | head -n1 | awk '{print $NF}')
  fi
  echo "${m:-http://deb.debian.org/debian}"
}

create() {
  command -v mmdebstrap > /dev/null ||
    { $sudo apt-get update -q && $sudo apt-get install -y -q --no-install-recommends mmdebstrap; }
  local pkgs
  pkgs=$(grep -vE '^\s*(#|$)' "$root/tools/debian-packages.txt" | paste -sd, -)
  local tmp="$chroot_dir.partial"
  $sudo rm -rf "$tmp"
  $sudo mkdir -p "$(dirname "$chroot_dir")"
  echo "debian13-chroot: creating $chroot_dir from $(mirror) (minbase + the suite's packages)"
  $sudo mmdebstrap --variant=minbase --mode=root \
    --aptopt='APT::Install-Recommends "false"' \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' \
    --dpkgopt='path-exclude=/usr/share/locale/*' \
    --include="$pkgs" "$suite" "$tmp" "$(mirror)"
  $sudo mv "$tmp" "$chroot_dir"
}

[ -n "${GPC_CHROOT_NS:-}" ] || [ -x "$chroot_dir/usr/bin/apt-get" ] || create

# The rest runs in a mount namespace of its own: the bind mounts below are
# private to this run (several runs may share the chroot) and vanish with it.
if [ -z "${GPC_CHROOT_NS:-}" ]; then
  exec $sudo env GPC_CHROOT_NS=1 GPC_CHROOT_DIR="$chroot_dir" CI="${CI:-}" \
    unshare --mount --propagation private bash "$0" "$@"
fi

# The checkout's parent folder at the same path inside, plus the kernel's
# file systems.
share=$(dirname "$root")
bind() {
  mkdir -p "$chroot_dir$2"
  mount --bind "$1" "$chroot_dir$2"
}
bind /proc /proc
bind /sys /sys
bind /dev /dev
bind /dev/pts /dev/pts
mkdir -p "$chroot_dir/tmp"
mount -t tmpfs tmpfs "$chroot_dir/tmp"
bind "$share" "$share"
# The CUDA toolkit, where the host has one, so that the build inside
# compiles cudaflacdec's kernels too (nvcc; see meson.build).
if [ -d /usr/local/cuda ]; then
  bind /usr/local/cuda /usr/local/cuda
  mount -o remount,bind,ro "$chroot_dir/usr/local/cuda"
fi
cp /etc/resolv.conf "$chroot_dir/etc/resolv.conf" 2> /dev/null || true

[ $# -gt 0 ] || set -- tools/test.sh
# A clean environment: the host's build paths and displays stay outside.
chroot "$chroot_dir" /usr/bin/env -i \
  HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  LANG=C.UTF-8 CI="${CI:-}" BUILD_DIR="$root/build-debian13" \
  bash -c 'cd "$1" && shift && exec "$@"' bash "$root" "$@"
