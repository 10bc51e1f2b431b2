// Each tool's facts, as every reader outside src/tools gets them: Claude Code's name, ACP's kind,
// whether it only reads, the paths it reaches and the command it runs.
import { describe, expect, test } from "bun:test";
import { homedir } from "node:os";
import { builtinFacts, claudeToolName, shellEquivalents } from "../../src/tools/builtin.ts";

const cwd = "/work/project";

describe("tool facts", () => {
  test("each built-in tool says who it is and what a call reaches", () => {
    expect(builtinFacts("read", { file_path: "src/a.ts", offset: 40 }, cwd)).toEqual({ name: "read", claudeName: "Read", kind: "read", access: "read", paths: [{ path: "/work/project/src/a.ts", line: 40 }] });
    expect(builtinFacts("write", { file_path: "~/notes.md", content: "" }, cwd)).toEqual({ name: "write", claudeName: "Write", kind: "edit", access: "write", paths: [{ path: `${homedir()}/notes.md` }] });
    expect(builtinFacts("edit", { file_path: "/etc/hosts", old_string: "a", new_string: "b" }, cwd)).toMatchObject({ claudeName: "Edit", kind: "edit", access: "write", paths: [{ path: "/etc/hosts" }] });
    expect(builtinFacts("grep", { pattern: "x" }, cwd)).toMatchObject({ claudeName: "Grep", kind: "search", access: "read", paths: [{ path: cwd }] });
    expect(builtinFacts("glob", { pattern: "*.ts", path: "../other" }, cwd)).toMatchObject({ claudeName: "Glob", kind: "search", access: "read", paths: [{ path: "/work/other" }] });
    expect(builtinFacts("bash", { command: "npm test" }, cwd)).toEqual({ name: "bash", claudeName: "Bash", kind: "execute", access: "write", paths: [], command: "npm test" });
    expect(builtinFacts("process", { action: "start", command: "npm run dev" }, cwd)).toMatchObject({ claudeName: "Process", kind: "execute", access: "write", command: "npm run dev" });
    expect(builtinFacts("process", { action: "read", id: "dev" }, cwd)).toEqual({ name: "process", claudeName: "Process", kind: "execute", access: "read", paths: [] });
  });

  test("an input the tool would reject reaches nothing; a tool nobody declared is only its name", () => {
    expect(builtinFacts("read", { file_path: 7 }, cwd)).toEqual({ name: "read", claudeName: "Read", kind: "read", access: "read", paths: [] });
    expect(builtinFacts("mcp__github__create_issue", { title: "x" }, cwd)).toEqual({ name: "mcp__github__create_issue", claudeName: "mcp__github__create_issue", kind: "other", access: "write", paths: [] });
    expect(claudeToolName("mcp__github__create_issue")).toBe("mcp__github__create_issue");
    expect(claudeToolName("todo")).toBe("Todo");
  });

  test("the shell commands each tool stands in for are named only when the session has a shell", () => {
    expect(shellEquivalents(["read", "edit", "bash"])).toEqual(["read, not cat/head/tail", "edit, not sed/awk"]);
    expect(shellEquivalents(["read", "edit"])).toEqual([]);
  });
});
