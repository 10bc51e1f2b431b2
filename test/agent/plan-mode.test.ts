// Plan mode as a workflow, through openAgentSession against the fake Messages API: the plan file
// is the one file plan mode writes, exit_plan_mode asks the mode's Asker with the plan, and the
// answer decides what follows (the mode switched; or a new session seeded with the plan and the
// user's request and none of the planning turns; or feedback back to the model). A call outside
// plan mode, or with the plan file deleted by hand, is answered with what to do.
import { expect, test } from "bun:test";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { AskAnswer, AskRequest } from "../../src/agent/types.ts";
import { planPath } from "../../src/session/paths.ts";
import { fakeApiFixture, type FakeApi } from "../support/fake-api.ts";
import { gitProject, inIsolatedHome, openOn, signal } from "./support.ts";

const serve = fakeApiFixture();
const SID = "0192aaaa-0000-7000-8000-00000000a001";
const PLAN = "# Plan\n\n1. Add `greet()` to src/greet.ts\n2. Test it\n";

/** The request bodies the fake API received, as JSON text, in order. */
const bodies = (api: FakeApi) => api.requests.map((r) => JSON.stringify(r.body));
const toolNamesOf = (api: FakeApi, i: number) => ((api.requests[i]!.body as { tools?: Array<{ name: string }> }).tools ?? []).map((t) => t.name);

/** A planning turn: the plan written to the plan file, a write into the project tried, the plan presented. */
function planningTurns(planFile: string) {
  return [
    { content: [{ type: "tool_use" as const, id: "toolu_w1", name: "write", input: { file_path: planFile, content: PLAN } }] },
    { content: [{ type: "tool_use" as const, id: "toolu_w2", name: "write", input: { file_path: "src/greet.ts", content: "x" } }], expect: { lastHasToolResult: { isError: false } } },
    { content: [{ type: "tool_use" as const, id: "toolu_x1", name: "exit_plan_mode", input: {} }], expect: { lastHasToolResult: { isError: true, contentMatches: "plan mode changes no files" } } },
  ];
}

test("plan mode: the prompt names the plan file, only it is written, and an approval with acceptEdits switches the mode", async () => {
  await inIsolatedHome(async () => {
    const dir = gitProject();
    const planFile = planPath(dir, SID);
    const api = await serve({
      turns: [...planningTurns(planFile), { content: [{ type: "text", text: "Implementing." }], expect: { lastHasToolResult: { isError: false, contentMatches: "approved the plan" } } }],
    });
    const asked: AskRequest[] = [];
    const session = await openOn(api, dir, { sessionId: SID, permissionMode: "plan", ask: async (req): Promise<AskAnswer> => (asked.push(req), { allow: true, mode: "acceptEdits" }) });
    try {
      const r = await session.runTurn("add a greet function", signal());
      expect(api.checkFailures).toEqual([]);
      expect(r.reason).toBe("finished");
      expect(r.planHandoff).toBeUndefined();
      expect(session.planFile).toBe(planFile);
      // The first request told the model where its plan goes, and offered the exit.
      expect(bodies(api)[0]).toContain(`The one file you may write is the plan file, ${planFile}`);
      expect(toolNamesOf(api, 0)).toContain("exit_plan_mode");
      expect(readFileSync(planFile, "utf8")).toBe(PLAN);
      expect(existsSync(join(dir, "src/greet.ts"))).toBe(false);
      // Only the exit asked, with the plan as its preview; approving left plan mode.
      expect(asked.map((a) => a.call.name)).toEqual(["exit_plan_mode"]);
      expect(asked[0]!.preview?.plan).toEqual({ text: PLAN, file: planFile });
      expect(asked[0]!.facts?.claudeName).toBe("ExitPlanMode");
      expect(session.permissionMode()).toBe("acceptEdits");
      // Outside plan mode the exit is not offered any more.
      expect(toolNamesOf(api, 3)).not.toContain("exit_plan_mode");
    } finally {
      await session.close();
    }
  });
});

