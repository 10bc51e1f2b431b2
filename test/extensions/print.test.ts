// Custom slash commands and skills in print mode: the real CLI, the fake Messages API, the request it saw.
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fakeApiFixture } from "../support/fake-api.ts";
import { isolatedEnv, runCli, tempProject } from "../support/cli.ts";
import { buildSystemPrompt } from "../../src/context/system-prompt.ts";

const serve = fakeApiFixture();

function put(dir: string, rel: string, text: string) {
  mkdirSync(join(dir, rel, ".."), { recursive: true });
  writeFileSync(join(dir, rel), text);
}

type Body = { system: Array<{ text: string }>; messages: Array<{ role: string; content: unknown }>; model: string };
const bodies = (server: { requests: Array<{ outcome: string; body: unknown }> }) => server.requests.filter((q) => q.outcome === "served").map((q) => q.body as Body);

describe("custom slash commands", () => {
  test("a .claude/commands file with $ARGUMENTS, $1, @path and !`cmd` runs in -p, with its model and allowed-tools for that turn", async () => {
    const server = await serve({
      turns: [
        { content: [{ type: "tool_use", name: "bash", input: { command: "python3 hello.py" } }] },
        { content: [{ type: "text", text: "Reviewed." }], expect: { lastHasToolResult: { isError: false, contentMatches: "allowed-by-command" } } },
      ],
    });
    const dir = tempProject();
    put(dir, "src/x.ts", "export const answer = 42;\n");
    put(dir, "hello.py", 'print("allowed-by-command")\n');
    put(
      dir,
      ".claude/commands/frontend/review.md",
      `---\ndescription: Review a file\nargument-hint: <file> [focus]\nmodel: claude-haiku-4-5\nallowed-tools: Bash(echo:*), Bash(python3:*), Read\n---\nReview @$1 with focus on $2.\nAll arguments: $ARGUMENTS\nBranch marker: !\`echo MARK-\$((40+2))\`\n`,
    );
    const env = isolatedEnv(server.url);
    const r = await runCli(["-p", "/frontend:review src/x.ts naming", "--trust-project"], { cwd: dir, env });
    expect(server.checkFailures).toEqual([]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Reviewed.");
    const [first] = bodies(server);
    const sent = JSON.stringify(first!.messages[0]!.content);
    expect(sent).toContain("Review @src/x.ts");
    expect(sent).toContain("export const answer = 42;");
    expect(sent).toContain("with focus on naming.");
    expect(sent).toContain("All arguments: src/x.ts naming");
    expect(sent).toContain("MARK-42");
    expect(first!.model).toBe("claude-haiku-4-5");
    // Granted for that turn (the check above): in default mode with nobody to ask, the bash call ran.
  });

  test("a command whose name starts with compact (/compact-notes) runs as the command, in a new session: only /compact itself is the built-in", async () => {
    const server = await serve({ turns: [{ content: [{ type: "text", text: "Noted." }] }] });
    const dir = tempProject();
    put(dir, ".khaelor/commands/compact-notes.md", "Write compact notes about $ARGUMENTS\n");
    const r = await runCli(["-p", "/compact-notes the parser"], { cwd: dir, env: isolatedEnv(server.url) });
    expect(r.stderr).not.toContain("existing session");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Noted.");
    expect(JSON.stringify(bodies(server)[0]!.messages[0]!.content)).toContain("Write compact notes about the parser");
  });

  test("!`cmd` goes through the permission rules: a denied command is not run and the prompt says so", async () => {
    const server = await serve({ turns: [{ content: [{ type: "text", text: "ok" }] }] });
    const dir = tempProject();
    put(dir, ".khaelor/commands/leak.md", "Context: !`touch ran.txt`\n");
    const r = await runCli(["-p", "/leak"], { cwd: dir, env: isolatedEnv(server.url) });
    expect(r.code).toBe(0);
    expect(Bun.file(join(dir, "ran.txt")).size).toBe(0);
    expect(JSON.stringify(bodies(server)[0]!.messages[0]!.content)).toContain("did not run");
  });

  test.each([
    ["a user command", false],
    ["a project command in a trusted project (--trust-project)", true],
  ])("%s: its allowed-tools let its !`cmd` lines run", async (_what, inProject) => {
    const server = await serve({
      turns: [
        { content: [{ type: "text", text: "ok" }], expect: { lastTextMatches: "made: yes" } },
      ],
    });
    const dir = tempProject();
    const env = isolatedEnv(server.url);
    const file = "---\nallowed-tools: Bash(touch:*)\n---\nmade: !`touch made.txt && echo yes`\n";
    if (inProject) put(dir, ".claude/commands/mk.md", file);
    else put(env.HOME!, ".claude/commands/mk.md", file);
    const r = await runCli(["-p", "/mk", ...(inProject ? ["--trust-project"] : [])], { cwd: dir, env });
    expect(server.checkFailures).toEqual([]);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain("not granting");
    expect(await Bun.file(join(dir, "made.txt")).exists()).toBe(true);
  });

  test("a command file named like print mode's built-in /compact is not used, and the user is told which wins", async () => {
    const server = await serve({ turns: [{ content: [{ type: "text", text: "hello" }] }, { content: [{ type: "text", text: "A summary." }] }] });
    const dir = tempProject();
    put(dir, ".claude/commands/compact.md", "never sent\n");
    const env = isolatedEnv(server.url);
    expect((await runCli(["-p", "hi"], { cwd: dir, env })).code).toBe(0);
    const r = await runCli(["-p", "/compact", "--continue"], { cwd: dir, env });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/\/compact in .*compact\.md is not used: the built-in \/compact wins/);
    expect(JSON.stringify(bodies(server))).not.toContain("never sent");
  });

  test("broken frontmatter is reported once with the file; the command still runs", async () => {
    const server = await serve({ turns: [{ content: [{ type: "text", text: "ok" }] }] });
    const dir = tempProject();
    put(dir, ".claude/commands/bad.md", "---\ndescription: never closed\nDo the thing $ARGUMENTS\n");
    const r = await runCli(["-p", "/bad now"], { cwd: dir, env: isolatedEnv(server.url) });
    expect(r.stderr.split("\n").filter((l) => l.includes("bad.md")).length).toBe(1);
    expect(r.stderr).toContain("never closed");
    expect(JSON.stringify(bodies(server)[0]!.messages[0]!.content)).toContain("Do the thing now");
  });
});

