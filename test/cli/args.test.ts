// The command line as data: every flag the parser knows, its value forms (`--flag value`,
// `--flag=value`, several values after one flag), and the usage errors, each naming the flag.
import { describe, expect, test } from "bun:test";
import { parseArgs, UsageError } from "../../src/cli/args.ts";

const usage = (argv: string[]) => {
  try {
    parseArgs(argv);
  } catch (e) {
    if (e instanceof UsageError) return e.message;
    throw e;
  }
  throw new Error(`no usage error for ${argv.join(" ")}`);
};

describe("parseArgs", () => {
  test("update and doctor take the words after them as their own", () => {
    expect(parseArgs(["update", "--check"])).toMatchObject({ command: "update", commandArgs: ["--check"] });
    expect(parseArgs(["doctor"])).toMatchObject({ command: "doctor", commandArgs: [] });
    expect(parseArgs(["export", "abc", "--format", "html", "-o", "x.html"])).toMatchObject({ command: "export", commandArgs: ["abc", "--format", "html", "-o", "x.html"] });
  });

  test("sessions --search [--all-projects]; both only with sessions", () => {
    expect(parseArgs(["sessions", "--search", "flaky test", "--all-projects", "--json"])).toMatchObject({ command: "sessions", search: "flaky test", allProjects: true, json: true });
    expect(parseArgs(["sessions", "--search=x"])).toMatchObject({ command: "sessions", search: "x", allProjects: false });
    expect(usage(["--search", "x"])).toContain("go with 'khaelor sessions'");
    expect(usage(["sessions", "--all-projects"])).toContain("--all-projects goes with --search");
    expect(usage(["sessions", "--search"])).toContain("--search needs a value");
  });

  test("no arguments: the interactive run with every default", () => {
    expect(parseArgs([])).toEqual({
      command: "run", mcpArgs: [], commandArgs: [], mcpConfig: [], strictMcpConfig: false, trustProject: false, print: false, prompt: null,
      outputFormat: "text", inputFormat: "text", permissionPromptTool: null, allowBypass: false, sessionId: null, systemPrompt: null,
      appendSystemPrompt: null, agents: [], agent: null, tools: null, thinkingBudget: null, effort: null, addDirs: [], jsonSchema: null, fallbackModel: null, pluginDirs: [], unhonoured: [], includePartialMessages: false, replayUserMessages: false, model: null,
      maxTurns: null, maxBudgetUsd: null, maxTimeS: null, permissionMode: null, allowedTools: [], disallowedTools: [], cwd: null,
      verbose: false, continue: false, resume: null, forkSession: false, resumeSessionAt: null, demo: false, verifyNudge: true, doomLoop: true, json: false,
      search: null, allProjects: false,
    });
  });

  test("every flag sets its field", () => {
    const o = parseArgs([
      "-p", "--output-format", "stream-json", "--include-partial-messages", "--permission-prompt-tool", "stdio",
      "--session-id", "0F8FAD5B-D9CB-469F-A165-70867728950E", "--system-prompt", "be brief", "--append-system-prompt", "and kind",
      "--max-thinking-tokens", "2048", "--tools", "read,grep bash", "--model", "claude-x", "--max-turns", "3", "--max-budget-usd", "0.5",
      "--max-time", "1.5", "--permission-mode", "acceptEdits", "--allowedTools", "Read", "Bash(git:*)", "--disallowed-tools", "Write",
      "--cwd", "/tmp/x", "--mcp-config", "a.json", "b.json", '{"mcpServers":{}}', "--strict-mcp-config", "--trust-project", "--verbose",
      "-c", "--fork-session", "--demo", "--no-verify-nudge", "--no-doom-loop", "--json", "--allow-dangerously-skip-permissions",
      "--effort", "max", "--json-schema", '{"type":"object"}', "--fallback-model", "claude-y", "fix", "it",
    ]);
    expect(o).toMatchObject({
      print: true, outputFormat: "stream-json", includePartialMessages: true, permissionPromptTool: "stdio",
      sessionId: "0f8fad5b-d9cb-469f-a165-70867728950e", systemPrompt: "be brief", appendSystemPrompt: "and kind", thinkingBudget: 2048,
      tools: ["read", "grep", "bash"], model: "claude-x", maxTurns: 3, maxBudgetUsd: 0.5, maxTimeS: 1.5, permissionMode: "acceptEdits",
      allowedTools: ["Read", "Bash(git:*)"], disallowedTools: ["Write"], cwd: "/tmp/x", mcpConfig: ["a.json", "b.json", '{"mcpServers":{}}'],
      strictMcpConfig: true, trustProject: true, verbose: true, continue: true, forkSession: true, demo: true, verifyNudge: false,
      doomLoop: false, json: true, allowBypass: true, prompt: "fix it", unhonoured: [],
      effort: "max", jsonSchema: { type: "object" }, fallbackModel: "claude-y",
    });
    expect(parseArgs(["--print", "--allowed-tools", "grep", "--disallowedTools", "mcp__srv__x", "q"])).toMatchObject({ print: true, allowedTools: ["grep"], disallowedTools: ["mcp__srv__x"], prompt: "q" });
    expect(parseArgs(["--dangerously-skip-permissions"])).toMatchObject({ permissionMode: "bypassPermissions", allowBypass: true });
    expect(parseArgs(["--input-format", "stream-json", "--output-format", "stream-json"])).toMatchObject({ inputFormat: "stream-json" });
    expect(parseArgs(["-v"]).command).toBe("version");
    expect(parseArgs(["--version"]).command).toBe("version");
    expect(parseArgs(["-h"]).command).toBe("help");
    expect(parseArgs(["--help"]).command).toBe("help");
  });

  test("thinking: --thinking enabled uses the default budget unless one was given; disabled and 0 turn it off", () => {
    expect(parseArgs(["--thinking", "enabled"]).thinkingBudget).toBe(16_000);
    expect(parseArgs(["--max-thinking-tokens", "500", "--thinking", "adaptive"]).thinkingBudget).toBe(500);
    expect(parseArgs(["--max-thinking-tokens", "500", "--thinking", "disabled"]).thinkingBudget).toBeNull();
    expect(parseArgs(["--max-thinking-tokens", "0"]).thinkingBudget).toBeNull();
    expect(parseArgs(["--tools", "default"]).tools).toBeNull();
    expect(parseArgs(["--tools", ""]).tools).toEqual([]);
  });

  test("--flag=value takes the value as it is, even one starting with '-'; a flag without = refuses a flag-like value but takes a negative number's form", () => {
    expect(parseArgs(["--system-prompt=-be terse", "-p"])).toMatchObject({ systemPrompt: "-be terse", print: true });
    expect(parseArgs(["--model=a=b"]).model).toBe("a=b");
    expect(usage(["--system-prompt", "-p"])).toBe("--system-prompt needs a value");
    expect(usage(["--model"])).toBe("--model needs a value");
    expect(usage(["--max-turns", "-3"])).toBe('--max-turns expects a positive whole number, got "-3"');
    expect(parseArgs(["--print=yes"])).toMatchObject({ print: true, prompt: "yes" });
  });

  test("lists stop at a word that is not a rule; --mcp-config takes following .json files and JSON; -- ends the flags", () => {
    expect(parseArgs(["--allowedTools", "Read", "Summarize", "this"])).toMatchObject({ allowedTools: ["Read"], prompt: "Summarize this" });
    expect(parseArgs(["--allowedTools=Read", "Bash"])).toMatchObject({ allowedTools: ["Read", "Bash"], prompt: null });
    expect(parseArgs(["--mcp-config", "x.json", "task"])).toMatchObject({ mcpConfig: ["x.json"], prompt: "task" });
    expect(parseArgs(["--mcp-config", "x.json", "--mcp-config", "y.json"]).mcpConfig).toEqual(["x.json", "y.json"]);
    expect(parseArgs(["-p", "--", "--not-a-flag", "-x"])).toMatchObject({ print: true, prompt: "--not-a-flag -x" });
    expect(parseArgs(["-"]).prompt).toBe("-");
  });

  test("--resume takes an id-like word as its id; otherwise it resumes without one", () => {
    expect(parseArgs(["--resume", "abc123"]).resume).toBe("abc123");
    expect(parseArgs(["-r"]).resume).toBe("");
    expect(parseArgs(["-r", "fix the bug"])).toMatchObject({ resume: "", prompt: "fix the bug" });
    expect(parseArgs(["--resume", "--model", "m"])).toMatchObject({ resume: "", model: "m" });
  });

  test("commands: mcp keeps its own words; sessions and acp alone are commands, with more words a prompt", () => {
    expect(parseArgs(["mcp", "add", "-s", "user", "x"])).toMatchObject({ command: "mcp", mcpArgs: ["add", "-s", "user", "x"] });
    expect(parseArgs(["sessions", "--json"])).toMatchObject({ command: "sessions", json: true, prompt: null });
    expect(parseArgs(["acp"]).command).toBe("acp");
    expect(parseArgs(["acp", "please"])).toMatchObject({ command: "run", prompt: "acp please" });
    expect(parseArgs(["-v", "sessions"])).toMatchObject({ command: "version", prompt: "sessions" });
  });

  test("--plugin-dir takes a folder each time it is given; --await-initialize is taken silently", () => {
    const o = parseArgs(["--plugin-dir", "p", "--plugin-dir", "q", "--await-initialize", "go"]);
    expect(o).toMatchObject({ pluginDirs: ["p", "q"], unhonoured: [], prompt: "go" });
    expect(usage(["--plugin-dir"])).toBe("--plugin-dir needs a value");
  });

  test("--add-dir takes existing directories, repeated, as absolute paths; a missing one is a usage error", () => {
    expect(parseArgs(["--add-dir", "/", "--add-dir", "/tmp", "go"]).addDirs).toEqual(["/", "/tmp"]);
    expect(usage(["--add-dir", "/nonexistent/khaelor"])).toBe("--add-dir /nonexistent/khaelor: no such directory");
  });

  test("Claude Code's flags KHAELOR cannot honour are usage errors naming the flag and what to do instead", () => {
    expect(usage(["--betas", "x"])).toStartWith("--betas is not supported by KHAELOR: ");
    expect(usage(["--debug", "go"])).toBe("--debug is not supported by KHAELOR: there is no debug log; --verbose puts diagnostics on stderr");
    expect(usage(["--setting-sources=user"])).toStartWith("--setting-sources is not supported by KHAELOR: ");
    expect(usage(["--permission-mode", "auto"])).toStartWith("--permission-mode auto is not supported by KHAELOR: ");
    expect(usage(["--effort", "extreme"])).toBe('--effort must be one of low, medium, high, xhigh, max, got "extreme"');
    expect(usage(["--json-schema", "{nope"])).toStartWith("--json-schema must be a JSON Schema as JSON text: ");
    expect(usage(["--json-schema", "[1]"])).toStartWith("--json-schema must be a JSON Schema object");
  });

  test("bad values and bad combinations are usage errors naming the flag", () => {
    expect(usage(["--frobnicate"])).toBe("unknown option --frobnicate (see khaelor --help)");
    expect(usage(["--output-format", "xml"])).toBe('--output-format must be one of text, json, stream-json, got "xml"');
    expect(usage(["--input-format", "json"])).toBe('--input-format must be text or stream-json, got "json"');
    expect(usage(["--session-id", "nope"])).toBe('--session-id must be a UUID, got "nope"');
    expect(usage(["--max-thinking-tokens", "1.5"])).toBe('--max-thinking-tokens expects a whole number, got "1.5"');
    expect(usage(["--thinking", "lots"])).toBe('--thinking must be adaptive, enabled or disabled, got "lots"');
    expect(usage(["--max-budget-usd", "0"])).toBe('--max-budget-usd expects a positive number, got "0"');
    expect(usage(["--max-time", "soon"])).toBe('--max-time expects a positive number, got "soon"');
    expect(usage(["--max-turns", "2.5"])).toBe('--max-turns expects a positive whole number, got "2.5"');
    expect(usage(["--permission-mode", "yolo"])).toBe('--permission-mode must be one of default, acceptEdits, plan, bypassPermissions, dontAsk, got "yolo"');
    expect(usage(["--fork-session"])).toBe("--fork-session needs --continue or --resume");
    expect(usage(["-c", "-r", "abc"])).toBe("use either --continue or --resume, not both");
    expect(usage(["--input-format", "stream-json"])).toBe("--input-format stream-json needs --output-format stream-json");
    expect(usage(["--input-format", "stream-json", "--output-format", "stream-json", "hi"])).toBe("with --input-format stream-json the messages come on stdin, not as an argument");
  });
});

test("a prompt word that names a property of every object (constructor, toString) is a prompt word, not a compatibility flag", () => {
  expect(parseArgs(["-p", "constructor"]).prompt).toBe("constructor");
  expect(parseArgs(["explain", "toString", "here"])).toMatchObject({ prompt: "explain toString here", unhonoured: [] });
  expect(usage(["--__proto__"])).toBe("unknown option --__proto__ (see khaelor --help)");
});
