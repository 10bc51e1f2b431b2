// tools/list_changed: one re-list in flight at a time, at most one more queued behind it; a server
// that keeps sending them is no longer listened to, with a notice, and keeps its last tools.
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { FLOOD_LIMIT, FLOOD_WINDOW_MS } from "../../src/mcp/list-refresh.ts";
import { fakeApiFixture } from "../support/fake-api.ts";
import { isolatedEnv, runCli, tempProject } from "../support/cli.ts";
import { mcpConfig, toolResults } from "./support.ts";
import { callTool, closedAfterEach, hostile, startManager } from "./support-manager.ts";

const serve = fakeApiFixture();
const managers = closedAfterEach();
const lists = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").split("\n").filter((l) => l === "list").length : 0);
const FLOOD_NOTICE = `it sent more than ${FLOOD_LIMIT} tools/list_changed notifications in ${FLOOD_WINDOW_MS / 1000} s, so they are ignored and its tools stay as last listed (reconnect it to list them again)`;

test("20,000 notifications in a row: at most two re-lists, the server ignored with a notice, the session goes on", async () => {
  const calls = join(tempProject(), "calls");
  const api = await serve({
    turns: [
      { content: [{ type: "tool_use", id: "f1", name: "mcp__h__flood", input: { count: 20_000 } }] },
      { content: [{ type: "tool_use", id: "e1", name: "mcp__h__echo", input: { text: "still" } }] },
      { content: [{ type: "text", text: "done" }] },
    ],
  });
  const r = await runCli(["-p", "go", "--mcp-config", mcpConfig({ h: hostile("--flood", "--calls-file", calls) }), "--allowedTools", "mcp__h"], { cwd: tempProject(), env: isolatedEnv(api.url) });
  expect(r.code).toBe(0);
  expect(toolResults(api.requests[2]!.body)[0]!.content).toBe('echo got {"text":"still"}');
  // the first listing, then at most one in flight and one queued
  expect(lists(calls)).toBeGreaterThanOrEqual(1);
  expect(lists(calls)).toBeLessThanOrEqual(3);
  expect(r.stderr).toBe(`khaelor: MCP server h: ${FLOOD_NOTICE}\n`);
}, 60_000);

test("notifications spread over time are followed; past the limit within the window they are ignored (an injected clock)", async () => {
  const calls = join(tempProject(), "calls");
  let now = 1_000_000;
  const m = startManager({ h: hostile("--flood", "--calls-file", calls) }, { now: () => now });
  managers.push(m);
  await m.listed();
  expect(lists(calls)).toBe(1);
  // a burst at the limit: coalesced, and followed
  await callTool(m, "mcp__h__flood", { count: FLOOD_LIMIT });
  await m.listed();
  const afterFirst = lists(calls);
  expect(afterFirst).toBeGreaterThanOrEqual(2);
  expect(afterFirst).toBeLessThanOrEqual(3);
  // the window has passed: as many again is still followed
  now += FLOOD_WINDOW_MS + 1;
  await callTool(m, "mcp__h__flood", { count: FLOOD_LIMIT });
  await m.listed();
  expect(lists(calls)).toBeGreaterThan(afterFirst);
  expect(m.servers()[0]!.notices).toEqual([]);
  // within the same window, one more is a flood: told once, and nothing more is listed
  await callTool(m, "mcp__h__flood", { count: 1 });
  await m.listed();
  expect(m.servers()[0]!.notices).toEqual([FLOOD_NOTICE]);
  const before = lists(calls);
  now += 1;
  await callTool(m, "mcp__h__flood", { count: 5 });
  await m.listed();
  expect(lists(calls)).toBe(before);
  expect(m.servers()[0]!.status).toEqual({ state: "connected" });
  expect(m.tools().map((t) => t.name)).toEqual(["mcp__h__flood", "mcp__h__echo"]);
}, 30_000);
