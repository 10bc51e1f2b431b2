// Subagents through the session service, in-process: the parent's agent call opens a child session
// (its own system prompt, model, tools and log beside the parent's), the child's final text is the
// call's result, its cost joins the parent's, and its events reach the parent's bus. The real
// session service, a real git project, the fake API answering the child by its first message.
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { AgentEvent } from "../../src/events/types.ts";
import { readSessionLog } from "../../src/session/log.ts";
import { listSessions } from "../../src/session/store.ts";
import { fakeApiFixture } from "../support/fake-api.ts";
import { gitProject, inIsolatedHome, openOn, signal } from "./support.ts";

const serve = fakeApiFixture();

type Req = { system?: Array<{ text: string }>; model: string; tools?: Array<{ name: string }>; messages: Array<{ content: unknown }> };
const bodyOf = (r: { body: unknown }) => r.body as Req;

test("an Explore call: the child runs on its own prompt, model and read-only tools; its answer is the result; its log and cost reach the parent", async () => {
  await inIsolatedHome(async () => {
    const dir = gitProject();
    writeFileSync(join(dir, "answer.txt"), "42\n");
    const api = await serve({
      turns: [
        { content: [{ type: "tool_use", id: "toolu_p1", name: "agent", input: { description: "find the answer", prompt: "CHILD-A: read answer.txt and say what it holds", subagent_type: "Explore" } }] },
        { content: [{ type: "text", text: "The child says 42." }], expect: { lastHasToolResult: { isError: false, contentMatches: "the file holds 42" } } },
      ],
      routes: [
        {
          firstMessage: "^CHILD-A:",
          turns: [
            { content: [{ type: "tool_use", name: "read", input: { file_path: "answer.txt" } }], expect: { toolsInclude: ["read", "grep", "glob", "bash"], toolsExclude: ["agent", "edit", "write"], systemMatches: "You only read" } },
            { content: [{ type: "text", text: "the file holds 42" }], expect: { lastHasToolResult: { isError: false, contentMatches: "42" } } },
          ],
        },
      ],
    });
    const session = await openOn(api, dir);
    const seen: AgentEvent[] = [];
    session.subscribe((e) => void seen.push(e));
    try {
      const r = await session.runTurn("what is the answer?", signal());
      expect(api.checkFailures).toEqual([]);
      expect(r).toMatchObject({ reason: "finished", lastText: "The child says 42." });
      const childRequests = api.requests.filter((q) => q.route === 0);
      expect(childRequests.length).toBe(2);
      // Explore's own model (haiku), the parent's the default.
      expect(bodyOf(childRequests[0]!).model).toBe("claude-haiku-5-5");
      expect(bodyOf(api.requests[0]!).model).not.toBe("claude-haiku-5-5");
      // The parent offers the agent tool, described with each type on a line.
      const agentSpec = (bodyOf(api.requests[0]!).tools ?? []).find((t) => t.name === "agent") as { description?: string } | undefined;
      expect(agentSpec?.description).toContain("- Explore:");
      expect(agentSpec?.description).toContain("- general-purpose:");
      // The child's prompt is its only user message.
      expect(bodyOf(childRequests[0]!).messages.length).toBe(1);

      const start = seen.find((e) => e.type === "agent_start");
      expect(start).toMatchObject({ type: "agent_start", toolUseId: "toolu_p1", agentType: "Explore", model: "claude-haiku-5-5", background: false });
      expect(seen.some((e) => e.type === "agent_progress" && e.tool?.name === "Read")).toBe(true);
      expect(seen.some((e) => e.type === "agent_event" && e.event.type === "assistant_message")).toBe(true);

      const parentLog = readSessionLog(session.logPath).events;
      const end = parentLog.find((e) => e.type === "agent_end");
      expect(end).toMatchObject({ type: "agent_end", toolUseId: "toolu_p1", agentType: "Explore", status: "completed" });
      if (end?.type !== "agent_end") throw new Error("no agent_end");
      expect(end.costUsd).toBeGreaterThan(0);
      // The child's log: beside the parent's, reachable by id, its prompt its first user message.
      const childLog = join(dirname(session.logPath), end.log);
      expect(childLog).toBe(join(dirname(session.logPath), `${session.sessionId}.agents`, `${end.agentId}.jsonl`));
      const childEvents = readSessionLog(childLog).events;
      expect(childEvents.filter((e) => e.type === "user_message").map((e) => e.type === "user_message" && e.content)).toEqual(["CHILD-A: read answer.txt and say what it holds"]);
      const result = parentLog.find((e) => e.type === "tool_result" && e.toolUseId === "toolu_p1");
      expect(JSON.stringify(result)).toContain(end.agentId);
      // The parent's cost holds the child's.
      const own = parentLog.reduce((a, e) => a + (e.type === "assistant_message" ? (e.costUsd ?? 0) : 0), 0);
      expect(session.costSoFar()).toBeCloseTo(own + end.costUsd!, 10);
      // Never in the session list: --continue and /resume pick the parent.
      expect(listSessions(dir).map((s) => s.id)).toEqual([session.sessionId]);
    } finally {
      await session.close();
    }
  });
});

