// The app's views as rows: what each shows, and that nothing is ever wider than the screen.
import { describe, expect, test } from "bun:test";
import { createTwoFilesPatch } from "diff";
import { renderDiff } from "../../../src/tui/views/diff-view.ts";
import { PERMISSION_KEYS, renderPermissionPanel } from "../../../src/tui/views/permission-panel.ts";
import { renderStatusLine, type StatusInfo } from "../../../src/tui/views/status-line.ts";
import { displayWidth, rowText } from "../../../src/tui/views/text.ts";
import type { ToolCallView } from "../../../src/tui/transcript/entry.ts";
import { appendTail } from "../../../src/tui/transcript/output-tail.ts";
import { renderToolCall } from "../../../src/tui/views/tool-row.ts";
import { renderComposer } from "../../../src/tui/views/composer-view.ts";
import { setTheme } from "../../../src/tui/views/theme.ts";
import type { Row } from "../../../src/tui/render/style.ts";
import type { AgentEvent } from "../../../src/events/types.ts";
import { Transcript } from "../../../src/tui/transcript/transcript.ts";

const widest = (rows: Row[]) => Math.max(0, ...rows.map((r) => displayWidth(rowText(r))));

const status: StatusInfo = {
  model: "claude-sonnet-5-5",
  mode: "acceptEdits",
  contextTokens: 50_000,
  contextWindow: 200_000,
  inputTokens: 120_000,
  outputTokens: 3_400,
  cacheHitRate: 0.82,
  costUsd: 0.4321,
  runningProcesses: 2,
  gitBranch: "feature/x",
};

describe("status line", () => {
  test("wide: every segment", () => {
    const t = rowText(renderStatusLine(status, 200));
    for (const part of ["accept edits", "claude-sonnet-5-5", "ctx 25%", "↑120k ↓3.4k", "cache 82%", "$0.43", "2 processes", "⎇ feature/x"]) expect(t).toContain(part);
  });

  test("narrow: segments drop whole, least important first, and the mode and cost stay", () => {
    let prev = Infinity;
    for (const w of [120, 80, 60, 40, 30]) {
      const t = rowText(renderStatusLine(status, w));
      expect(displayWidth(t)).toBeLessThanOrEqual(w);
      expect(t).not.toContain("…");
      expect(t.length).toBeLessThanOrEqual(prev);
      prev = t.length;
    }
    const t40 = rowText(renderStatusLine(status, 40));
    expect(t40).toContain("accept edits");
    expect(t40).toContain("$0.43");
    expect(t40).not.toContain("feature/x");
    expect(rowText(renderStatusLine({ ...status, costUsd: null }, 200))).toContain("cost unknown");
  });

  test("the line drawn again is the line of its inputs: a new width, value, field or theme is a new line", () => {
    const info: StatusInfo = { ...status };
    expect(rowText(renderStatusLine(info, 200))).toContain("↓3.4k");
    // The caller's object changed in place: the cache compares values, not the object.
    info.outputTokens = 9_900;
    expect(rowText(renderStatusLine(info, 200))).toContain("↓9.9k");
    expect(rowText(renderStatusLine(info, 40))).not.toContain("feature/x");
    expect(rowText(renderStatusLine(info, 200))).toContain("feature/x");
    expect(rowText(renderStatusLine({ ...info, activity: "working" }, 200))).toMatch(/^working/);
    expect(rowText(renderStatusLine({ ...info, activity: undefined }, 200))).not.toContain("working");
    expect(rowText(renderStatusLine({ ...info, vimMode: "normal" }, 200))).toContain("-- NORMAL --");
    expect(rowText(renderStatusLine(info, 200))).not.toContain("NORMAL");
    const sep = (r: Row) => r.spans.find((s) => s.text === " · ")!.style;
    const dark = sep(renderStatusLine(info, 200));
    try {
      setTheme("light", "256");
      const light = sep(renderStatusLine(info, 200));
      expect(light).not.toBe(dark);
      expect(light).toEqual({ fg: { kind: "index", n: 240 } });
    } finally {
      setTheme("dark", "256");
    }
  });

  test("running processes stay visible at narrow widths, before the model and the context gauge", () => {
    for (const w of [40, 50, 60]) expect(rowText(renderStatusLine({ ...status, runningProcesses: 1 }, w))).toContain("1 process");
    expect(rowText(renderStatusLine({ ...status, runningProcesses: 1 }, 40))).not.toContain("claude-sonnet");
  });
});

