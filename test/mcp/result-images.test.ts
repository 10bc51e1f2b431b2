// The images of one MCP result are capped in total: past MAX_RESULT_IMAGE_BYTES the rest are
// replaced by a note saying so, so one server's answer cannot fill the request by itself.
import { expect, test } from "bun:test";
import { MAX_RESULT_IMAGE_BYTES } from "../../src/mcp/results.ts";
import { fakeApiFixture } from "../support/fake-api.ts";
import { isolatedEnv, runCli, tempProject } from "../support/cli.ts";
import { HOSTILE_SERVER, mcpConfig, toolResults } from "./support.ts";

const serve = fakeApiFixture();

test("a result of five 3 MB images keeps what fits the total and says what was left out", async () => {
  const api = await serve({
    turns: [{ content: [{ type: "tool_use", id: "i1", name: "mcp__h__images", input: {} }] }, { content: [{ type: "text", text: "done" }] }],
  });
  const config = mcpConfig({ h: { command: process.execPath, args: [HOSTILE_SERVER, "--images", "5", "3072"] } });
  const r = await runCli(["-p", "go", "--mcp-config", config, "--allowedTools", "mcp__h"], { cwd: tempProject(), env: isolatedEnv(api.url) });
  expect(r.code).toBe(0);
  const blocks = toolResults(api.requests[1]!.body)[0]!.content as Array<{ type: string; text?: string }>;
  const kept = Math.floor(MAX_RESULT_IMAGE_BYTES / (3 * 1024 * 1024));
  expect(blocks.filter((b) => b.type === "image").length).toBe(kept);
  const notes = blocks.filter((b) => b.type === "text").map((b) => b.text);
  expect(notes).toEqual(
    Array.from({ length: 5 - kept }, () => `[image: image/png, 3.0 MB; not shown: this result's images pass the ${MAX_RESULT_IMAGE_BYTES / (1024 * 1024)} MB one result may carry]`),
  );
}, 60_000);

test("an image over the API's 5 MB of base64 is a note, so the request stays valid", async () => {
  const api = await serve({
    turns: [{ content: [{ type: "tool_use", id: "i1", name: "mcp__h__images", input: {} }] }, { content: [{ type: "text", text: "done" }] }],
  });
  // 4,000 KB is under 5 MB of bytes, but its base64 is over the 5 MB the API takes
  const config = mcpConfig({ h: { command: process.execPath, args: [HOSTILE_SERVER, "--images", "1", "4000"] } });
  const r = await runCli(["-p", "go", "--mcp-config", config, "--allowedTools", "mcp__h"], { cwd: tempProject(), env: isolatedEnv(api.url) });
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  expect(toolResults(api.requests[1]!.body)[0]!.content).toBe("[image: image/png, 4,096,000 bytes; not shown, as its base64 is over the API's 5 MB limit for an image]");
}, 60_000);
