import { expect, test } from "bun:test";
import { renderPicker } from "../../../src/tui/views/picker.ts";
import { rowText } from "../support/model.ts";

test("a title longer than the row (a question naming a long path) wraps between words instead of losing its end", () => {
  const title = "Trust /home/someone/projects/a-rather-long-directory-name/with/more/parts and run it? (remembered for this project)";
  const rows = renderPicker({ title, items: [{ label: "Trust and run", value: 1 }, { label: "Do not run", value: 2 }], selected: 0, query: "" }, 60, 8).map(rowText);
  expect(rows.every((r) => r.trimEnd().length <= 60)).toBe(true);
  const titleRows = rows.slice(0, rows.findIndex((r) => r.includes("Trust and run")));
  expect(titleRows.length).toBeGreaterThan(1);
  expect(titleRows.join(" ").replace(/\s+/g, " ")).toContain("and run it? (remembered for this project) type to filter");
  expect(rows.at(-1)).toContain("Do not run");
});
