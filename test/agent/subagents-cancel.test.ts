// Esc on the parent cancels every child, foreground and background: through the session service
// in-process, both children held in a bash call (a `cat` of a FIFO nobody writes), the turn's
// signal aborted once both are in it. The turn ends cancelled, each child ends cancelled in the
// parent's log, none runs on, and their commands are stopped.
import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { fakeApiFixture } from "../support/fake-api.ts";
import { gitProject, inIsolatedHome, openOn } from "./support.ts";

const serve = fakeApiFixture();

const held = (tag: string, fifo: string) => ({
  firstMessage: `^${tag}:`,
  turns: [{ content: [{ type: "tool_use" as const, name: "bash", input: { command: `cat ${fifo}` } }] }, { content: [{ type: "text" as const, text: "never reached" }] }],
});

test("Esc cancels the parent and every child, foreground and background", async () => {
  await inIsolatedHome(async () => {
    const dir = gitProject();
    execFileSync("mkfifo", [join(dir, "fifo-fg"), join(dir, "fifo-bg")]);
    const api = await serve({
      turns: [
        {
          content: [
            { type: "tool_use", id: "toolu_bg", name: "agent", input: { description: "bg", prompt: "BG: wait", run_in_background: true } },
            { type: "tool_use", id: "toolu_fg", name: "agent", input: { description: "fg", prompt: "FG: wait" } },
          ],
        },
      ],
      routes: [held("BG", "fifo-bg"), held("FG", "fifo-fg")],
    });
    const session = await openOn(api, dir, { permissionMode: "bypassPermissions" });
    const esc = new AbortController();
    const inBash = new Set<string>();
    const ends: Array<{ toolUseId: string; status: string }> = [];
    session.subscribe((e) => {
      if (e.type === "agent_progress" && e.tool?.name === "Bash") {
        inBash.add(e.toolUseId);
        // Both children are in their command: the user presses Esc.
        if (inBash.size === 2) esc.abort(new Error("Esc"));
      }
      if (e.type === "agent_end") ends.push({ toolUseId: e.toolUseId, status: e.status });
    });
    try {
      const r = await session.runTurn("start two", esc.signal);
      expect(r.reason).toBe("cancelled");
      await session.subagents.idle();
      expect(session.subagents.running()).toBe(0);
      expect(ends.sort((a, b) => a.toolUseId.localeCompare(b.toolUseId))).toEqual([
        { toolUseId: "toolu_bg", status: "cancelled" },
        { toolUseId: "toolu_fg", status: "cancelled" },
      ]);
      // Neither child asked the API again after its command was stopped.
      expect(api.requests.filter((q) => q.route !== undefined).length).toBe(2);
      // Their commands are gone: nothing holds either FIFO open.
      const holders = execFileSync("sh", ["-c", `ps -eo args | grep -c '^cat fifo-' || true`]).toString().trim();
      expect(holders).toBe("0");
    } finally {
      await session.close();
    }
  });
});
