// Keys typed while the terminal's capabilities are probed (before the app listens) reach the app.
import { expect, test } from "bun:test";
import { PassThrough } from "node:stream";
import { openTerminal, type TerminalInput, type TerminalOutputStream } from "../../../src/tui/term/terminal.ts";
import type { InputEvent } from "../../../src/tui/term/decoder.ts";

test("keys typed during the capability probe are held for the first listener, not dropped", async () => {
  const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => undefined }) as unknown as TerminalInput & PassThrough;
  const written: string[] = [];
  const stdout = Object.assign(new PassThrough(), { columns: 80, rows: 24 }) as unknown as TerminalOutputStream & PassThrough;
  stdout.on("data", (d: Buffer) => {
    written.push(d.toString());
    // The query went out: the user types, then the terminal answers (DA1 ends the probe).
    if (d.toString().includes("\x1b[c")) {
      stdin.write("hi");
      stdin.write("\x1b[?62;22c");
    }
  });
  const term = await openTerminal({ stdin, stdout, env: { TERM: "xterm-256color" }, handleSignals: false, probeTimeoutMs: 5_000 });
  const got: InputEvent[] = [];
  term.onInput((evs) => got.push(...evs));
  await Promise.resolve();
  expect(got.filter((e) => e.type === "key").map((e) => (e.type === "key" ? e.key : ""))).toEqual(["h", "i"]);
  expect(got.some((e) => e.type === "reply")).toBe(false);
  await term.close();
});