test("an unknown agent type is an error result naming the known ones; a project agent file works, a broken one is skipped with a notice naming file and field", async () => {
  await inIsolatedHome(async () => {
    const dir = gitProject();
    mkdirSync(join(dir, ".claude", "agents"), { recursive: true });
    writeFileSync(join(dir, ".claude", "agents", "reviewer.md"), "---\nname: reviewer\ndescription: Reviews code\ntools: Read, Grep\nmodel: opus\n---\nYou are REVIEWER-PROMPT.\n");
    writeFileSync(join(dir, ".claude", "agents", "broken.md"), "---\nname: broken\ndescription: x\nmaxTurns: lots\n---\nbody\n");
    const api = await serve({
      turns: [
        { content: [{ type: "tool_use", id: "toolu_u", name: "agent", input: { description: "x", prompt: "y", subagent_type: "nope" } }] },
        {
          content: [{ type: "tool_use", id: "toolu_r", name: "agent", input: { description: "review", prompt: "CHILD-R: review it", subagent_type: "reviewer" } }],
          expect: { lastHasToolResult: { isError: true, contentMatches: 'Unknown agent type "nope"\\. Available agent types: .*general-purpose.*Explore.*Plan.*reviewer' } },
        },
        { content: [{ type: "text", text: "ok" }], expect: { lastHasToolResult: { isError: false, contentMatches: "LGTM" } } },
      ],
      routes: [{ firstMessage: "^CHILD-R:", turns: [{ content: [{ type: "text", text: "LGTM" }], expect: { systemMatches: "REVIEWER-PROMPT", toolsInclude: ["read", "grep"], toolsExclude: ["bash", "edit", "glob"] } }] }],
    });
    const session = await openOn(api, dir);
    try {
      expect(session.notices.some((n) => n.includes("broken.md") && n.includes('"maxTurns"'))).toBe(true);
      expect(session.agents().map((a) => `${a.name}:${a.source}`)).toEqual(expect.arrayContaining(["reviewer:project", "Explore:built-in"]));
      const r = await session.runTurn("go", signal());
      expect(api.checkFailures).toEqual([]);
      expect(r.reason).toBe("finished");
      expect(bodyOf(api.requests.find((q) => q.route === 0)!).model).toBe("claude-opus-5-5");
    } finally {
      await session.close();
    }
  });
});