const tool = (over: Partial<ToolCallView>): ToolCallView => ({ id: "t1", name: "bash", summary: "bash: npm test", status: "running", startedAt: 0, durationMs: null, outputTail: [], ...over });

describe("tool rows", () => {
  test("spinner while running with the live output tail; ✓ and duration when done; ✗ and the reason on error", () => {
    const running = renderToolCall(tool({ outputTail: appendTail([], "one\ntwo\nprogress 10%\rprogress 90%\n") }), { width: 60, frame: 1, now: 2500 });
    expect(rowText(running[0]!)).toBe("⠙ bash: npm test 2.5s");
    expect(running.slice(1).map(rowText)).toEqual(["  │ one", "  │ two", "  │ progress 90%"]);
    const ok = renderToolCall(tool({ status: "ok", durationMs: 1234 }), { width: 60, frame: 0, now: 0 });
    expect(ok.map(rowText)).toEqual(["✓ bash: npm test 1.2s"]);
    const err = renderToolCall(tool({ status: "error", durationMs: 40, error: "exit code 1\nnpm ERR! missing script" }), { width: 60, frame: 0, now: 0 });
    expect(rowText(err[0]!)).toBe("✗ bash: npm test 40ms");
    expect(err.slice(1).map(rowText).join("\n")).toContain("npm ERR! missing script");
    expect(err[1]!.spans[0]!.style?.fg).toEqual({ kind: "index", n: 1 });
  });

  test("a call the permission panel asks about stands still: a ? mark, no clock, the same row at any time", () => {
    const at = (frame: number, now: number) => renderToolCall(tool({ summary: `edit ${"src/".repeat(30)}a.ts` }), { width: 50, frame, now, awaitingAnswer: true }).map(rowText);
    const first = at(1, 2500);
    expect(first[0]!.startsWith("? edit src/")).toBe(true);
    expect(first[0]!.endsWith("…  waiting for your answer")).toBe(true);
    expect(at(7, 90_000)).toEqual(first);
  });

  test("after the answer the clock counts the run, not the time the user took", () => {
    const t = new Transcript();
    t.apply({ type: "tool_start", toolUseId: "c1", name: "bash", summary: "bash: make" } as AgentEvent, 1_000);
    t.restartClock("c1", 61_000); // answered a minute later
    const e = t.entries.find((x) => x.kind === "tool");
    if (e?.kind !== "tool") throw new Error("no tool row");
    expect(rowText(renderToolCall(e.view, { width: 60, frame: 0, now: 63_500 })[0]!)).toBe("⠋ bash: make 2.5s");
  });

  test("a long summary is cut to the width; the duration stays visible", () => {
    const rows = renderToolCall(tool({ status: "ok", durationMs: 5000, summary: `bash: ${"x".repeat(200)}` }), { width: 40, frame: 0, now: 0 });
    expect(displayWidth(rowText(rows[0]!))).toBeLessThanOrEqual(40);
    expect(rowText(rows[0]!).endsWith("… 5.0s")).toBe(true);
  });

  test("a long output line is clipped under the row but wrapped whole in the pager's full view", () => {
    const line = Array.from({ length: 30 }, (_, i) => `w${i}`).join("-");
    const done = tool({ status: "ok", durationMs: 10, output: `${line}\nshort`, resultTail: [line, "short"] });
    const capped = renderToolCall(done, { width: 40, frame: 0, now: 0 }).map(rowText);
    expect(capped[1]!.endsWith("…")).toBe(true);
    const full = renderToolCall(done, { width: 40, frame: 0, now: 0, full: true }).map(rowText);
    expect(widest(renderToolCall(done, { width: 40, frame: 0, now: 0, full: true }))).toBeLessThanOrEqual(40);
    expect(full.join("\n")).not.toContain("…");
    const joined = full.slice(1, -1).map((r) => r.replace(/^  │ /, "")).join("");
    expect(joined).toBe(line);
    expect(full.at(-1)).toBe("  │ short");
  });
});

