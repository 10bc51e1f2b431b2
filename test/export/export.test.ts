// /export and `khaelor export`: a real log written by the session store, exported as Markdown, HTML
// and JSON, and each output opened and checked (the HTML parsed with Bun's HTMLRewriter).
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { exportSession } from "../../src/export/export-session.ts";
import { fenceFor } from "../../src/export/markdown.ts";
import { assistant, rewind, text, toolResult, toolUse, turnEnd, user } from "../session/make-events.ts";
import { scratch } from "../support/scratch.ts";
import { runCli } from "../support/cli.ts";
import { dataHome, writeSession } from "./support.ts";

// A 1×1 PNG.
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
const SECRET = "zq8Lkj44ValueOfTheToken";
const TRICKY = "a fence ``` and ```` inside";

function conversation() {
  return [
    user([{ type: "text", text: `Why does the parser fail? Token is ${SECRET}.` }, { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } }]),
    assistant([
      { type: "thinking", thinking: "Read the parser first.", signature: "c2ln" },
      text("Let me look. See https://example.com/docs and [the guide](https://example.org/guide)."),
      toolUse("tu1", "bash", { command: "cat src/parse.ts" }),
    ]),
    toolResult("tu1", `export const x = 1;\n${TRICKY}\n<script>alert(1)</script>`, { summary: "bash: cat src/parse.ts" }),
    assistant([text("The fix:\n\n```ts\nconst y = `two`;\n```\n\nDone.")]),
  ];
}

type Tag = { name: string; attrs: Record<string, string> };

/** Every element of the page with its attributes, and the text of its <style> blocks. */
async function parseHtml(html: string): Promise<{ tags: Tag[]; styles: string }> {
  const tags: Tag[] = [];
  let styles = "";
  const rw = new HTMLRewriter()
    .on("*", {
      element(el) {
        tags.push({ name: el.tagName, attrs: Object.fromEntries([...el.attributes]) });
      },
    })
    .on("style", {
      text(t) {
        styles += t.text;
      },
    });
  await rw.transform(new Response(html)).text();
  return { tags, styles };
}

