// Slash commands as functions of (state, actions, name, argument): what each leaves in the
// transcript and what it asks of the app.
import { expect, test } from "bun:test";
import { runSlashCommand } from "../../../src/tui/app/commands.ts";
import { setup } from "../support/app-state.ts";

const notices = (s: ReturnType<typeof setup>["state"]) => s.transcript.entries.flatMap((e) => (e.kind === "notice" ? [e.text] : []));

test("/help lists every command and the keys", async () => {
  const { state, actions } = setup();
  await runSlashCommand(state, actions, "help", "");
  const text = notices(state).join("\n");
  for (const c of ["/clear", "/compact", "/model", "/undo", "/exit"]) expect(text).toContain(c);
  expect(text).toContain("Shift+Tab permission mode");
});

test("/agents lists each agent type with its model, tools and where it comes from", async () => {
  const { state, actions } = setup();
  await runSlashCommand(state, actions, "agents", "");
  const text = notices(state).join("\n");
  expect(text).toContain("  Explore — fast, read-only [model haiku] [tools Read, Grep] (built-in)");
  expect(text).toContain("  reviewer — Reviews code (project: /p/.claude/agents/reviewer.md)");
});

test("/model with a name switches; an unknown name is tried as is, with a warning", async () => {
  const { state, actions } = setup();
  await runSlashCommand(state, actions, "model", "claude-opus-5-5");
  expect(state.session!.model()).toBe("claude-opus-5-5");
  expect(notices(state)).toEqual([]);
  await runSlashCommand(state, actions, "model", "my-own-model");
  expect(state.session!.model()).toBe("my-own-model");
  expect(notices(state)[0]).toContain("my-own-model is not a model KHAELOR knows");
});

test("/model alone opens a chooser with the current model first; picking it again keeps it", async () => {
  const { state, actions } = setup();
  await runSlashCommand(state, actions, "model", "");
  const c = actions.choosers[0]!;
  expect(c.items[0]).toMatchObject({ value: "claude-sonnet-5-5", detail: "current" });
  c.onPick("claude-sonnet-5-5");
  expect(actions.flashes).toEqual(["the model stays claude-sonnet-5-5"]);
  c.onPick("claude-haiku-5-5");
  expect(state.session!.model()).toBe("claude-haiku-5-5");
});

test("/clear, /resume <id>, /transcript and /exit ask the app", async () => {
  const { state, actions } = setup();
  await runSlashCommand(state, actions, "clear", "");
  await runSlashCommand(state, actions, "resume", "abc123");
  await runSlashCommand(state, actions, "transcript", "");
  await runSlashCommand(state, actions, "exit", "");
  expect(actions.switches).toEqual([null, "abc123"]);
  expect(actions.pagers).toEqual([undefined]);
  expect(actions.exits).toEqual([0]);
});

test("/permissions with no rules says every write and command asks, and offers nothing to remove", async () => {
  const { state, actions } = setup();
  await runSlashCommand(state, actions, "permissions", "");
  expect(notices(state)[0]).toContain("No rules: every write and command asks.");
  expect(actions.choosers).toEqual([]);
});

test("/diff with snapshots off says why and runs nothing", async () => {
  const { state, actions } = setup();
  await runSlashCommand(state, actions, "diff", "");
  expect(notices(state)).toEqual(["/diff is off: snapshots are off in this test"]);
  expect(actions.busyRuns).toEqual([]);
});

// (That every built-in /help lists has a handler, the compiler checks: commands.ts's table is keyed by SLASH_COMMANDS' names.)
test("a command that only shows something lays out at once; one that hands over to the app (exit, a chooser, the pager) does not", async () => {
  const { state, actions } = setup();
  const counts: Record<string, number> = {};
  for (const [name, arg] of [["hooks", ""], ["help", ""], ["model", "claude-opus-5-5"], ["copy", "nope"], ["exit", ""], ["clear", ""], ["transcript", ""], ["model", ""], ["diff", ""], ["bogus", ""]] as const) {
    const before = actions.renders;
    await runSlashCommand(state, actions, name, arg);
    counts[`${name} ${arg}`.trim()] = actions.renders - before;
  }
  expect(counts).toEqual({ hooks: 1, help: 1, "model claude-opus-5-5": 1, "copy nope": 1, exit: 0, clear: 0, transcript: 0, model: 0, diff: 1, bogus: 1 });
});

test("/export copies the conversation as Markdown; /export <file> writes it (its format from the extension); a path that cannot be written says so", async () => {
  const { mkdirSync, readFileSync, writeFileSync } = await import("node:fs");
  const { join } = await import("node:path");
  const { scratch } = await import("../../support/scratch.ts");
  const { dataHome, writeSession } = await import("../../export/support.ts");
  const { assistant, text, user } = await import("../../session/make-events.ts");
  const cwd = scratch("khaelor-proj-");
  const { path } = writeSession(cwd, dataHome().env, [user("hello there"), assistant([text("General Kenobi.")])]);
  const { state, actions } = setup();
  Object.assign(state.session!, { logPath: path, cwd });
  await runSlashCommand(state, actions, "export", "");
  expect(actions.copied[0]).toContain("## You\n\nhello there\n\n## Assistant\n\nGeneral Kenobi.");
  expect(notices(state).at(-1)).toMatch(/^Copied the conversation \(\d+ lines of markdown\) to a test clipboard\.$/);
  await runSlashCommand(state, actions, "export", "chat.html");
  expect(readFileSync(join(cwd, "chat.html"), "utf8")).toContain("General Kenobi.");
  expect(notices(state).at(-1)).toBe(`Exported the conversation to ${join(cwd, "chat.html")} (html).`);
  writeFileSync(join(cwd, "file"), "keep");
  mkdirSync(join(cwd, "d"));
  await runSlashCommand(state, actions, "export", "file/chat.md");
  expect(notices(state).at(-1)).toContain("part of its directory path is a file, not a directory");
  expect(notices(state).at(-1)).toContain("/export without a file copies it to the clipboard");
  expect(readFileSync(join(cwd, "file"), "utf8")).toBe("keep");
});
