// The real Claude Agent SDK's `agents` option: the definition reaches khaelor (initialize.agents),
// the model's Agent call runs it, and the child's messages come back with parent_tool_use_id set
// to the parent's call. The fake Messages API answers the child by its first message.
import { expect, test } from "bun:test";
import { join } from "node:path";
import { query, type SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import { fakeApiFixture } from "../support/fake-api.ts";
import { sdkExecutable } from "./sdk-executable.ts";
import { isolatedEnv, tempProject } from "../support/cli.ts";

const serve = fakeApiFixture();

test("the SDK's agents option: its agent runs as a child; the child's messages carry parent_tool_use_id", async () => {
  const server = await serve({
    turns: [
      { content: [{ type: "tool_use", id: "toolu_sdk1", name: "agent", input: { description: "review", prompt: "CHILD-S: review it", subagent_type: "sdk-reviewer" } }] },
      { content: [{ type: "text", text: "Reviewed." }], expect: { lastHasToolResult: { isError: false, contentMatches: "^SDK-LGTM" } } },
    ],
    routes: [
      {
        firstMessage: "^CHILD-S:",
        turns: [
          { content: [{ type: "tool_use", id: "toolu_child1", name: "glob", input: { pattern: "*" } }], expect: { systemMatches: "SDK-REVIEWER-PROMPT", toolsExclude: ["bash"] } },
          { content: [{ type: "text", text: "SDK-LGTM" }] },
        ],
      },
    ],
  });
  const messages: SDKMessage[] = [];
  const stderr: string[] = [];
  const q = query({
    prompt: "review please",
    options: {
      pathToClaudeCodeExecutable: sdkExecutable(),
      cwd: tempProject(),
      env: isolatedEnv(server.url),
      stderr: (s) => stderr.push(s),
      agents: { "sdk-reviewer": { description: "Reviews", prompt: "You are SDK-REVIEWER-PROMPT.", tools: ["Read", "Glob"] } },
    },
  });
  for await (const m of q) messages.push(m);
  expect(server.checkFailures).toEqual([]);
  expect(stderr.join("")).toBe("");
  const init = messages.find((m) => m.type === "system" && m.subtype === "init") as { agents?: string[]; tools?: string[] } | undefined;
  expect(init?.tools).toContain("Agent");
  expect(init?.agents).toContain("sdk-reviewer");
  const children = messages.filter((m) => (m as { parent_tool_use_id?: string | null }).parent_tool_use_id === "toolu_sdk1");
  // The child's prompt, its call, the call's result, its answer.
  expect(children.map((m) => m.type)).toEqual(["user", "assistant", "user", "assistant"]);
  expect(JSON.stringify(children[1])).toContain('"name":"Glob"');
  expect(JSON.stringify(children[3])).toContain("SDK-LGTM");
  // The parent's own messages are not the child's.
  const parentCall = messages.find((m) => m.type === "assistant" && JSON.stringify(m).includes("toolu_sdk1"));
  expect((parentCall as { parent_tool_use_id?: string | null }).parent_tool_use_id).toBeNull();
  expect(messages.at(-1)).toMatchObject({ type: "result", subtype: "success", result: "Reviewed." });
});
