import { expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileFinder, fuzzyMatch, mentionAt } from "../../../src/tui/app/file-finder.ts";

test("the list comes from ripgrep (ignored files left out) and ranks name matches first", async () => {
  const dir = mkdtempSync(join(tmpdir(), "khaelor-ff-"));
  mkdirSync(join(dir, "src", "app"), { recursive: true });
  mkdirSync(join(dir, "dist"));
  writeFileSync(join(dir, ".gitignore"), "dist/\n");
  writeFileSync(join(dir, "src", "app", "composer.ts"), "");
  writeFileSync(join(dir, "src", "compose-utils.ts"), "");
  writeFileSync(join(dir, "dist", "composer.js"), "");
  mkdirSync(join(dir, ".git"));
  const f = new FileFinder(dir);
  await f.load();
  const all = f.search("", 50).map((m) => m.path);
  expect(all).toContain("src/app/composer.ts");
  expect(all.some((p) => p.startsWith("dist/"))).toBe(false);
  expect(f.search("composer")[0]?.path).toBe("src/app/composer.ts");
});

test("recently used files rank above equally good matches", () => {
  const f = new FileFinder("/nowhere");
  f.setFiles(["a/view.ts", "b/view.ts", "c/view.ts"]);
  expect(f.search("view")[0]?.path).toBe("a/view.ts");
  f.touch("c/view.ts");
  expect(f.search("view")[0]?.path).toBe("c/view.ts");
  expect(fuzzyMatch("xyz", "a/view.ts")).toBeNull();
});

test("the mention under the cursor is found; an email address is not a mention", () => {
  expect(mentionAt("look at @src/ap", 15)).toEqual({ start: 8, query: "src/ap" });
  expect(mentionAt("mail me@host", 12)).toBeNull();
  expect(mentionAt("@", 1)).toEqual({ start: 0, query: "" });
});
