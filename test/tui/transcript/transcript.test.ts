// The transcript folds agent events into entries; these tests pin what a tool row keeps of its
// output (the last lines under the row, everything in the pager) and how an interruption is said.
import { describe, expect, test } from "bun:test";
import type { AgentEvent } from "../../../src/events/types.ts";
import { entryText } from "../../../src/tui/transcript/entry.ts";
import { Transcript } from "../../../src/tui/transcript/transcript.ts";
import { renderEntry } from "../../../src/tui/views/entry-view.ts";
import { rowText } from "../../../src/tui/views/text.ts";

let n = 0;
const base = () => ({ id: `e${++n}`, ts: 1000 });
const user = (text: string): AgentEvent => ({ ...base(), type: "user_message", content: text }) as AgentEvent;
const start = (id: string, name = "bash"): AgentEvent => ({ type: "tool_start", toolUseId: id, name, summary: `${name}: run it` });
const result = (id: string, content: string, isError = false, name = "bash", durationMs = 1200): AgentEvent =>
  ({ ...base(), type: "tool_result", toolUseId: id, name, content, isError, kind: isError ? "error" : "ok", summary: `${name}: run it`, durationMs }) as AgentEvent;

function toolRows(t: Transcript, full: boolean): string[] {
  const e = t.entries.find((x) => x.kind === "tool")!;
  return renderEntry(e, { width: 80, links: false, full }).map(rowText);
}

const output = (count: number) => Array.from({ length: count }, (_, i) => `out-${i + 1}`).join("\n");

describe("tool output", () => {
  test("history keeps the last lines; the pager shows the whole output the session has", () => {
    const t = new Transcript();
    t.apply(user("go"));
    t.apply(start("t1"));
    t.apply(result("t1", `${output(30)}\n\n[cwd: .]`));
    const short = toolRows(t, false).join("\n");
    expect(short).toContain("… 26 earlier lines");
    expect(short).toContain("out-30");
    expect(short).not.toContain("out-26\n");
    const full = toolRows(t, true);
    for (let i = 1; i <= 30; i++) expect(full).toContain(`  │ out-${i}`);
    expect(full.join("\n")).not.toContain("earlier lines");
    expect(entryText(t.entries.find((x) => x.kind === "tool")!)).toContain("out-1\n");
  });

  test("one line more than fits is shown, not counted", () => {
    const t = new Transcript();
    t.apply(start("t1"));
    t.apply(result("t1", `${output(5)}\n\n[cwd: .]`));
    const rows = toolRows(t, false);
    expect(rows.join("\n")).not.toContain("earlier line");
    expect(rows).toContain("  │ out-1");
    expect(rows).toContain("  │ out-5");
  });

  test("a stopped command keeps its last lines, like a finished one, and says why it stopped", () => {
    const t = new Transcript();
    t.apply(user("go"));
    t.apply(start("t1"));
    t.apply(result("t1", `${output(12)}\n\n[cancelled by the user after 900 ms; the command and everything it started were killed; cwd: .]`, true));
    const rows = toolRows(t, false).join("\n");
    expect(rows).toContain("interrupted");
    expect(rows).toContain("out-12");
    expect(rows).not.toContain("out-1\n");
    // Said once, by the row's own duration: not again in milliseconds.
    expect(rows).toContain("cancelled by the user; the command and everything it started were killed");
    expect(rows).not.toMatch(/\d+ ms/);
  });

  test("the pager shows the output without the notes meant for the model", () => {
    const t = new Transcript();
    t.apply(start("t1", "process"));
    t.apply(result("t1", "tick 1\ntick 2\n\n[/tick/ appeared; ticker (p1) running; offset 14]", false, "process"));
    t.apply(start("t2", "process"));
    t.apply(result("t2", 'Started "ticker" as p1 (pid 4242) in the project root. Read its output with action=read id=ticker (wait_for a ready message), stop it with action=stop.', false, "process"));
    t.apply(start("t3", "bash"));
    t.apply(result("t3", "built\n\n[cwd: .]"));
    const full = t.entries.flatMap((e) => renderEntry(e, { width: 200, links: false, full: true }).map(rowText)).join("\n");
    expect(full).toContain("│ tick 2");
    expect(full).toContain('│ Started "ticker" as p1 (pid 4242) in the project root.');
    expect(full).toContain("│ built");
    for (const note of ["offset", "appeared", "action=", "cwd:", "["]) expect(full).not.toContain(note);
  });

  test("a denied call shows no duration: it never ran", () => {
    const t = new Transcript();
    t.apply(start("t1", "edit"));
    t.apply({ ...base(), type: "permission_decision", toolUseId: "t1", toolName: "edit", decision: "deny", source: "user" } as AgentEvent);
    t.apply(result("t1", "denied", true, "edit", 4300));
    const head = toolRows(t, false)[0]!;
    expect(head).toContain("denied");
    expect(head).not.toMatch(/\d(ms|s)\b/);
  });
});

describe("interruptions", () => {
  test("an interrupted answer says so once", () => {
    const t = new Transcript();
    t.apply(user("go"));
    t.apply({ type: "message_start" } as AgentEvent);
    t.apply({ type: "text_delta", index: 0, text: "partial" } as AgentEvent);
    t.apply({ ...base(), type: "interruption", reason: "user" } as AgentEvent);
    const said = t.entries.flatMap((e) => renderEntry(e, { width: 80, links: false, full: false }).map(rowText)).join("\n");
    expect(said.match(/interrupted/gi)?.length).toBe(1);
  });

  test("a failed call is interrupted when its result says so, not when its output mentions it", () => {
    const status = (content: string, interrupted?: boolean) => {
      const t = new Transcript();
      t.apply(start("t1"));
      t.apply({ ...(result("t1", content, true) as object), ...(interrupted !== undefined ? { interrupted } : {}) } as AgentEvent);
      return (t.entries.find((x) => x.kind === "tool") as { view: { status: string } }).view.status;
    };
    // A test run that printed the word, then failed: an error, not a cancel.
    expect(status("KeyboardInterrupt: test interrupted by a signal in the fixture\n\n[exit code 1; cwd: .]", false)).toBe("error");
    expect(status("the server closed the call", true)).toBe("interrupted");
    // A log written before results said so: its text is all there is.
    expect(status("Cancelled by the user before this tool ran.")).toBe("interrupted");
  });

  test("an interruption with nothing running is still said", () => {
    const t = new Transcript();
    t.apply(user("go"));
    t.apply({ ...base(), type: "interruption", reason: "user" } as AgentEvent);
    expect(t.entries.some((e) => e.kind === "notice" && e.text === "Interrupted")).toBe(true);
  });
});

test("a saved rule is confirmed in the prompt's words for where it went", () => {
  const t = new Transcript();
  const decided = (scope: "local" | "session" | "user") =>
    ({ ...base(), type: "permission_decision", toolUseId: "t1", toolName: "bash", decision: "allow", source: "user", savedRule: { rule: "Bash(make *)", scope } }) as AgentEvent;
  for (const scope of ["local", "session", "user"] as const) t.apply(decided(scope));
  expect(t.entries.filter((e) => e.kind === "notice").map((e) => (e.kind === "notice" ? e.text : ""))).toEqual([
    "Saved rule: allow Bash(make *) (this project, not committed)",
    "Saved rule: allow Bash(make *) (this session only)",
    "Saved rule: allow Bash(make *) (every project)",
  ]);
});
