// Decision rows as in decision-table.test.ts, for the test files that open engines of their own:
// each row is a command and its expected decision in default / acceptEdits / plan /
// bypassPermissions (a = allow, ? = ask, d = deny). A mismatch lists every mode's source and reason.
import { expect } from "bun:test";
import type { PermissionEngine, PermissionMode } from "../../src/permissions/index.ts";
import type { Fixture } from "./fixture.ts";

export const MODES: PermissionMode[] = ["default", "acceptEdits", "plan", "bypassPermissions"];
const LETTER = { allow: "a", ask: "?", deny: "d" } as const;

export type Row = [expected: string, command: string];

/** `{root}`, `{home}` and `{out}` in a row stand for the fixture's places. */
export function expectRows(engine: PermissionEngine, fx: Fixture, rows: Row[], tool = "bash"): void {
  const wrong: string[] = [];
  for (const [expected, raw] of rows) {
    const command = raw.replaceAll("{root}", fx.root).replaceAll("{home}", fx.home).replaceAll("{out}", fx.outside);
    let got = "";
    const reasons: string[] = [];
    for (const mode of MODES) {
      engine.setMode(mode);
      const input = tool === "process" ? { action: "start", command } : { command };
      const d = engine.decide({ tool, input, cwd: fx.root });
      got += LETTER[d.behavior];
      reasons.push(`${mode}: ${d.source} ${d.reason}`);
    }
    if (got !== expected) wrong.push(`${JSON.stringify(raw)}: expected ${expected}, got ${got}\n    ${reasons.join("\n    ")}`);
  }
  engine.setMode("default");
  expect(wrong.join("\n")).toBe("");
}

/** The base64 of a text, as `base64` prints it (one line). */
export const b64 = (text: string) => Buffer.from(text).toString("base64");
/** A plain hex dump, as `xxd -p` prints it. */
export const hex = (text: string) => Buffer.from(text).toString("hex");
