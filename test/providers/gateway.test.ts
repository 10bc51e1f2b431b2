// A gateway in front of Anthropic's API: the user's apiKeyHelper (run at start, again when the key
// is refused), ANTHROPIC_CUSTOM_HEADERS, and what a project's files may not do.
import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fakeApiFixture } from "../support/fake-api.ts";
import { isolatedEnv, runCli, tempProject } from "../support/cli.ts";

const serve = fakeApiFixture();
const say = (text: string) => ({ content: [{ type: "text" as const, text }] });

function userSettings(env: Record<string, string>, settings: object) {
  mkdirSync(join(env.XDG_CONFIG_HOME!, "khaelor"), { recursive: true });
  writeFileSync(join(env.XDG_CONFIG_HOME!, "khaelor", "settings.json"), JSON.stringify(settings));
}

/** A helper script: prints the keys in `keys` one per run (the last one again after), and a secret on stderr. */
function helperScript(dir: string, keys: string[], exitCode = 0): string {
  const file = join(dir, "get-key.sh");
  const count = join(dir, "runs");
  writeFileSync(count, "");
  writeFileSync(
    file,
    `#!/bin/sh\necho run >> ${count}\nn=$(wc -l < ${count})\necho "helper-stderr-SECRET-${"x"}" >&2\n${keys.map((k, i) => `[ "$n" -le ${i + 1} ] && { echo ${k}; exit ${exitCode}; }`).join("\n")}\necho ${keys.at(-1) ?? ""}\nexit ${exitCode}\n`,
  );
  chmodSync(file, 0o755);
  return file;
}

function logText(env: Record<string, string>): string {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(readFileSync(p, "utf8"));
    }
  };
  walk(env.KHAELOR_HOME!);
  return out.join("\n");
}

describe("apiKeyHelper and custom headers", () => {
  test("the helper's key reaches the gateway with the custom headers; a refused key runs the helper again; its stderr is nowhere", async () => {
    const api = await serve({ apiKey: "key-two", turns: [say("through the gateway")] });
    const env = isolatedEnv(api.url, { ANTHROPIC_CUSTOM_HEADERS: "X-Gateway-Team: platform\nX-Trace: on" });
    delete env.ANTHROPIC_API_KEY;
    const bin = tempProject("khaelor-helper-");
    const helper = helperScript(bin, ["key-one", "key-two"]);
    userSettings(env, { apiKeyHelper: `${helper} --profile secret-arg` });
    const r = await runCli(["-p", "hi"], { cwd: tempProject(), env });
    expect(r.stdout).toBe("through the gateway\n");
    expect(r.code).toBe(0);
    // key-one was refused (401), the helper ran again, key-two went through.
    expect(api.requests.map((q) => q.status)).toEqual([401, 200]);
    expect(readFileSync(join(bin, "runs"), "utf8").trim().split("\n")).toHaveLength(2);
    const served = api.requests[1]!;
    expect(served.headers["x-gateway-team"]).toBe("platform");
    expect(served.headers["x-trace"]).toBe("on");
    expect(served.headers.authorization).toBe(`<redacted ${"Bearer key-two".length} chars>`);
    // The start says a helper is in force, by its program only.
    expect(r.stderr).toContain("credentials: apiKeyHelper in your settings (runs get-key.sh)");
    expect(r.stderr).toContain("headers X-Gateway-Team, X-Trace");
    expect(r.stderr).not.toContain("secret-arg");
    for (const text of [r.stdout, r.stderr, logText(env)]) expect(text).not.toContain("helper-stderr-SECRET");
  });

  test("a helper that fails, or prints nothing, stops the run before any request: one line, exit 2", async () => {
    const api = await serve({ turns: [say("never")] });
    for (const [keys, code, says] of [
      [["k"], 3, "apiKeyHelper (get-key.sh) exited with code 3"],
      [[""], 0, "apiKeyHelper (get-key.sh) printed nothing"],
    ] as const) {
      const env = isolatedEnv(api.url);
      delete env.ANTHROPIC_API_KEY;
      userSettings(env, { apiKeyHelper: helperScript(tempProject("khaelor-helper-"), [...keys], code) });
      const r = await runCli(["-p", "hi"], { cwd: tempProject(), env });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(says);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).not.toContain("helper-stderr-SECRET");
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    expect(api.requests).toHaveLength(0);
  });

  test("a project's apiKeyHelper is never run", async () => {
    const api = await serve({ turns: [say("never")] });
    const dir = tempProject();
    const bin = tempProject("khaelor-helper-");
    const helper = helperScript(bin, ["repo-key"]);
    mkdirSync(join(dir, ".khaelor"), { recursive: true });
    writeFileSync(join(dir, ".khaelor", "settings.json"), JSON.stringify({ apiKeyHelper: helper }));
    const env = isolatedEnv(api.url);
    delete env.ANTHROPIC_API_KEY;
    const r = await runCli(["-p", "hi"], { cwd: dir, env });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("apiKeyHelper is ignored");
    expect(readFileSync(join(bin, "runs"), "utf8")).toBe("");
    expect(api.requests).toHaveLength(0);
  });

  test("a custom header line that is not a header stops the run: exit 2, naming the line, not the value", async () => {
    const api = await serve({ turns: [say("never")] });
    const r = await runCli(["-p", "hi"], { cwd: tempProject(), env: isolatedEnv(api.url, { ANTHROPIC_CUSTOM_HEADERS: "X-Ok: 1\nBearer sk-secret-value" }) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("ANTHROPIC_CUSTOM_HEADERS line 2 is not a header");
    expect(r.stderr).not.toContain("sk-secret-value");
    expect(api.requests).toHaveLength(0);
  });
});