describe("diffs", () => {
  const before = "const a = 1;\nconst b = 2;\nconst c = 3;\n";
  const after = "const a = 1;\nconst b = 20;\nconst c = 3;\nconst d = 4;\n";
  const patch = createTwoFilesPatch("src/x.ts", "src/x.ts", before, after);

  test("old and new line numbers, signs and colours", () => {
    const rows = renderDiff(patch, { width: 60 });
    const text = rows.map(rowText);
    expect(text[0]).toMatch(/^@@ -1,3 \+1,4 @@/);
    expect(text).toContain("  2     - const b = 2;");
    expect(text).toContain("      2 + const b = 20;");
    expect(text).toContain("      4 + const d = 4;");
    const removed = rows.find((r) => rowText(r).includes("const b = 2;"))!;
    expect(removed.spans.some((s) => s.style?.fg && "n" in s.style.fg && s.style.fg.n === 1)).toBe(true);
  });

  test("each hunk is lexed afresh: a string one hunk leaves open does not colour the next", () => {
    const diff = `--- a/m.py
+++ b/m.py
@@ -10,4 +10,4 @@ def f():
     Returns the thing.
     """
-    return 1
+    return 2
@@ -40,3 +40,3 @@ def g():
 def g(x):
-    return x + 1
+    return x + 2
`;
    const def = (d: string) => renderDiff(d, { width: 60 }).find((r) => rowText(r).endsWith("def g(x):"))!.spans.find((s) => s.text === "def")!;
    // The second hunk is coloured as it would be on its own (the first opens a """ string).
    const alone = diff.slice(0, diff.indexOf("@@ -10")) + diff.slice(diff.indexOf("@@ -40"));
    expect(def(diff).style).toEqual(def(alone).style);
    expect(def(alone).style?.fg).toBeDefined();
  });

  test("removed lines are syntax-highlighted too, in the old file's colours, dimmed; the rest of the line stays red", () => {
    const rows = renderDiff(patch, { width: 60 });
    const row = (t: string) => rows.find((r) => rowText(r).endsWith(t))!;
    const kw = (r: Row) => r.spans.find((s) => s.text === "const")!;
    const removed = row("- const b = 2;");
    const added = row("+ const b = 20;");
    expect(kw(added).style?.fg).toBeDefined();
    // Same colour as the keyword on the added line, dimmed.
    expect(kw(removed).style).toEqual({ ...kw(added).style, dim: true });
    // Text the highlighter leaves alone keeps the removed colour.
    expect(removed.spans.filter((s) => s.text.trim() && s.style?.fg && "n" in s.style.fg && s.style.fg.n === 1).length).toBeGreaterThan(0);
    expect(removed.spans.length).toBeGreaterThan(4);
  });

  test("long code lines wrap under the code, not under the gutter; never wider than the screen", () => {
    const long = createTwoFilesPatch("a.txt", "a.txt", "x\n", `${"word ".repeat(40)}\n`);
    const rows = renderDiff(long, { width: 30 });
    expect(widest(rows)).toBeLessThanOrEqual(30);
    const cont = rows.filter((r) => rowText(r).startsWith("        ") && rowText(r).includes("word"));
    expect(cont.length).toBeGreaterThan(3);
  });
});

