import { describe, expect, test } from "bun:test";
import { z } from "zod";
import { builtinTools } from "../../src/tools/builtin.ts";
import { createToolRuntime } from "../../src/tools/runtime.ts";
import type { Tool } from "../../src/tools/types.ts";
import { createWorkspace } from "../../src/workspace/local.ts";

const ws = createWorkspace({ root: "/tmp", spillDir: "/tmp/khaelor-runtime-spill" });
const ctx = { workspace: ws, signal: new AbortController().signal };

describe("tool runtime", () => {
  test("the seven tools, lowercase, with Claude Code's parameter names as object schemas", () => {
    const rt = createToolRuntime(builtinTools());
    expect(rt.names()).toEqual(["read", "write", "edit", "grep", "glob", "bash", "process"]);
    const props = Object.fromEntries(rt.specs().map((s) => [s.name, Object.keys(s.input_schema.properties ?? {})]));
    expect(props.read).toEqual(["file_path", "offset", "limit"]);
    expect(props.write).toEqual(["file_path", "content"]);
    expect(props.edit).toEqual(["file_path", "old_string", "new_string", "replace_all"]);
    expect(props.grep).toEqual(["pattern", "path", "glob", "type", "output_mode", "-i", "-n", "-A", "-B", "-C", "head_limit", "multiline"]);
    expect(props.glob).toEqual(["pattern", "path"]);
    expect(props.bash).toEqual(["command", "timeout", "description", "dangerouslyDisableSandbox"]);
    expect(props.process).toContain("wait_for");
    for (const s of rt.specs()) {
      expect(s.input_schema.type).toBe("object");
      expect(s.input_schema.$schema).toBeUndefined();
      expect(s.description.length).toBeGreaterThan(100);
      expect(JSON.stringify(s.input_schema)).not.toContain("9007199254740991");
    }
    expect(rt.specs().find((s) => s.name === "edit")!.input_schema.required).toEqual(["file_path", "old_string", "new_string"]);
  });

  test("describe() gives kind and summary for permissions and the UI", () => {
    const rt = createToolRuntime(builtinTools());
    expect(rt.describe({ id: "1", name: "read", input: { file_path: "a.ts" } })).toEqual({ readOnly: true, destructive: false, summary: "read a.ts", valid: true });
    expect(rt.describe({ id: "1", name: "bash", input: { command: "npm test", description: "Run tests" } })!.summary).toBe("bash: Run tests");
    expect(rt.describe({ id: "1", name: "write", input: {} })).toMatchObject({ summary: "write (invalid input)", valid: false });
    expect(rt.describe({ id: "1", name: "nope", input: {} })).toBeNull();
  });

  test("an unknown tool is an error outcome listing the available tools", async () => {
    const rt = createToolRuntime(builtinTools());
    const o = await rt.execute({ id: "1", name: "Read", input: {} }, ctx);
    expect(o.kind).toBe("unknown_tool");
    expect(o.isError).toBe(true);
    expect(o.content).toContain("Available tools: read, write, edit, grep, glob, bash, process");
  });

  test("invalid input names the fields, never the values", async () => {
    const rt = createToolRuntime(builtinTools());
    const secret = "sk-very-secret-value";
    const o = await rt.execute({ id: "1", name: "edit", input: { file_path: 42, old_string: secret, new_string: ["x"], replace_all: secret } }, ctx);
    expect(o.kind).toBe("invalid_input");
    const text = o.content as string;
    expect(text).toContain("file_path: expected string, got number");
    expect(text).toContain("new_string: expected string");
    expect(text).toContain("replace_all: expected boolean");
    expect(text).not.toContain(secret);
    const missing = await rt.execute({ id: "2", name: "read", input: undefined }, ctx);
    expect(missing.content).toContain("file_path: required field is missing");
    const enumBad = await rt.execute({ id: "3", name: "grep", input: { pattern: "x", output_mode: "lines" } }, ctx);
    expect(enumBad.content).toContain('output_mode: must be one of "content", "files_with_matches", "count"');
  });

  test("a tool that throws becomes an error outcome; the runtime never throws", async () => {
    const boom: Tool<{ x: string }> = {
      name: "boom",
      description: "throws",
      inputSchema: z.object({ x: z.string() }),
      readOnly: true,
      destructive: false,
      summarize: () => {
        throw new Error("summary broke");
      },
      run: async () => {
        throw new Error("disk on fire");
      },
    };
    const rt = createToolRuntime([boom]);
    const o = await rt.execute({ id: "1", name: "boom", input: { x: "y" } }, ctx);
    expect(o.kind).toBe("error");
    expect(o.content).toBe("boom failed: disk on fire");
    expect(o.summary).toBe("boom");
    expect(o.durationMs).toBeGreaterThanOrEqual(0);
  });

  test("tools on a workspace without local capabilities fail with a clear message", async () => {
    const rt = createToolRuntime(builtinTools());
    const bare = { root: "/tmp", cwd: "/tmp", resolve: (p: string) => p };
    const o = await rt.execute({ id: "1", name: "read", input: { file_path: "/etc/hostname" } }, { workspace: bare, signal: new AbortController().signal });
    expect(o.kind).toBe("error");
    expect(o.content).toContain("needs a local workspace");
  });
});
