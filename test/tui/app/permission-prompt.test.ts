// What the permission panel is built from: each thing said once.
import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AskRequest } from "../../../src/agent/types.ts";
import { buildPermissionPrompt } from "../../../src/tui/app/permission-prompt.ts";
import { renderPermissionPanel } from "../../../src/tui/views/permission-panel.ts";
import { rowText } from "../../../src/tui/views/text.ts";
import { builtinTools } from "../../../src/tools/builtin.ts";
import { createToolRuntime } from "../../../src/tools/runtime.ts";
import { createWorkspace } from "../../../src/workspace/local.ts";

const dir = mkdtempSync(join(tmpdir(), "khaelor-prompt-"));

/** The ask for a call as the gate makes it: prepared by the real tools, so the preview is the tool's own. */
async function askFor(name: string, input: Record<string, unknown>, reason: string, rules: string[] = []): Promise<AskRequest> {
  const workspace = createWorkspace({ root: dir, spillDir: join(dir, ".spill") });
  const p = await createToolRuntime(builtinTools()).prepare({ id: "t1", name, input }, { workspace, signal: new AbortController().signal });
  if (!p.ok) throw new Error(`${name} did not prepare`);
  return { call: p.call, summary: p.summary, reason, facts: p.facts, ...(rules.length ? { suggestion: { rule: rules[0]!, rules, description: "" } } : {}), ...(p.preview ? { preview: p.preview } : {}) };
}

describe("permission prompt", () => {
  test("a process start names its command once in the panel (and once in the rule)", async () => {
    const req = await askFor("process", { action: "start", command: "sh run-js.sh server.js", name: "slug-server" }, "running `sh run-js.sh server.js`", ["Process(sh run-js.sh *)"]);
    expect(req.summary).toBe("process start slug-server: sh run-js.sh server.js");
    const p = buildPermissionPrompt(req, dir);
    const text = renderPermissionPanel({ prompt: p, message: null }, 100, 20).map(rowText).join("\n");
    expect(text.split("sh run-js.sh server.js").length - 1).toBe(1);
    expect(text).toContain("process start slug-server");
  });

  test("a reason that says more than the command stays", async () => {
    const req = await askFor("bash", { command: "git push" }, "`git push` asks because of Bash(git push *) (user settings)");
    const p = buildPermissionPrompt(req, dir);
    expect(p.reason).toContain("asks because of");
    expect(p.detail).toEqual({ label: "command", text: "git push" });
  });

  test("each tool's own preview says what it will do: a command, a process, a path", async () => {
    const detail = async (name: string, input: Record<string, unknown>) => buildPermissionPrompt(await askFor(name, input, "asks"), dir).detail;
    expect(await detail("bash", { command: "make" })).toEqual({ label: "command", text: "make" });
    expect(await detail("process", { action: "write", id: "srv", input: "q" })).toEqual({ label: "process", text: "write srv" });
    expect(await detail("read", { file_path: "/etc/hosts" })).toEqual({ label: "path", text: "/etc/hosts" });
    expect(await detail("grep", { pattern: "x", path: "/var/log" })).toEqual({ label: "path", text: "/var/log" });
    expect(await detail("glob", { pattern: "*.ts" })).toBeUndefined();
  });

  test("an edit shows the diff its tool planned, not one rebuilt from the call (the file need not exist here)", () => {
    const diff = "--- gone.ts\n+++ gone.ts\n@@ -1,1 +1,1 @@\n-        a();\n+        b();\n";
    const req = {
      call: { id: "t1", name: "edit", input: { file_path: "gone.ts", old_string: "  a();", new_string: "  b();" } },
      summary: "edit gone.ts",
      reason: "writing gone.ts",
      preview: { path: "gone.ts", diff },
    } as unknown as AskRequest;
    const p = buildPermissionPrompt(req, dir);
    expect(p.diff).toBe(diff);
    expect(p.detail).toBeUndefined();
    const text = renderPermissionPanel({ prompt: p, message: null }, 100, 20).map(rowText).join("\n");
    expect(text).toContain("+         b();");
    expect(text).not.toContain("approximate");
  });
});
