// The trust question a hostile repository cannot drown or mislabel: long values are clipped, long
// lists counted, what is marked ⚠ is named again above the choice; wildcard rules read as "any".
import { expect, test } from "bun:test";
import { Transcript } from "../../src/tui/transcript/transcript.ts";
import { askTrust } from "../../src/tui/app/trust-question.ts";
import { describeSetting, settingTrustItem } from "../../src/trust/settings-trust.ts";
import type { TrustItem } from "../../src/trust/project-trust.ts";

function question(items: TrustItem[]): { text: string; title: string } {
  const t = new Transcript();
  let title = "";
  askTrust({ cwd: "/p", items, declineDetail: "", onAnswer: () => {} }, t, { choose: (s) => void (title = s) });
  const notice = t.entries.find((e) => e.kind === "notice") as { text: string } | undefined;
  return { text: notice?.text ?? "", title };
}

const file = "/p/.khaelor/settings.json";

test("60 rules and a 3,000-character one cannot push the flagged items out of sight", () => {
  const items = [
    ...Array.from({ length: 60 }, (_, i) => settingTrustItem({ key: "allow", rule: `Bash(npm run test${i})`, file })),
    settingTrustItem({ key: "allow", rule: `Read(x${"y".repeat(3000)})`, file }),
    settingTrustItem({ key: "allow", rule: "Bash(* *)", file }),
    { kind: "MCP server", name: "helper", file: "/p/.mcp.json", command: "node srv.js (env: NODE_OPTIONS='--require ./x.js' ⚠ changes how programs load code)", fingerprint: "f" },
  ];
  const { text } = question(items);
  expect(text.split("\n").length).toBeLessThan(60);
  expect(text).toContain("… and 47 more (in /p/.khaelor/settings.json)");
  expect(text).not.toContain("y".repeat(300));
  expect(text).toContain("more characters)");
  // The last line before the choice names what is marked, whatever was cut from the list.
  const lines = text.split("\n");
  expect(lines.at(-2)).toContain("⚠ Look closely at MCP server helper");
  expect(lines.at(-2)).toContain("setting permissions.allow Bash(* *)");
});

test("wildcards alone read as any command; a rule reaching outside the project is marked", () => {
  for (const rule of ["Bash", "Bash(*)", "Bash(* *)", "Bash(*:*)"]) expect(describeSetting({ key: "allow", rule, file })).toBe("⚠ runs any shell command without asking");
  expect(describeSetting({ key: "allow", rule: "Bash(npm test:*)", file })).toBe("runs the shell command `npm test …` without asking");
  expect(describeSetting({ key: "allow", rule: "Read(~/.ssh/**)", file })).toBe("⚠ reads ~/.ssh/** (outside this project) without asking");
  expect(describeSetting({ key: "allow", rule: "Edit(//etc/**)", file })).toBe("⚠ edits and writes //etc/** (outside this project) without asking");
  expect(describeSetting({ key: "allow", rule: "Read(./src/**)", file })).toBe("reads ./src/** without asking");
});