describe("permission panel", () => {
  const files = { local: ".khaelor/settings.local.json", user: "~/.config/khaelor/settings.json" };

  test("shows the command, one key per choice, the always-rule and each place it can be saved", () => {
    const rows = renderPermissionPanel(
      { prompt: { toolName: "bash", summary: "bash: git push", reason: "bash needs permission", detail: { label: "command", text: "git push origin main" }, alwaysRule: "Bash(git push *)", alwaysFiles: files }, message: null },
      80,
      20,
    );
    const text = rows.map(rowText).join("\n");
    expect(text).toContain("command: git push origin main");
    expect(text).toContain("[y] allow once");
    expect(text).toContain("[n] deny");
    expect(text).toContain("[m] deny with a message");
    expect(text).toContain("always allow Bash(git push *)");
    expect(text).toContain("[a] in .khaelor/settings.local.json");
    expect(text).toContain("[s] for this session only");
    expect(text).toContain("[u] in ~/.config/khaelor/settings.json");
    expect(widest(rows)).toBeLessThanOrEqual(80);
    // Each key names one choice.
    expect(PERMISSION_KEYS.a).toEqual({ always: "local" });
    expect(PERMISSION_KEYS.s).toEqual({ always: "session" });
    expect(PERMISSION_KEYS.u).toEqual({ always: "user" });
  });

  test("with no rule to save, 'always' is not offered", () => {
    const rows = renderPermissionPanel({ prompt: { toolName: "bash", summary: "s", reason: "r", alwaysRule: "", alwaysFiles: files }, message: null }, 80, 20);
    const text = rows.map(rowText).join("\n");
    expect(text).toContain("[y] allow once");
    expect(text).not.toContain("always allow");
    expect(text).not.toContain("[a]");
  });

  test("a tall diff is cut to fit the rows it is given; the choices always show", () => {
    const big = createTwoFilesPatch("f.ts", "f.ts", "", Array.from({ length: 200 }, (_, i) => `line ${i}`).join("\n"));
    const rows = renderPermissionPanel({ prompt: { toolName: "write", summary: "write f.ts", reason: "r", diff: big, alwaysRule: "Edit(f.ts)", alwaysFiles: files }, message: null }, 50, 15);
    expect(rows.length).toBeLessThanOrEqual(15);
    const text = rows.map(rowText).join("\n");
    expect(text).toContain("[y] allow");
    expect(text).toContain("[n] deny");
    expect(text).toMatch(/… \d+ more rows · Ctrl-T shows it all/);
  });
});

describe("permission panel on narrow terminals", () => {
  const files = { local: ".khaelor/settings.local.json", user: "~/.config/khaelor/settings.json" };
  const serve = { toolName: "process", summary: "process start ticker: python3 -m http.server", reason: "", detail: { label: "command", text: "python3 -m http.server" }, alwaysRule: "Process(python3 -m http.server *)", alwaysFiles: files };
  /** The words of the rows, as read: rows joined with a space, runs of spaces as one. */
  const words = (rows: Row[]) => rows.map(rowText).join(" ").replace(/ +/g, " ");

  test("at 40 columns the rule and where it is saved wrap between words, never inside one", () => {
    const rows = renderPermissionPanel({ prompt: serve, message: null }, 40, 20);
    expect(widest(rows)).toBeLessThanOrEqual(40);
    const text = rows.map(rowText);
    expect(text).toContain("  [a] in .khaelor/settings.local.json");
    expect(text).toContain("      this project, not committed");
    expect(text).toContain("  [u] in ~/.config/khaelor/settings.json");
    expect(words(rows)).toContain("always allow Process(python3 -m http.server *):");
  });

  test("the one-line form of the choices keeps the whole rule, wrapped, not cut with an ellipsis", () => {
    for (const width of [30, 40]) {
      const rows = renderPermissionPanel({ prompt: serve, message: null }, width, 7);
      expect(widest(rows)).toBeLessThanOrEqual(width);
      expect(words(rows)).toContain("always allow Process(python3 -m http.server *): [a] project [s] session [u] all projects");
      for (const r of rows) expect(rowText(r)).not.toMatch(/ $/);
    }
  });
});

