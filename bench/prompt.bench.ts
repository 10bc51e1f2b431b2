// The first request of a fresh session (no AGENTS.md, no git), from the real CLI in print mode:
// bytes of the system prompt (cached static block, per-session dynamic block) and of each tool
// definition. Every request carries them; the test holds the total to 12 KB.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { firstRequest, requestSize } from "../test/support/first-request.ts";

export async function run(_opts: { json: boolean }) {
  const dir = mkdtempSync(join(tmpdir(), "khaelor-bench-prompt-"));
  try {
    const size = requestSize(await firstRequest(dir));
    return [
      {
        name: "first request: system prompt + tool definitions (JSON bytes)",
        total_bytes: size.total,
        system_static_bytes: size.systemStatic,
        system_dynamic_bytes: size.systemDynamic,
        tools_bytes: size.tools.reduce((n, t) => n + t.total, 0),
        per_tool: Object.fromEntries(size.tools.map((t) => [t.name, `${t.total} (description ${t.description}, schema ${t.schema})`])),
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
