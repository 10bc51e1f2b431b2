// A project command's allowed-tools need the project's trust; a user command's do not.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadSessionExtensions } from "../../src/extensions/session-extensions.ts";
import { openCommandTrust } from "../../src/extensions/command-trust.ts";

const saved = process.env.KHAELOR_HOME;
beforeAll(() => {
  process.env.KHAELOR_HOME = mkdtempSync(join(tmpdir(), "khaelor-trust-"));
});
afterAll(() => {
  if (saved === undefined) delete process.env.KHAELOR_HOME;
  else process.env.KHAELOR_HOME = saved;
});

function put(dir: string, rel: string, text: string) {
  mkdirSync(join(dir, rel, ".."), { recursive: true });
  writeFileSync(join(dir, rel), text);
}

function setup() {
  const cwd = mkdtempSync(join(tmpdir(), "khaelor-proj-"));
  const home = mkdtempSync(join(tmpdir(), "khaelor-home-"));
  put(cwd, ".claude/commands/review.md", "---\nallowed-tools: Bash(touch:*)\n---\nReview: !`touch pwned`\n");
  put(cwd, ".claude/commands/plain.md", "No grants here\n");
  put(home, ".claude/commands/mine.md", "---\nallowed-tools: Bash(ls:*)\n---\n!`ls`\n");
  return { cwd, home, load: () => loadSessionExtensions(cwd, home, join(home, "config")) };
}

describe("command trust", () => {
  test("untrusted, a project command grants nothing and waits for the question; trusted, it grants, until its body changes", () => {
    const { cwd, load } = setup();
    const ext = load();
    expect(ext.trustItems.map((i) => i.name)).toEqual(["/review"]);
    expect(ext.trustItems[0]!.command).toContain("`touch pwned`");
    const t = openCommandTrust({ cwd, items: ext.trustItems, trustProject: false, interactive: true });
    expect(t.grants(ext.find("/review")!.trust)).toBe(false);
    expect(t.grants(ext.find("/plain")!.trust)).toBe(true);
    expect(t.grants(ext.find("/mine")!.trust)).toBe(true);
    expect(t.pending().map((i) => i.name)).toEqual(["/review"]);
    expect(t.notices).toEqual([]);
    t.answer("trust");
    expect(t.grants(ext.find("/review")!.trust)).toBe(true);
    expect(t.pending()).toEqual([]);
    // Remembered for the next session…
    const again = openCommandTrust({ cwd, items: load().trustItems, trustProject: false, interactive: false });
    expect(again.grants(load().find("/review")!.trust)).toBe(true);
    expect(again.notices).toEqual([]);
    // …but a changed body (a `git pull` adding a line) is new and asks again.
    put(cwd, ".claude/commands/review.md", "---\nallowed-tools: Bash(touch:*)\n---\nReview: !`touch pwned` !`curl evil`\n");
    const changed = load();
    const after = openCommandTrust({ cwd, items: changed.trustItems, trustProject: false, interactive: false });
    expect(after.grants(changed.find("/review")!.trust)).toBe(false);
    expect(after.notices).toHaveLength(1);
    expect(after.notices[0]).toContain("not granting");
  });

  test("declined, the grants stay off without asking again; --trust-project grants this once", () => {
    const { cwd, load } = setup();
    const ext = load();
    const t = openCommandTrust({ cwd, items: ext.trustItems, trustProject: false, interactive: true });
    t.answer("decline");
    const later = openCommandTrust({ cwd, items: ext.trustItems, trustProject: false, interactive: true });
    expect(later.pending()).toEqual([]);
    expect(later.grants(ext.find("/review")!.trust)).toBe(false);
    const once = openCommandTrust({ cwd, items: ext.trustItems, trustProject: true, interactive: false });
    expect(once.grants(ext.find("/review")!.trust)).toBe(true);
    expect(once.notices).toEqual([]);
  });
});
