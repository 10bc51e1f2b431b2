// The four modes stand side by side on the session service: none imports the CLI parser (the
// parsed options come down as plain data) and none imports another mode's folder; what they share
// lives in src/modes/shared.
import { expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { importsOf } from "../../scripts/check-imports.ts";

const src = join(import.meta.dir, "..", "..", "src");
const modeOf = (file: string) => /^modes\/([^/]+)\//.exec(file)?.[1] ?? null;

test("the four modes are folders of src/modes, beside what they share", () => {
  const folders = readdirSync(join(src, "modes"), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
  expect(folders.sort()).toEqual(["acp", "app", "print", "shared", "stream-json"]);
});

test("no mode imports src/cli or another mode; only src/main.ts and src/cli import a mode", () => {
  const wrong: string[] = [];
  for (const i of importsOf(src)) {
    const from = modeOf(i.from);
    const to = modeOf(i.to);
    if (from && i.to.startsWith("cli/")) wrong.push(`${i.from} imports ${i.to}`);
    if (from && to && from !== to && to !== "shared") wrong.push(`${i.from} imports ${i.to}`);
    if (!from && to && i.from !== "main.ts" && !i.from.startsWith("cli/")) wrong.push(`${i.from} imports ${i.to}`);
  }
  expect(wrong).toEqual([]);
});
