// Tool results as the user sees them: the trailers and instructions src/tools writes for the model
// come off, matched exactly; what happened stays (exit codes, timeouts, a wait that failed); real
// output that merely looks like a note is left alone.
import { describe, expect, test } from "bun:test";
import { shownResult, shownText } from "../../../src/tui/transcript/tool-output.ts";
import { makeHarness } from "../../tools/harness.ts";

describe("bash", () => {
  test("the cwd note goes; how the command ended stays", () => {
    expect(shownResult("bash", "ok\n\n[cwd: .]")).toEqual({ body: "ok", notes: "" });
    expect(shownResult("bash", "ok\n\n[cwd: src (changed)]")).toEqual({ body: "ok", notes: "" });
    expect(shownResult("bash", "boom\n\n[exit code 2; cwd: .]")).toEqual({ body: "boom", notes: "exit code 2" });
    expect(shownText(shownResult("bash", "boom\n\n[exit code 2; cwd: .]"))).toBe("boom\n\n[exit code 2]");
  });

  test("advice to the model and durations the row already shows are dropped", () => {
    const timeout = "(no output)\n\n[timed out after 120000 ms: the command and everything it started were killed. For servers and watchers use the process tool; for long builds pass a larger timeout (at most 600000); cwd: .]";
    expect(shownResult("bash", timeout).notes).toBe("timed out: the command and everything it started were killed");
    const cancelled = "x\n\n[cancelled by the user after 3043 ms; the command and everything it started were killed; cwd: .]";
    expect(shownResult("bash", cancelled).notes).toBe("cancelled by the user; the command and everything it started were killed");
    const leftovers = "x\n\n[background processes the command left running were stopped; start long-running programs with the process tool; cwd: .]";
    expect(shownResult("bash", leftovers).notes).toBe("background processes the command left running were stopped");
  });

  test("output ending in brackets of its own is output", () => {
    expect(shownResult("bash", "[100%] built\n\n[cwd: .]").body).toBe("[100%] built");
    expect(shownResult("bash", "log\n\n[INFO] done")).toEqual({ body: "log\n\n[INFO] done", notes: "" });
  });
});

describe("process", () => {
  test("a read loses its bookkeeping (what appeared, the state while running, the offset)", () => {
    expect(shownResult("process", "tick 1\n\n[/tick/ appeared; ticker (p1) running; offset 5]")).toEqual({ body: "tick 1", notes: "" });
    expect(shownResult("process", "(no new output)\n\n[p3 running; offset 0]")).toEqual({ body: "(no new output)", notes: "" });
  });

  test("a read keeps what went wrong: a wait that failed, an exit, dropped output", () => {
    const r = shownResult("process", "x\n\n[/a; b/ did not appear within 30000 ms; web (p2) exited with code 1; offset 9; 12 older characters were dropped from the buffer]");
    expect(r).toEqual({ body: "x", notes: "/a; b/ did not appear within 30000 ms; the process exited with code 1; 12 older characters were dropped from the buffer" });
  });

  test("instructions in tool syntax come off the end of a sentence", () => {
    expect(shownResult("process", 'Started "ticker" as p1 (pid 7) in the project root. Read its output with action=read id=ticker (wait_for a ready message), stop it with action=stop.').body).toBe(
      'Started "ticker" as p1 (pid 7) in the project root.',
    );
    expect(shownResult("process", "Wrote 3 characters to p1's stdin. Read its answer with action=read.").body).toBe("Wrote 3 characters to p1's stdin.");
    expect(shownResult("process", "No processes. Start one with action=start.").body).toBe("No processes.");
  });
});

