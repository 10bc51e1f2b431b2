// A call is prepared before the permission gate, so what a failure then says must not depend on
// files the session has not read: a denied folder's file names and whether a file exists stay hidden.
import { afterEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { builtinTools } from "../../src/tools/builtin.ts";
import { createToolRuntime } from "../../src/tools/runtime.ts";
import type { FailedCall, PreparedCall, ToolOutcome } from "../../src/tools/types.ts";
import { makeHarness, type Harness } from "./harness.ts";

let h: Harness | null = null;
afterEach(async () => {
  await h?.cleanup();
  h = null;
});

/** The answer given before the gate, or null when the call goes on to it. */
const failure = (p: PreparedCall | FailedCall): ToolOutcome | null => (p.ok ? null : p.outcome);
const text = (o: ToolOutcome | null) => (o === null ? null : typeof o.content === "string" ? o.content : JSON.stringify(o.content));

test("an unread path gets one answer whether or not it exists, and no names from its folder", async () => {
  h = makeHarness();
  mkdirSync(join(h.dir, "secrets"));
  writeFileSync(join(h.dir, "secrets", "prod-db-password.txt"), "hunter2\n");
  const rt = createToolRuntime(builtinTools());
  const ctx = { workspace: h.ws, signal: new AbortController().signal };
  const edit = async (file_path: string) => failure(await rt.prepare({ id: "t", name: "edit", input: { file_path, old_string: "a", new_string: "b" } }, ctx));

  const typo = text(await edit("secrets/prod-db-pasword.txt"));
  const real = text(await edit("secrets/prod-db-password.txt"));
  expect(typo).not.toContain("password.txt");
  expect(typo!.replace("pasword", "password")).toBe(real!);
  expect(real).toContain("has not been read");
  // write: nothing is said before the gate about a path not read, existing or not
  const write = async (file_path: string) => failure(await rt.prepare({ id: "t", name: "write", input: { file_path, content: "x" } }, ctx));
  expect(await write("secrets/prod-db-password.txt")).toBeNull();
  expect(await write("secrets/new.txt")).toBeNull();
});

test("a file the session read is checked before anyone is asked", async () => {
  h = makeHarness();
  writeFileSync(join(h.dir, "a.txt"), "alpha\n");
  await h.call("read", { file_path: "a.txt" });
  const rt = createToolRuntime(builtinTools());
  const ctx = { workspace: h.ws, signal: new AbortController().signal };
  const r = failure(await rt.prepare({ id: "t", name: "edit", input: { file_path: "a.txt", old_string: "nothere", new_string: "b" } }, ctx));
  expect(r?.isError).toBe(true);
  expect(text(r)).toContain("a.txt");
  expect(failure(await rt.prepare({ id: "t", name: "edit", input: { file_path: "a.txt", old_string: "alpha", new_string: "b" } }, ctx))).toBeNull();
});