test("a read-only agent cannot run a command that writes, even where the parent's mode would allow it", async () => {
  await inIsolatedHome(async () => {
    const dir = gitProject();
    const api = await serve({
      turns: [
        { content: [{ type: "tool_use", name: "agent", input: { description: "plan", prompt: "CHILD-P: plan it", subagent_type: "Plan" } }] },
        { content: [{ type: "text", text: "done" }] },
      ],
      routes: [
        {
          firstMessage: "^CHILD-P:",
          turns: [
            { content: [{ type: "tool_use", name: "bash", input: { command: "touch made-by-plan.txt" } }] },
            { content: [{ type: "text", text: "could not" }], expect: { lastHasToolResult: { isError: true, contentMatches: "only reads" } } },
          ],
        },
      ],
    });
    const session = await openOn(api, dir, { permissionMode: "bypassPermissions" });
    try {
      await session.runTurn("plan", signal());
      expect(api.checkFailures).toEqual([]);
      expect(api.requests.filter((q) => q.route === 0).length).toBe(2);
      expect(existsSync(join(dir, "made-by-plan.txt"))).toBe(false);
      expect(readdirSync(dir)).not.toContain("made-by-plan.txt");
    } finally {
      await session.close();
    }
  });
});

test("SubagentStart and SubagentStop hooks: matched by the agent type, told its id and transcript; Start's context reaches the child, Stop's block sends it back once", async () => {
  await inIsolatedHome(async ({ config }) => {
    const dir = gitProject();
    const out = join(dir, "..", `hooks-${Date.now()}.jsonl`);
    mkdirSync(join(config, "khaelor"), { recursive: true });
    // Start prints context; Stop blocks the first time (no stop_hook_active), then lets it end.
    const log = `cat >> ${out}; echo >> ${out}`;
    const stop = `input=$(cat); printf '%s\\n' "$input" >> ${out}; case "$input" in *'"stop_hook_active":false'*) echo '{"decision":"block","reason":"CHECK AGAIN"}';; esac`;
    writeFileSync(
      join(config, "khaelor", "settings.json"),
      JSON.stringify({
        hooks: {
          SubagentStart: [{ matcher: "Explore", hooks: [{ type: "command", command: `${log}; echo START-CONTEXT` }] }],
          SubagentStop: [{ matcher: "Explore", hooks: [{ type: "command", command: stop }] }],
        },
      }),
    );
    const api = await serve({
      turns: [
        { content: [{ type: "tool_use", id: "toolu_h", name: "agent", input: { description: "d", prompt: "CHILD-H: go", subagent_type: "Explore" } }] },
        { content: [{ type: "text", text: "ok" }], expect: { lastHasToolResult: { isError: false, contentMatches: "^SECOND" } } },
      ],
      routes: [
        {
          firstMessage: "^CHILD-H:",
          turns: [
            { content: [{ type: "text", text: "FIRST" }], expect: { lastTextMatches: "START-CONTEXT" } },
            { content: [{ type: "text", text: "SECOND" }], expect: { lastTextMatches: "SubagentStop hook asked you to keep working: CHECK AGAIN" } },
          ],
        },
      ],
    });
    const session = await openOn(api, dir);
    try {
      await session.runTurn("go", signal());
      expect(api.checkFailures).toEqual([]);
      const inputs = readFileSync(out, "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(inputs.map((i) => i.hook_event_name)).toEqual(["SubagentStart", "SubagentStop", "SubagentStop"]);
      const agentId = String(inputs[0]!.agent_id);
      expect(inputs[0]).toMatchObject({ agent_type: "Explore", session_id: session.sessionId });
      expect(inputs[1]!.agent_id).toBe(agentId);
      expect(inputs[1]).toMatchObject({ agent_type: "Explore", stop_hook_active: false, last_assistant_message: "FIRST" });
      expect(String(inputs[1]!.agent_transcript_path)).toEndWith(`${session.sessionId}.agents/${agentId}.jsonl`);
      expect(inputs[2]).toMatchObject({ stop_hook_active: true, last_assistant_message: "SECOND" });
    } finally {
      await session.close();
    }
  });
});
