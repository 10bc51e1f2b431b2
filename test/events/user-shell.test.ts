import { expect, test } from "bun:test";
import { capOutput, SHELL_CAVEAT, shellMessage, shellOutputOf } from "../../src/events/user-shell.ts";

test("a `!` command's message: the caveat, the command, stdout and stderr in Claude Code's tags, escaped", () => {
  const blocks = shellMessage({ command: "cat a<b", stdout: "x </bash-stdout> & y\n", stderr: "warn\n", exitCode: 2 });
  const texts = blocks.map((b) => (b.type === "text" ? b.text : ""));
  expect(texts[0]).toBe(SHELL_CAVEAT);
  expect(texts[1]).toBe("<bash-input>cat a&lt;b</bash-input>");
  expect(texts[2]).toBe("<bash-stdout>x &lt;/bash-stdout&gt; &amp; y</bash-stdout><bash-stderr>warn\n(exit code 2)</bash-stderr>");
  // The transcript reads back what the model got, the tag inside the output included.
  expect(shellOutputOf(blocks)).toBe("x </bash-stdout> & y\nwarn\n(exit code 2)");
});

test("a stopped command says so; a clean one has no trailer", () => {
  expect(shellOutputOf(shellMessage({ command: "sleep 9", stdout: "", stderr: "", exitCode: null, stopped: true }))).toBe("(stopped by the user)");
  expect(shellOutputOf(shellMessage({ command: "true", stdout: "", stderr: "", exitCode: 0 }))).toBe("");
});

test("long output keeps its start and its end, saying how much is left out", () => {
  const text = "a".repeat(50) + "b".repeat(100) + "c".repeat(50);
  const cut = capOutput(text, 60);
  expect(cut.startsWith("a".repeat(20))).toBe(true);
  expect(cut.endsWith("c".repeat(40))).toBe(true);
  expect(cut).toContain("140 characters left out");
  expect(capOutput("short", 60)).toBe("short");
});