describe("permission panel on short terminals", () => {
  const files = { local: ".khaelor/settings.local.json", user: "~/.config/khaelor/settings.json" };
  const before = Array.from({ length: 6 }, (_, i) => `line ${i}`).join("\n") + "\n";
  const after = before.replace("line 3", "line three\nline 3b\nline 3c");
  const edit = { toolName: "edit", summary: "edit src/a.js", reason: "", diff: createTwoFilesPatch("src/a.js", "src/a.js", before, after), diffPath: "src/a.js", alwaysRule: "Edit(./src/**)", alwaysFiles: files };

  test("at 80×10 the diff still shows, with how much more there is and the key that shows it all", () => {
    const rows = renderPermissionPanel({ prompt: edit, message: null }, 80, 7).map(rowText);
    expect(rows.length).toBeLessThanOrEqual(7);
    expect(rows.join("\n")).toContain("[y] allow once");
    expect(rows.some((r) => /^\s+\d+\s+\d*\s*[-+ ] line/.test(r))).toBe(true);
    expect(rows.join("\n")).toMatch(/… \d+ more rows · Ctrl-T shows it all/);
    // The rule that "always" saves is still named, on one line with its keys.
    expect(rows.join("\n")).toContain("always allow Edit(./src/**): [a] project  [s] session  [u] all projects");
  });

  test("the allow and deny keys show at every size, and no row is wider than the screen", () => {
    for (const width of [12, 20, 33, 50, 80, 120])
      for (let maxRows = 1; maxRows <= 24; maxRows++) {
        const rows = renderPermissionPanel({ prompt: edit, message: null }, width, maxRows);
        expect(rows.length).toBeLessThanOrEqual(maxRows);
        expect(widest(rows)).toBeLessThanOrEqual(width);
        const text = rows.map(rowText).join("\n");
        expect(text).toContain("[y]");
        if (maxRows >= 2 || width >= 20) expect(text).toContain("[n]");
      }
  });

  test("at 20×6 the keys take the rows the summary cannot", () => {
    const rows = renderPermissionPanel({ prompt: edit, message: null }, 20, 3).map(rowText);
    expect(rows).toContain("[y] allow  [n] deny");
  });
});

describe("composer view", () => {
  test("wraps at the width with a hanging indent; the cursor lands after wide characters", () => {
    const v = renderComposer({ text: "漢字漢字漢字", cursor: 6, width: 10, maxRows: 5 });
    expect(v.rows.map(rowText)).toEqual(["› 漢字漢字", "  漢字"]);
    expect(v.cursor).toEqual({ row: 1, col: 6 });
  });

  test("wraps between words; a word longer than the row is broken; the cursor follows", () => {
    const text = "please keep it short";
    const v = renderComposer({ text, cursor: text.indexOf("short"), width: 16, maxRows: 5 });
    expect(v.rows.map(rowText)).toEqual(["› please keep it", "  short"]);
    expect(v.cursor).toEqual({ row: 1, col: 2 });
    expect(renderComposer({ text, cursor: text.indexOf("it"), width: 14, maxRows: 5 }).rows.map(rowText)).toEqual(["› please keep ", "  it short"]);
    const long = renderComposer({ text: "a supercalifragilistic word", cursor: 27, width: 12, maxRows: 9 });
    expect(long.rows.map(rowText)).toEqual(["› a ", "  supercalif", "  ragilistic", "  word"]);
    expect(long.cursor).toEqual({ row: 3, col: 6 });
    // The cursor on the space that ends a full row shows at the start of the next.
    expect(renderComposer({ text: "a supercalifragilistic word", cursor: 22, width: 12, maxRows: 9 }).cursor).toEqual({ row: 3, col: 2 });
    for (let w = 4; w < 30; w++) {
      const r = renderComposer({ text: "one two three four five six", cursor: 10, width: w, maxRows: 40 });
      expect(r.rows.map(rowText).join("").replace(/^› /, "").replace(/ {2}/g, "")).toContain("three");
      expect(widest(r.rows)).toBeLessThanOrEqual(Math.max(4, w));
    }
  });

  test("a tall prompt scrolls to keep the cursor row in view", () => {
    const text = Array.from({ length: 20 }, (_, i) => `l${i}`).join("\n");
    const v = renderComposer({ text, cursor: 0, width: 20, maxRows: 4 });
    expect(v.rows.length).toBe(4);
    expect(rowText(v.rows[0]!)).toBe("› l0");
    expect(v.cursor.row).toBe(0);
  });
});
