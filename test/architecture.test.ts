// ARCHITECTURE.md's "may import" table is checked against the code (scripts/check-imports.ts), so
// the document cannot drift from it silently; and the checker itself catches what it claims to.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { checkImports, circles, importsOf, parseTable } from "../scripts/check-imports.ts";

const root = join(import.meta.dir, "..");

test("every import in src/ is one ARCHITECTURE.md's table allows, and there are no import circles", () => {
  const rows = parseTable(readFileSync(join(root, "ARCHITECTURE.md"), "utf8"));
  expect(rows.length).toBeGreaterThan(25);
  expect(checkImports(rows, importsOf(join(root, "src")))).toEqual([]);
});

test("the checker reports a folder not listed, a file outside a row's list, a value import under (types), a missing row and a circle", () => {
  const rows = parseTable(
    [
      "| folder | job | may import |",
      "|---|---|---|",
      "| `src/a/` | a | b (`one.ts`), c (types) |",
      "| `src/b/` | b | nothing of ours |",
      "| `src/c/` | c | a |",
      "| `src/v.ts` | v | nothing of ours; every folder may import it |",
    ].join("\n"),
  );
  const problems = checkImports(rows, [
    { from: "a/x.ts", to: "b/one.ts", typeOnly: false },
    { from: "a/x.ts", to: "b/two.ts", typeOnly: false },
    { from: "a/x.ts", to: "c/types.ts", typeOnly: false },
    { from: "a/x.ts", to: "c/impl.ts", typeOnly: true },
    { from: "a/x.ts", to: "c/impl.ts", typeOnly: false },
    { from: "b/one.ts", to: "a/x.ts", typeOnly: false },
    { from: "b/one.ts", to: "v.ts", typeOnly: false },
    { from: "d/y.ts", to: "a/x.ts", typeOnly: false },
  ]);
  expect(problems).toEqual([
    "src/a/x.ts imports src/b/two.ts: the row of src/a/ does not allow b",
    "src/a/x.ts imports src/c/impl.ts: the row of src/a/ does not allow c",
    "src/b/one.ts imports src/a/x.ts: the row of src/b/ does not allow a",
    "src/d/y.ts is in no row of the table",
    "import circle: src/a/x.ts → src/b/one.ts → src/a/x.ts",
  ]);
  expect(circles([{ from: "p.ts", to: "q.ts", typeOnly: false }])).toEqual([]);
});
