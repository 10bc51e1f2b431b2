// Grammars load when first needed; until then the app holds back what would settle without colours.
import { expect, test } from "bun:test";
import { LazyGrammars } from "../../../src/tui/app/lazy-grammars.ts";
import { allGrammars, isHighlightLoaded } from "../../../src/tui/markdown/highlight/highlighter.ts";
import type { Entry } from "../../../src/tui/transcript/entry.ts";

// Grammars are process-wide: pick one no earlier test has loaded.
const fresh = (skip: string[] = []) => allGrammars.find((g) => !isHighlightLoaded(g) && !skip.includes(g));

test("a fence whose grammar is loading holds the stream at the fence line, then lets everything through once loaded", async () => {
  const lang = fresh();
  if (!lang) return; // every grammar already loaded in this process: nothing left to hold
  let changed!: () => void;
  const loadedOrGaveUp = new Promise<void>((r) => (changed = r));
  const g = new LazyGrammars(() => changed());
  const fenceName = lang === "c_sharp" ? "cs" : lang;
  const text = `Intro paragraph.\n\n- a list\n\n\`\`\`${fenceName}\ncode here\n\`\`\`\n\nAfter.\n`;
  const fenceAt = text.indexOf("```");
  expect(g.feedLimit(text, 0)).toBe(fenceAt);
  // Fed up to the fence already: nothing more until the grammar is there.
  expect(g.feedLimit(text, fenceAt)).toBe(fenceAt);
  // A partial line is never a reason to hold (it cannot settle a block).
  expect(g.feedLimit("Intro\n```" + fenceName, 0)).toBe(("Intro\n```" + fenceName).length);
  await loadedOrGaveUp;
  expect(isHighlightLoaded(lang)).toBe(true);
  expect(g.feedLimit(text, fenceAt)).toBe(text.length);
}, 20_000);

test("fences without a known language, and closing fences, never hold", () => {
  const g = new LazyGrammars(() => {});
  const text = "```\nplain\n```\n\n```mermaid\ngraph\n```\n\n> ```\n> quoted\n> ```\n";
  expect(g.feedLimit(text, 0)).toBe(text.length);
});

test("an answer with code, or an edit's diff, is held from history while its grammar loads", async () => {
  const lang = fresh();
  if (!lang) return;
  let changed!: () => void;
  const done = new Promise<void>((r) => (changed = r));
  const g = new LazyGrammars(() => changed());
  const answer: Entry = { kind: "assistant", key: 1, text: `Here:\n\n\`\`\`${lang === "c_sharp" ? "cs" : lang}\nx\n\`\`\`\n`, done: true, interrupted: false };
  const prose: Entry = { kind: "assistant", key: 2, text: "No code at all.\n", done: true, interrupted: false };
  expect(g.holds(answer)).toBe(true);
  expect(g.holds(prose)).toBe(false);
  await done;
  expect(g.holds(answer)).toBe(false);

  const other = fresh([lang]);
  if (!other) return;
  const ext: Record<string, string> = { bash: "sh", c_sharp: "cs", cpp: "cpp", css: "css", go: "go", java: "java", javascript: "js", php: "php", python: "py", ruby: "rb", rust: "rs", typescript: "ts", tsx: "tsx" };
  const edit: Entry = {
    kind: "tool",
    key: 3,
    input: { file_path: `src/x.${ext[other]}` },
    view: { id: "t", name: "edit", summary: "edit", status: "ok", startedAt: 0, durationMs: 1, outputTail: [], diff: "@@ -1 +1 @@\n-a\n+b\n" },
  };
  expect(g.holds(edit)).toBe(true);
});
