#!/bin/sh
# Installs khaelor, or upgrades it in place:
#   curl -fsSL <release URL>/install.sh | sh                 into ~/.local/bin
#   curl -fsSL <release URL>/install.sh | sh -s -- --dir DIR
# Picks the binary for this machine, downloads it and its .sha256 from the release URL
# (KHAELOR_RELEASE_URL overrides the default), checks the checksum and that the binary runs, then
# renames it into place: a failed download or a checksum that does not match installs nothing and
# leaves no partial file. POSIX sh (dash, bash, busybox ash); needs curl or wget, and sha256sum or shasum.
# Everything runs from main at the end, so a script cut off while piped into sh runs nothing.

# The project has no public release host yet: this default never resolves (the .invalid domain).
# It must match PLACEHOLDER_RELEASE_URL in src/install/release-url.ts.
DEFAULT_RELEASE_URL="https://releases.khaelor.invalid/latest"

say() { printf 'khaelor install: %s\n' "$*"; }
fail() {
  printf 'khaelor install: %s\n' "$*" >&2
  exit 1
}

usage() {
  cat <<'USAGE'
Installs khaelor for this machine.
  sh install.sh [--dir DIR]    install into DIR (default ~/.local/bin)
KHAELOR_RELEASE_URL            where releases are fetched from (a mirror)
USAGE
}

detect_platform() {
  os=$(uname -s)
  arch=$(uname -m)
  case "$os" in
    Linux) os=linux ;;
    Darwin) os=darwin ;;
    *) fail "no khaelor binary for $os $arch: there are for Linux and macOS on x86-64 and arm64; on other systems, build it from source (see the README)" ;;
  esac
  case "$arch" in
    x86_64 | amd64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) fail "no khaelor binary for $(uname -s) $arch: there are for x86-64 and arm64; build it from source (see the README)" ;;
  esac
  # A shell under Rosetta reports x86_64 on Apple silicon: the arm64 binary is the native one.
  if [ "$os-$arch" = darwin-x64 ] && [ "$(sysctl -n sysctl.proc_translated 2>/dev/null || echo 0)" = 1 ]; then arch=arm64; fi
  platform="$os-$arch"
}

# download URL FILE: the whole body into FILE, or a failure (HTTP errors included).
download() {
  if command -v curl >/dev/null 2>&1; then
    curl -fsSL --retry 2 -o "$2" "$1"
  elif command -v wget >/dev/null 2>&1; then
    wget -q -O "$2" "$1"
  else
    fail "neither curl nor wget is installed: install one of them (e.g. apt-get install curl), then run this again"
  fi
}

sha256_of() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d ' ' -f 1
  elif command -v shasum >/dev/null 2>&1; then
    shasum -a 256 "$1" | cut -d ' ' -f 1
  else
    fail "cannot check the download: neither sha256sum nor shasum is installed (install coreutils or perl)"
  fi
}

path_hint() {
  case ":${PATH:-}:" in *":$1:"*) return ;; esac
  case "$(basename "${SHELL:-sh}")" in
    zsh) rc="$HOME/.zshrc" ;;
    bash) if [ "$(uname -s)" = Darwin ]; then rc="$HOME/.bash_profile"; else rc="$HOME/.bashrc"; fi ;;
    fish)
      say "$1 is not on your PATH; add it with: fish_add_path $1"
      return
      ;;
    *) rc="$HOME/.profile" ;;
  esac
  say "$1 is not on your PATH; add it with:"
  printf '  echo '\''export PATH="%s:$PATH"'\'' >> %s && . %s\n' "$1" "$rc" "$rc"
}

main() {
  dir="${HOME:?HOME is not set}/.local/bin"
  while [ $# -gt 0 ]; do
    case "$1" in
      --dir)
        [ $# -ge 2 ] || fail "--dir needs a directory"
        dir=$2
        shift 2
        ;;
      --dir=*)
        dir=${1#--dir=}
        shift
        ;;
      -h | --help)
        usage
        exit 0
        ;;
      *) fail "unknown argument $1 (usage: install.sh [--dir DIR])" ;;
    esac
  done
  base=${KHAELOR_RELEASE_URL:-$DEFAULT_RELEASE_URL}
  base=${base%/}
  detect_platform
  command -v curl >/dev/null 2>&1 || command -v wget >/dev/null 2>&1 ||
    fail "neither curl nor wget is installed: install one of them (e.g. apt-get install curl), then run this again"

  mkdir -p "$dir" 2>/dev/null || fail "cannot create $dir: choose a directory you can write with --dir DIR"
  # The download goes beside its destination, so the final step is a rename within one file system.
  tmp="$dir/.khaelor-install.$$"
  sum="$dir/.khaelor-install.$$.sha256"
  trap 'rm -f "$tmp" "$sum"' EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  trap 'exit 129' HUP
  : >"$tmp" 2>/dev/null || fail "cannot write to $dir: run with --dir DIR for a directory you own (or as a user who can write $dir)"

  file="khaelor-$platform"
  say "downloading $file from $base"
  download "$base/$file.sha256" "$sum" || fail "could not download $base/$file.sha256: check your connection and KHAELOR_RELEASE_URL, then run this again"
  download "$base/$file" "$tmp" || fail "could not download $base/$file (interrupted or refused): nothing was installed; run this again"
  want=$(cut -d ' ' -f 1 <"$sum")
  case "$want" in
    *[!0-9a-f]* | "") fail "$base/$file.sha256 holds no sha256: nothing was installed" ;;
  esac
  [ ${#want} -eq 64 ] || fail "$base/$file.sha256 holds no sha256: nothing was installed"
  got=$(sha256_of "$tmp")
  [ "$got" = "$want" ] || fail "the download of $file is damaged (sha256 $got, expected $want): nothing was installed; run this again"
  chmod 755 "$tmp"
  # curl and wget set no quarantine attribute, but a file copied from a browser download may carry one.
  if [ "$os" = darwin ]; then xattr -d com.apple.quarantine "$tmp" 2>/dev/null || true; fi
  version=$("$tmp" --version 2>/dev/null) || fail "the downloaded $file does not run on this machine ($(uname -sm)): nothing was installed"
  mv -f "$tmp" "$dir/khaelor" || fail "could not move the new binary into $dir/khaelor: nothing was changed"
  rm -f "$sum"
  trap - EXIT
  say "installed khaelor $version at $dir/khaelor"
  path_hint "$dir"
}

main "$@"