describe("read and grep", () => {
  test("notes stay, less how to call the tool next", () => {
    expect(shownResult("read", "1\ta\n\n[showing lines 1-200 of 500; continue with offset=201]")).toEqual({ body: "1\ta", notes: "showing lines 1-200 of 500" });
    expect(shownResult("grep", "a.ts:1:x\n\n[40 more lines not shown; narrow the search (path, glob, type) or raise head_limit]").notes).toBe("40 more lines not shown");
  });

  test("a file whose last line is in brackets is content", () => {
    expect(shownResult("read", "1\t[section]\n\n2\t[other]")).toEqual({ body: "1\t[section]\n\n2\t[other]", notes: "" });
  });
});

describe("a call cut by the output-token limit", () => {
  test("says what happened instead of the kernel's instructions to the model", () => {
    const r = shownResult("write", "Your response reached the output limit (max_tokens) while writing this write call, so its input is incomplete and it was not run. Make the call again with less input: for a large file, write the first part, then add the rest with edit.");
    expect(r.notes).toBe("the answer hit the output-token limit while writing this call, so it was not run; the agent was told to retry with less input");
    expect(shownText(r)).toBe(`[${r.notes}]`);
  });
});

describe("the real tools' words", () => {
  // The texts above are copies; these come from the tools themselves, so a change of wording in
  // src/tools that the display no longer recognises fails here instead of showing the model's notes.
  test("bash and process results, as the tools write them, lose exactly their notes for the model", async () => {
    const h = makeHarness();
    try {
      const ok = await h.call("bash", { command: "echo hello; cd /" });
      expect(shownResult("bash", ok.text)).toEqual({ body: "hello", notes: "" });
      const failed = await h.call("bash", { command: "echo boom; exit 2" });
      expect(shownText(shownResult("bash", failed.text))).toBe("boom\n\n[exit code 2]");
      const started = await h.call("process", { action: "start", name: "ticker", command: "echo tick; sleep 30" });
      expect(shownText(shownResult("process", started.text))).not.toContain("action=");
      const read = await h.call("process", { action: "read", id: "ticker", wait_for: "tick", timeout_ms: 10_000 });
      expect(shownResult("process", read.text)).toEqual({ body: "tick", notes: "" });
    } finally {
      await h.cleanup();
    }
  });

  test("the display data the tools give says what the old logs' text was read back into", async () => {
    const h = makeHarness();
    try {
      await Bun.write(`${h.dir}/many.txt`, Array.from({ length: 30 }, (_, i) => `row ${i}`).join("\n"));
      const results = [
        ["bash", await h.call("bash", { command: "echo hello; cd .." })],
        ["bash", await h.call("bash", { command: `cd ${h.dir}` })],
        ["bash", await h.call("bash", { command: "echo boom; exit 2" })],
        ["bash", await h.call("bash", { command: "sleep 5", timeout: 50 })],
        ["process", await h.call("process", { action: "list" })],
        ["process", await h.call("process", { action: "start", name: "ticker", command: "echo tick; sleep 30" })],
        ["process", await h.call("process", { action: "read", id: "ticker", wait_for: "tick", timeout: 10_000 })],
        ["process", await h.call("process", { action: "read", id: "ticker", wait_for: "never", timeout: 50 })],
        ["read", await h.call("read", { file_path: "many.txt", limit: 5 })],
        ["grep", await h.call("grep", { pattern: "row", path: "many.txt", output_mode: "content", head_limit: 3 })],
        ["grep", await h.call("grep", { pattern: "row", output_mode: "count" })],
      ] as const;
      for (const [tool, r] of results) {
        expect(r.display?.body).toBeNumber();
        expect(shownResult(tool, r.text, r.display)).toEqual(shownResult(tool, r.text));
      }
      expect(shownResult("bash", results[3][1].text, results[3][1].display).notes).toBe("timed out: the command and everything it started were killed");
      // Newer than the old logs' wording: only the display data knows where the advice starts.
      const typed = await h.call("process", { action: "write", id: "ticker", input: "x\n" });
      expect(shownResult("process", typed.text, typed.display)).toEqual({ body: "Typed 2 characters into ticker's terminal.", notes: "" });
    } finally {
      await h.cleanup();
    }
  });
});
