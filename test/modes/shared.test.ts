// What the modes share: which prompts are session commands, and how the stop signals are heard.
import { expect, test } from "bun:test";
import { sessionCommandOf } from "../../src/modes/shared/session-commands.ts";
import { onStopSignals, type StopSignal } from "../../src/modes/shared/signals.ts";

test("/compact with or without instructions is the session command; a longer name, an image or a word before it is not", () => {
  expect(sessionCommandOf("/compact")).toEqual({ name: "compact", args: undefined });
  expect(sessionCommandOf("  /compact   keep the style decisions\nand the plan  ")).toEqual({ name: "compact", args: "keep the style decisions\nand the plan" });
  expect(sessionCommandOf([{ type: "text", text: "/compact " }, { type: "text", text: "short" }])).toEqual({ name: "compact", args: "short" });
  expect(sessionCommandOf("/compact-notes today")).toBeNull();
  expect(sessionCommandOf("/compacted")).toBeNull();
  expect(sessionCommandOf("please /compact")).toBeNull();
  expect(sessionCommandOf("/review")).toBeNull();
  expect(sessionCommandOf([{ type: "text", text: "/compact" }, { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } }])).toBeNull();
});

test("the first stop signal stops the mode with its code and reason; a second exits at once with its own code, unless the mode takes every one", () => {
  const seen: StopSignal[] = [];
  const exits: number[] = [];
  const off = onStopSignals((s) => seen.push(s), { exit: (c) => void exits.push(c) });
  process.emit("SIGTERM");
  expect(seen.map((s) => [s.name, s.code, s.reason])).toEqual([["SIGTERM", 143, "sigterm"]]);
  expect(exits).toEqual([]);
  process.emit("SIGINT");
  expect(exits).toEqual([130]);
  expect(seen).toHaveLength(1);
  off();

  const every: string[] = [];
  const offEvery = onStopSignals((s) => every.push(s.reason), { secondExits: false, exit: () => exits.push(-1) });
  process.emit("SIGHUP");
  process.emit("SIGHUP");
  offEvery();
  expect(every).toEqual(["sighup", "sighup"]);
  expect(exits).toEqual([130]);
  // Off means off: no listener of ours is left behind.
  expect(process.listenerCount("SIGINT") + process.listenerCount("SIGTERM") + process.listenerCount("SIGHUP")).toBe(0);
});