test("approve, clear the context and implement: the turn stops, and the new session's request holds the plan and the request, not the planning turns", async () => {
  await inIsolatedHome(async () => {
    const dir = gitProject();
    const planFile = planPath(dir, SID);
    const api = await serve({
      turns: [...planningTurns(planFile), { content: [{ type: "text", text: "Done, as planned." }] }],
    });
    const session = await openOn(api, dir, { sessionId: SID, permissionMode: "plan", ask: async () => ({ allow: true, mode: "acceptEdits", clearContext: true }) });
    let handoff;
    try {
      const r = await session.runTurn("add a greet function", signal());
      expect(api.checkFailures).toEqual([]);
      // Three requests: nothing more was asked of the planning session after the approval.
      expect(api.requests.length).toBe(3);
      handoff = r.planHandoff!;
      expect(handoff).toMatchObject({ plan: PLAN, planFile, fromSession: SID });
      // The planning session stays in plan mode (resumable as it was).
      expect(session.permissionMode()).toBe("plan");
    } finally {
      await session.close();
    }
    const next = await openOn(api, dir, { permissionMode: "acceptEdits", ask: async () => ({ allow: true }) });
    try {
      await next.runTurn(handoff.prompt, signal());
      const body = bodies(api)[3]!;
      const messages = (api.requests[3]!.body as { messages: unknown[] }).messages;
      expect(messages.length).toBe(1);
      expect(body).toContain("add a greet function");
      expect(body).toContain("Add `greet()` to src/greet.ts");
      // None of the planning turns: not the plan file's write, not the denied write, not the exit.
      expect(body).not.toContain("toolu_w1");
      expect(body).not.toContain("plan mode changes no files");
      expect(body).not.toContain("Plan mode is on");
      expect(next.sessionId).not.toBe(SID);
    } finally {
      await next.close();
    }
    // The planning session is kept: its log is there to resume.
    expect(existsSync(session.logPath)).toBe(true);
  });
});

test("keep planning: the user's feedback is the exit's answer, and the session stays in plan mode", async () => {
  await inIsolatedHome(async () => {
    const dir = gitProject();
    const planFile = planPath(dir, SID);
    const api = await serve({
      turns: [
        { content: [{ type: "tool_use", name: "exit_plan_mode", input: { plan: PLAN } }] },
        { content: [{ type: "text", text: "Revising." }], expect: { lastHasToolResult: { isError: true, contentMatches: "also handle empty names" } } },
      ],
    });
    const session = await openOn(api, dir, { sessionId: SID, permissionMode: "plan", ask: async () => ({ allow: false, message: "also handle empty names" }) });
    try {
      await session.runTurn("plan a greet function", signal());
      expect(api.checkFailures).toEqual([]);
      expect(session.permissionMode()).toBe("plan");
      expect(existsSync(planFile)).toBe(false);
    } finally {
      await session.close();
    }
  });
});

test("bad input: the exit outside plan mode, and a plan file deleted by hand, are answered with what to do; nothing is asked", async () => {
  await inIsolatedHome(async () => {
    const dir = gitProject();
    const planFile = planPath(dir, SID);
    const api = await serve({
      turns: [
        { content: [{ type: "tool_use", name: "exit_plan_mode", input: { plan: PLAN } }] },
        { content: [{ type: "text", text: "ok" }], expect: { lastHasToolResult: { isError: true, contentMatches: "Not in plan mode \\(the session is in default mode\\)" } } },
        { content: [{ type: "tool_use", name: "write", input: { file_path: planFile, content: PLAN } }] },
        { content: [{ type: "tool_use", name: "exit_plan_mode", input: {} }] },
        { content: [{ type: "text", text: "ok" }], expect: { lastHasToolResult: { isError: true, contentMatches: "does not exist \\(it may have been deleted\\)" } } },
      ],
    });
    const asked: string[] = [];
    const session = await openOn(api, dir, { sessionId: SID, ask: async (req) => (asked.push(req.call.name), { allow: true }) });
    try {
      await session.runTurn("hello", signal());
      session.setPermissionMode("plan");
      // The plan is written, then deleted by hand before the model presents it.
      const off = session.subscribe((e) => {
        if (e.type === "tool_result" && e.name === "write") rmSync(planFile);
      });
      await session.runTurn("plan it", signal());
      off();
      expect(api.checkFailures).toEqual([]);
      expect(asked).toEqual([]);
      expect(session.permissionMode()).toBe("plan");
    } finally {
      await session.close();
    }
  });
});
