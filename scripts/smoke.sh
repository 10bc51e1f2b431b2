#!/usr/bin/env bash
# Smoke-runs dist/khaelor copied alone into an empty directory: --version, then a print-mode run
# (stream-json) with real tools (bash, the embedded ripgrep) against the fake Messages API.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
api_pid=""
trap '[ -n "$api_pid" ] && kill "$api_pid" 2>/dev/null; rm -rf "$work"' EXIT
mkdir -p "$work/bin" "$work/project" "$work/home"
cp "$root/dist/khaelor" "$work/bin/khaelor"
export HOME="$work/home" XDG_CACHE_HOME="$work/home/cache" KHAELOR_HOME="$work/home/data"

cd "$work/bin"
./khaelor --version

"$root/node_modules/.bin/bun" "$root/src/fakeapi/cli.ts" --scenario "$root/test/fixtures/smoke-scenario.json" > "$work/api.out" &
api_pid=$!
for _ in $(seq 100); do [ -s "$work/api.out" ] && break; sleep 0.05; done
url=$(head -1 "$work/api.out")

cd "$work/project"
ANTHROPIC_BASE_URL="$url" ANTHROPIC_API_KEY=sk-ant-smoke PATH=/usr/bin:/bin \
  "$work/bin/khaelor" -p "smoke" --output-format stream-json --permission-mode bypassPermissions > "$work/out.ndjson"
"$root/node_modules/.bin/bun" -e '
  const lines = require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n").map((l) => JSON.parse(l));
  const first = lines[0], last = lines[lines.length - 1];
  if (first.type !== "system" || first.subtype !== "init") throw new Error("init is not first");
  if (last.type !== "result" || last.subtype !== "success" || last.result !== "Smoke test passed.") throw new Error("bad result: " + JSON.stringify(last));
  console.log(`smoke: ${lines.length} NDJSON lines, init first, result last`);
' "$work/out.ndjson"
