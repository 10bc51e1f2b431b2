import { expect, test } from "bun:test";
import { PLAN_CHOICES, renderPlanPanel } from "../../../src/tui/views/plan-panel.ts";
import { rowText } from "../support/model.ts";

test("on a narrow terminal the plan panel's choices wrap between words, each read whole", () => {
  const rows = renderPlanPanel({ plan: "1. Do it.", file: "~/.local/share/khaelor/plans/p.md", selected: 2, feedback: null }, { width: 36, maxRows: 40, armed: true, links: false }).map(rowText);
  const text = rows.join("\n");
  for (const { label } of PLAN_CHOICES) {
    // Joined back where a row ended, each choice reads as written: no word was cut in two.
    expect(text.replace(/\n\s+/g, " ")).toContain(label);
  }
  expect(text.replace(/\n\s*/g, " ")).toContain("Ctrl-T shows the whole plan · Esc stops the agent");
  expect(rows.every((r) => r.trimEnd().length <= 36)).toBe(true);
});
