// What the permission panel is built from: each thing said once.
import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AskRequest } from "../../../src/agent/types.ts";
import { buildPermissionPrompt } from "../../../src/tui/app/permission-prompt.ts";
import { renderPermissionPanel } from "../../../src/tui/views/permission-panel.ts";
import { rowText } from "../../../src/tui/views/text.ts";

const dir = mkdtempSync(join(tmpdir(), "khaelor-prompt-"));

describe("permission prompt", () => {
  test("a process start names its command once in the panel (and once in the rule)", () => {
    const req = {
      call: { id: "t1", name: "process", input: { action: "start", command: "sh run-js.sh server.js", name: "slug-server" } },
      summary: "process start slug-server: sh run-js.sh server.js",
      reason: "running `sh run-js.sh server.js`",
      suggestion: { rules: ["Process(sh run-js.sh *)"] },
    } as unknown as AskRequest;
    const p = buildPermissionPrompt(req, dir);
    const text = renderPermissionPanel({ prompt: p, message: null }, 100, 20).map(rowText).join("\n");
    expect(text.split("sh run-js.sh server.js").length - 1).toBe(1);
    expect(text).toContain("process start slug-server");
  });

  test("a reason that says more than the command stays", () => {
    const req = { call: { id: "t1", name: "bash", input: { command: "git push" } }, summary: "bash: git push", reason: "`git push` asks because of Bash(git push *) (user settings)" } as unknown as AskRequest;
    expect(buildPermissionPrompt(req, dir).reason).toContain("asks because of");
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
