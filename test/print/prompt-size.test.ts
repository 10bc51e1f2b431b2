// A task too big to send is refused before anything goes out, with the numbers: a 100 MB stdin
// (file or pipe) is not read past 32 MB and not turned into a 110 MB request; a prompt over the
// model's window says so. The real CLI; the fake API must get no request.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cliCommand, isolatedEnv, parseNdjson, runCli, tempProject } from "../support/cli.ts";
import { startFakeApi } from "../support/fake-api.ts";

async function withApi(fn: (url: string, requests: () => number) => Promise<void>) {
  const api = await startFakeApi({ scenario: { turns: [{ content: [{ type: "text", text: "never" }] }] } });
  try {
    await fn(api.url, () => api.requests.filter((r) => r.path.startsWith("/v1/messages")).length);
  } finally {
    await api.close();
  }
}

describe("a task too big to send", () => {
  test("100 MB on stdin from a file: refused, nothing sent", async () => {
    await withApi(async (url, requests) => {
      const file = join(mkdtempSync(join(tmpdir(), "khaelor-big-")), "input.txt");
      writeFileSync(file, Buffer.alloc(100 * 1024 * 1024, "a"));
      const proc = Bun.spawn(cliCommand(["-p", "summarize"]), { cwd: tempProject(), env: isolatedEnv(url), stdin: Bun.file(file), stdout: "pipe", stderr: "pipe" });
      const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
      expect(code).toBe(2);
      expect(stderr).toContain("the input on stdin is over 32 MB");
      expect(stderr).toContain("nothing was sent");
      expect(requests()).toBe(0);
    });
  });

  test("40 MB through a pipe: refused, nothing sent", async () => {
    await withApi(async (url, requests) => {
      const proc = Bun.spawn(cliCommand(["-p"]), { cwd: tempProject(), env: isolatedEnv(url), stdin: "pipe", stdout: "pipe", stderr: "pipe" });
      const chunk = Buffer.alloc(1024 * 1024, "b");
      const writing = (async () => {
        try {
          for (let i = 0; i < 40; i++) await proc.stdin.write(chunk);
          await proc.stdin.end();
        } catch {
          // KHAELOR stopped reading at 32 MB: the pipe closed under us.
        }
      })();
      const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
      await writing;
      expect(code).toBe(2);
      expect(stderr).toContain("the input on stdin is over 32 MB");
      expect(requests()).toBe(0);
    });
  });

  test.each([
    ["claude-opus-4-8", 1_000_000, "200,000"],
    ["claude-sonnet-5-5", 5_000_000, "1,000,000"],
  ])("a prompt over %s's window: refused with the numbers and an error result", async (model, chars, window) => {
    await withApi(async (url, requests) => {
      const r = await runCli(["-p", "--model", model, "--output-format", "stream-json"], { cwd: tempProject(), env: isolatedEnv(url), stdin: "x ".repeat(chars / 2) });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`the task is [\\d.]+ [KM]B \\(about [\\d,]+ tokens\\), more than ${model} takes \\(${window} tokens\\); nothing was sent`));
      expect(parseNdjson(r.stdout).at(-1)).toMatchObject({ type: "result", is_error: true });
      expect(requests()).toBe(0);
    });
  });
});
