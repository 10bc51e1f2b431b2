#!/usr/bin/env bash
# Smoke-runs a khaelor binary (default dist/khaelor) copied alone into an empty directory:
# --version, then a print-mode run (stream-json) against the fake Messages API whose tools are bash,
# grep and glob (the embedded ripgrep, unpacked to an empty cache), read and edit.
#   scripts/smoke.sh [BINARY]; KHAELOR_RUNNER runs the binary through an emulator, e.g.
#   KHAELOR_RUNNER="qemu-aarch64-static -L /usr/aarch64-linux-gnu" scripts/smoke.sh dist/release/khaelor-linux-arm64
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$(realpath "${1:-$root/dist/khaelor}")
read -r -a runner <<< "${KHAELOR_RUNNER:-}"
work=$(mktemp -d)
api_pid=""
trap '[ -n "$api_pid" ] && kill "$api_pid" 2>/dev/null; rm -rf "$work"' EXIT
mkdir -p "$work/bin" "$work/project" "$work/home"
cp "$bin" "$work/bin/khaelor"
export HOME="$work/home" XDG_CACHE_HOME="$work/home/cache" KHAELOR_HOME="$work/home/data"
run() { "${runner[@]}" "$work/bin/khaelor" "$@"; }

cd "$work/bin"
version=$(run --version)
echo "$version"
# A release binary is named for its platform; --version must name the same one.
case "$(basename "$bin")" in khaelor-*) [[ "$version" == *"${bin##*/khaelor-}"* ]] || { echo "smoke: --version does not name ${bin##*/khaelor-}" >&2; exit 1; } ;; esac

"$root/node_modules/.bin/bun" "$root/src/fakeapi/cli.ts" --scenario "$root/test/fixtures/smoke-scenario.json" > "$work/api.out" &
api_pid=$!
for _ in $(seq 100); do [ -s "$work/api.out" ] && break; sleep 0.05; done
url=$(head -1 "$work/api.out")

cd "$work/project"
started=$(date +%s%N)
ANTHROPIC_BASE_URL="$url" ANTHROPIC_API_KEY=sk-ant-smoke PATH=/usr/bin:/bin \
  run -p "smoke" --output-format stream-json --permission-mode bypassPermissions > "$work/out.ndjson"
ms=$(( ($(date +%s%N) - started) / 1000000 ))
"$root/node_modules/.bin/bun" -e '
  const lines = require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n").map((l) => JSON.parse(l));
  const first = lines[0], last = lines[lines.length - 1];
  if (first.type !== "system" || first.subtype !== "init") throw new Error("init is not first");
  if (last.type !== "result" || last.subtype !== "success" || last.result !== "Smoke test passed.") throw new Error("bad result: " + JSON.stringify(last));
  console.log(`smoke: ${lines.length} NDJSON lines, init first, result last`);
' "$work/out.ndjson"
grep -q 'greeting = "edited by the smoke"' src/app.ts || { echo "smoke: the edit is not on disk" >&2; exit 1; }
ls "$XDG_CACHE_HOME"/khaelor/*/bin/rg-* > /dev/null || { echo "smoke: the embedded ripgrep was not unpacked" >&2; exit 1; }
echo "smoke: the print-mode session took ${ms} ms"
