#!/bin/sh
# The `khaelor` command of the npm package: finds the binary npm installed for this machine (the
# optional dependency khaelor-<platform>, beside this package or inside it) and becomes it with
# exec, so signals, exit codes and Ctrl-Z are the binary's own and no Node.js process stays behind.
set -eu
case "$(uname -s)" in Linux) os=linux ;; Darwin) os=darwin ;; *) os=$(uname -s) ;; esac
case "$(uname -m)" in x86_64 | amd64) arch=x64 ;; aarch64 | arm64) arch=arm64 ;; *) arch=$(uname -m) ;; esac
# A shell running under Rosetta says x86_64; npm on an arm64 Node installed the arm64 package.
if [ "$os-$arch" = darwin-x64 ] && [ "$(sysctl -n sysctl.proc_translated 2>/dev/null || echo 0)" = 1 ]; then arch=arm64; fi
self=$0
while [ -L "$self" ]; do
  link=$(readlink "$self")
  case $link in /*) self=$link ;; *) self=$(dirname "$self")/$link ;; esac
done
pkg=$(cd "$(dirname "$self")/.." && pwd)
for bin in "$pkg/node_modules/khaelor-$os-$arch/bin/khaelor" "$pkg/../khaelor-$os-$arch/bin/khaelor"; do
  if [ -x "$bin" ]; then exec "$bin" "$@"; fi
done
case "$os-$arch" in
  linux-x64 | linux-arm64 | darwin-x64 | darwin-arm64)
    echo "khaelor: npm did not install khaelor-$os-$arch (optional dependencies left out?): run npm install -g khaelor --include=optional" >&2 ;;
  *)
    echo "khaelor: there is no khaelor binary for $os-$arch (there are for linux-x64, linux-arm64, darwin-x64, darwin-arm64)" >&2 ;;
esac
exit 1