describe("export", () => {
  test("a fence is longer than any run of backticks inside it", () => {
    expect(fenceFor("plain")).toBe("```");
    expect(fenceFor(TRICKY)).toBe("`````");
  });

  test("Markdown: turns, thinking and tool results folded, output fenced, image referenced, secrets redacted", () => {
    const cwd = scratch("khaelor-proj-");
    const { env } = dataHome();
    const { path } = writeSession(cwd, env, conversation());
    const md = exportSession(path, "md", { ACME_SERVICE_TOKEN: SECRET }).text;
    expect(md).toContain("# Why does the parser fail?");
    expect(md.match(/^## You$/gm)?.length).toBe(1);
    expect(md.match(/^## Assistant$/gm)?.length).toBe(1);
    expect(md).toContain("<details>\n<summary>Thinking</summary>");
    expect(md).toContain("<summary>▸ bash: cat src/parse.ts</summary>");
    // The tool's output is in a fence no backtick run inside it can close, and its markup is inert there.
    expect(md).toContain(`\`\`\`\`\`\nexport const x = 1;\n${TRICKY}\n<script>alert(1)</script>\n\`\`\`\`\``);
    // The image is referenced by its stored copy beside the log, which exists.
    const img = /!\[image, image\/png, \d+ bytes\]\(<([^>]+)>\)/.exec(md);
    expect(img).not.toBeNull();
    expect(existsSync(img![1]!)).toBe(true);
    expect(md).not.toContain(SECRET);
    expect(md).toContain("[REDACTED]");
    // The answer's own code block is kept as written.
    expect(md).toContain("```ts\nconst y = `two`;\n```");
  });

  test("HTML: one self-contained page that loads nothing, links kept as anchors, the structure there", async () => {
    const cwd = scratch("khaelor-proj-");
    const { env } = dataHome();
    const { path } = writeSession(cwd, env, conversation());
    const html = exportSession(path, "html", { ACME_SERVICE_TOKEN: SECRET }).text;
    const { tags, styles } = await parseHtml(html);
    const names = tags.map((t) => t.name);
    for (const banned of ["script", "link", "iframe", "object", "embed", "base", "frame", "audio", "video", "source"]) expect(names).not.toContain(banned);
    // Nothing the page fetches by itself: every src is a data: URI, href only on anchors, no url() in styles or attributes.
    for (const t of tags) {
      if (t.attrs.src !== undefined) expect(t.attrs.src.startsWith("data:image/png;base64,")).toBe(true);
      if (t.attrs.href !== undefined) expect(t.name).toBe("a");
      for (const v of Object.values(t.attrs)) expect(v).not.toMatch(/url\(/i);
      if (t.attrs.style !== undefined) throw new Error("inline style attribute found");
    }
    expect(styles).not.toMatch(/url\(|@import|https?:/i);
    const csp = tags.find((t) => t.name === "meta" && t.attrs["http-equiv"] === "Content-Security-Policy");
    expect(csp?.attrs.content).toContain("default-src 'none'");
    // Links in the conversation stay links.
    const hrefs = tags.filter((t) => t.name === "a").map((t) => t.attrs.href);
    expect(hrefs).toEqual(["https://example.com/docs", "https://example.org/guide"]);
    // Structure: a section per turn, the thinking and the tool call folded, the image inline.
    expect(tags.filter((t) => t.name === "section").map((t) => t.attrs.class)).toEqual(["turn user", "turn assistant"]);
    expect(tags.filter((t) => t.name === "details").map((t) => t.attrs.class)).toEqual(["thinking", "tool"]);
    expect(tags.filter((t) => t.name === "img")).toHaveLength(1);
    // The tool's <script> is text, not an element; the secret is gone.
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).not.toContain(SECRET);
  });

  test("HTML: the answer's markdown keeps its structure (headings, lists, tables, quotes, emphasis), everything from it escaped, nothing fetched", async () => {
    const cwd = scratch("khaelor-proj-");
    const { env } = dataHome();
    const answer = [
      "## The plan",
      "",
      "Some *emphasis*, **strong** and ~~gone~~ text, with `code`.",
      "",
      "1. first step",
      "2. second step",
      "   - nested <b>bold?</b>",
      "",
      "- [x] done",
      "- [ ] to do",
      "",
      "| name | size |",
      "|:-----|-----:|",
      "| a.ts | 12 |",
      "",
      "> quoted words",
      "",
      "![tracker](https://evil.example/pixel.png) and [run me](javascript:alert(1)) and [docs](https://example.com/x)",
      "",
      "<img src=https://evil.example/raw.png>",
    ].join("\n");
    const { path } = writeSession(cwd, env, [user("plan it"), assistant([text(answer)])]);
    const html = exportSession(path, "html", {}).text;
    const { tags } = await parseHtml(html);
    const inMain = tags.slice(tags.findIndex((t) => t.name === "main")).map((t) => t.name);
    expect(inMain).toEqual(["main", "section", "h2", "p", "section", "h2", "h4", "p", "em", "strong", "del", "code", "ol", "li", "li", "ul", "li", "ul", "li", "li", "table", "thead", "tr", "th", "th", "tbody", "tr", "td", "td", "blockquote", "p", "p", "a", "a", "pre"]);
    const cells = tags.filter((t) => t.name === "th" || t.name === "td").map((t) => t.attrs.class);
    expect(cells).toEqual(["left", "right", "left", "right"]);
    // The image by URL is a link to it, never an <img>; the javascript: link is text; raw HTML is text.
    expect(tags.filter((t) => t.name === "img")).toEqual([]);
    expect(tags.filter((t) => t.name === "a").map((t) => t.attrs.href)).toEqual(["https://evil.example/pixel.png", "https://example.com/x"]);
    expect(html).toContain("&lt;b&gt;bold?&lt;/b&gt;");
    expect(html).toContain("&lt;img src=https://evil.example/raw.png&gt;");
    expect(html).toContain("☑ done");
    expect(html).toContain("☐ to do");
  });

  test("a command's generated prompt (/review) exports as the command typed", () => {
    const cwd = scratch("khaelor-proj-");
    const { env } = dataHome();
    const { path } = writeSession(cwd, env, [user("Review these changes as a careful senior engineer...", { display: "/review main" }), assistant([text("Fine.")])]);
    const md = exportSession(path, "md", {}).text;
    expect(md).toContain("# /review main");
    expect(md).not.toContain("careful senior engineer");
  });

  test("JSON: the session's events, images as their stored files, secrets redacted", () => {
    const cwd = scratch("khaelor-proj-");
    const { env } = dataHome();
    const { path, id } = writeSession(cwd, env, conversation());
    const out = JSON.parse(exportSession(path, "json", { ACME_SERVICE_TOKEN: SECRET }).text) as { sessionId: string; events: Array<{ type: string; content?: unknown }> };
    expect(out.sessionId).toBe(id);
    expect(out.events.map((e) => e.type)).toEqual(["session_header", "user_message", "assistant_message", "tool_result", "assistant_message"]);
    const raw = JSON.stringify(out);
    expect(raw).not.toContain(SECRET);
    expect(raw).not.toContain(PNG.slice(0, 30));
    expect(raw).toMatch(/"type":"file","media_type":"image\/png","file":"[0-9a-f]{32}\.png"/);
  });
});

describe("khaelor export (the CLI)", () => {
  function project() {
    const cwd = scratch("khaelor-proj-");
    const { home } = dataHome();
    const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: join(home, ".."), KHAELOR_HOME: home, ACME_SERVICE_TOKEN: SECRET };
    const s = writeSession(cwd, { KHAELOR_HOME: home }, conversation());
    return { cwd, env, ...s };
  }

  test("to stdout by id prefix; the latest with no session named; a file with -o, its format from the extension", async () => {
    const p = project();
    const md = await runCli(["export", p.id.slice(0, 8)], { cwd: p.cwd, env: p.env });
    expect(md.code).toBe(0);
    expect(md.stdout).toContain("## Assistant");
    expect(md.stdout).not.toContain(SECRET);
    const latest = await runCli(["export", "--format", "json"], { cwd: p.cwd, env: p.env });
    expect(JSON.parse(latest.stdout).sessionId).toBe(p.id);
    const file = join(p.cwd, "out", "chat.html");
    const html = await runCli(["export", p.id, "-o", "out/chat.html"], { cwd: p.cwd, env: p.env });
    expect(html.code).toBe(0);
    expect(html.stdout).toBe("");
    expect(html.stderr).toContain(`wrote ${file} (html, 1 turn)`);
    expect(readFileSync(file, "utf8")).toStartWith("<!DOCTYPE html>");
  });

  test("a path that cannot be written: a clear error, exit 1, and the file already there untouched", async () => {
    const p = project();
    writeFileSync(join(p.cwd, "notadir"), "x");
    const bad = await runCli(["export", p.id, "-o", "notadir/chat.md"], { cwd: p.cwd, env: p.env });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(`cannot write the export to ${join(p.cwd, "notadir", "chat.md")}: part of its directory path is a file, not a directory`);
    expect(bad.stderr).toContain("Nothing was written there");
    mkdirSync(join(p.cwd, "adir"));
    const dir = await runCli(["export", p.id, "-o", "adir"], { cwd: p.cwd, env: p.env });
    expect(dir.code).toBe(1);
    expect(dir.stderr).toContain("it is a directory");
    expect(readFileSync(join(p.cwd, "notadir"), "utf8")).toBe("x");
  });

  test("usage and lookup errors are named", async () => {
    const p = project();
    expect((await runCli(["export", "--format", "pdf"], { cwd: p.cwd, env: p.env })).stderr).toContain('--format must be one of md, html, json, got "pdf"');
    const none = await runCli(["export", "zzzz"], { cwd: p.cwd, env: p.env });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('has an id starting with "zzzz"');
    const help = await runCli(["export", "--help"], { cwd: p.cwd, env: p.env });
    expect(help.stdout).toContain("this project's most recent session");
  });

  test("a rewound session: every format shows its current branch, not what a rewind left behind (the log keeps it)", async () => {
    const cwd = scratch("khaelor-proj-");
    const { env } = dataHome();
    const abandoned = user("ABANDONED-QUESTION");
    const events = [user("first question"), assistant([text("first answer")]), turnEnd(), abandoned, assistant([text("ABANDONED-ANSWER")]), turnEnd(), rewind(abandoned.id, { filesKept: true }), user("edited question"), assistant([text("edited answer")])];
    const { path, id } = writeSession(cwd, env, events);
    for (const format of ["md", "html", "json"] as const) {
      const out = exportSession(path, format, {}).text;
      expect(out).toContain("edited answer");
      expect(out).toContain("first answer");
      expect(out).not.toContain("ABANDONED");
      expect(out.match(/edited question/g)?.length ?? 0).toBeGreaterThan(0);
    }
    expect(exportSession(path, "md", {}).text).toContain("went back to an earlier message here");
    expect(readFileSync(path, "utf8")).toContain("ABANDONED-ANSWER");
    // khaelor export, as the user runs it.
    const run = await runCli(["export", id, "--format", "md", "-o", join(cwd, "out.md")], { cwd, env });
    expect(run.code).toBe(0);
    expect(readFileSync(join(cwd, "out.md"), "utf8")).not.toContain("ABANDONED");
  });
});