describe("skills", () => {
  test("the model sees each skill's name, description and path in the dynamic system block, never its body; the static block is unchanged", async () => {
    const server = await serve({
      turns: [
        { content: [{ type: "tool_use", name: "read", input: { file_path: ".claude/skills/pdf-forms/SKILL.md" } }] },
        { content: [{ type: "text", text: "Read it." }], expect: { lastHasToolResult: { isError: false, contentMatches: "SECRET-BODY-STEP" } } },
      ],
    });
    const dir = tempProject();
    put(dir, ".claude/skills/pdf-forms/SKILL.md", "---\nname: pdf-forms\ndescription: Fill in PDF forms with pdftk\n---\n1. SECRET-BODY-STEP run pdftk\n");
    put(dir, ".agents/skills/dupe/SKILL.md", "---\nname: pdf-forms\ndescription: another\n---\nbody\n");
    const r = await runCli(["-p", "fill the form"], { cwd: dir, env: isolatedEnv(server.url) });
    expect(server.checkFailures).toEqual([]);
    expect(r.stderr.split("\n").filter((l) => l.includes("two skills are named pdf-forms")).length).toBe(1);
    const [first] = bodies(server);
    const dynamic = first!.system[1]!.text;
    expect(dynamic).toContain("- pdf-forms: Fill in PDF forms with pdftk (");
    expect(dynamic).toContain(join(".claude", "skills", "pdf-forms", "SKILL.md"));
    expect(JSON.stringify(first)).not.toContain("SECRET-BODY-STEP");
    // The cached prefix is the same bytes with or without skills.
    const base = { cwd: dir, date: new Date(), gitStatus: null, instructions: [], toolNames: ["read", "bash"] };
    expect(buildSystemPrompt({ ...base, extra: ["# Skills\n- x: y"] })[0]).toEqual(buildSystemPrompt(base)[0]!);
  });

  test("a skill runs as /skill-name: the model is told to read it", async () => {
    const server = await serve({ turns: [{ content: [{ type: "text", text: "ok" }] }] });
    const dir = tempProject();
    put(dir, ".khaelor/skills/release/SKILL.md", "---\nname: release\ndescription: Cut a release\n---\nBODY\n");
    await runCli(["-p", "/release 1.2.0"], { cwd: dir, env: isolatedEnv(server.url) });
    const sent = JSON.stringify(bodies(server)[0]!.messages[0]!.content);
    expect(sent).toContain('Use the skill \\"release\\"');
    expect(sent).toContain("1.2.0");
    expect(sent).not.toContain("BODY");
  });
});

describe("a custom command sent with an image", () => {
  test("stream-json: the command is found in the text and expanded; its image goes with the prompt", async () => {
    const server = await serve({ turns: [{ content: [{ type: "text", text: "Described." }] }] });
    const dir = tempProject();
    put(dir, ".claude/commands/describe.md", "---\ndescription: Describe an image\n---\nDescribe the attached image, focusing on: $ARGUMENTS\n");
    const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
    const user = {
      type: "user",
      message: { role: "user", content: [{ type: "image", source: { type: "base64", media_type: "image/png", data: png } }, { type: "text", text: "/describe the colours" }] },
    };
    const r = await runCli(["-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose"], { cwd: dir, env: isolatedEnv(server.url), stdin: `${JSON.stringify(user)}\n` });
    expect(server.checkFailures).toEqual([]);
    expect(r.code).toBe(0);
    const content = bodies(server)[0]!.messages[0]!.content as Array<{ type: string; text?: string; source?: { data: string } }>;
    expect(content.filter((b) => b.type === "image").map((b) => b.source?.data)).toEqual([png]);
    const text = content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n");
    expect(text).toContain("Describe the attached image, focusing on: the colours");
    expect(text).not.toContain("/describe");
  });
});
