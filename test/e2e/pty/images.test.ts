// Images in the composer, in the real CLI in a pseudo-terminal (issue 18): a pasted (bracketed)
// image path becomes a chip and reaches the fake Messages API as an image block through the real
// SDK; paths that are not images stay text; Ctrl-V takes the clipboard's image through a fake
// xclip on PATH; --resume shows the chip and sends the image again. Each test waits on the screen.
import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeApi } from "../../support/fake-api.ts";
import { isolatedEnv, tempProject } from "../../support/cli.ts";
import { makePng } from "../../support/images.ts";
import { formatBytes } from "../../../src/workspace/safe-read.ts";
import { KEY, type PtySession, idle, ptyFixtures } from "./harness.ts";

const fixtures = ptyFixtures();
const text = (t: string) => ({ content: [{ type: "text" as const, text: t }] });
const CTRL_V = "\x16";

type Block = { type: string; text?: string; source?: { type: string; media_type: string; data: string } };
/** The content blocks of the last user message of request `i`. */
function lastUser(fake: FakeApi, i: number): Block[] {
  const body = fake.requests[i]?.body as { messages: Array<{ role: string; content: string | Block[] }> };
  const m = body.messages.filter((x) => x.role === "user").at(-1)!;
  return typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content;
}
const images = (blocks: Block[]) => blocks.filter((b) => b.type === "image");

function start(fake: FakeApi, env: Record<string, string>, cwd: string, args: string[] = []): PtySession {
  return fixtures.pty(args, { cwd, env });
}

describe("images in the composer", () => {
  test("a pasted image path (quoted, with a space) reaches the model as an image; --resume shows the chip and sends it again", async () => {
    const fake = await fixtures.api({ turns: [text("A-GRADIENT"), text("STILL-THERE")] });
    const cwd = tempProject();
    const png = makePng(120, 80);
    mkdirSync(join(cwd, "shots"));
    const path = join(cwd, "shots", "my shot.png");
    writeFileSync(path, png);
    const env = isolatedEnv(fake.url);
    const s = start(fake, env, cwd);
    await s.waitFor(idle, "the composer");
    s.type("what is ");
    s.paste(`'${path}'`);
    const chip = `[image 1: my shot.png, ${formatBytes(png.length)}]`;
    await s.waitForText(`› what is ${chip}`);
    s.type(" ?");
    s.send(KEY.enter);
    await s.waitFor((sc) => sc.includes("A-GRADIENT") && idle(sc), "the answer");
    const sent = lastUser(fake, 0);
    expect(images(sent)).toEqual([{ type: "image", source: { type: "base64", media_type: "image/png", data: png.toString("base64") } }]);
    expect(sent.find((b) => b.type === "text")?.text).toBe(`what is ${chip} ?`);

    // The log holds a reference; the copy is 0600 in the session's folder.
    const sessions = join(env.KHAELOR_HOME!, "sessions");
    const project = join(sessions, readdirSync(sessions)[0]!);
    const log = readdirSync(project).find((n) => n.endsWith(".jsonl"))!;
    const dir = join(project, log.replace(/\.jsonl$/, ".images"));
    const [copy] = readdirSync(dir);
    expect(readFileSync(join(dir, copy!)).equals(png)).toBe(true);
    expect(statSync(join(dir, copy!)).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(project, log), "utf8")).not.toContain(png.toString("base64").slice(0, 60));

    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
    const id = /khaelor --resume (\S+)/.exec(s.all())![1]!;

    const r = start(fake, env, cwd, ["--resume", id]);
    await r.waitFor(idle, "the composer");
    expect(r.all()).toContain(`what is ${chip} ?`);
    r.type("and now?");
    r.send(KEY.enter);
    await r.waitFor((sc) => sc.includes("STILL-THERE") && idle(sc), "the second answer");
    // The model's view on resume still carries the image, in the first user message.
    const body = JSON.stringify(fake.requests[1]?.body);
    expect(body).toContain(png.toString("base64"));
  }, 60_000);

  test("Backspace over a chip removes the image; a path that is not an image, or not there, stays text", async () => {
    const fake = await fixtures.api({ turns: [text("NO-IMAGE"), text("TEXT-PATHS")] });
    const cwd = tempProject();
    writeFileSync(join(cwd, "shot.png"), makePng(10, 10));
    writeFileSync(join(cwd, "page.png"), "<!doctype html><p>a saved web page</p>");
    const s = start(fake, isolatedEnv(fake.url), cwd);
    await s.waitFor(idle, "the composer");
    s.paste(join(cwd, "shot.png"));
    await s.waitForText("› [image 1: shot.png,");
    s.send(KEY.backspace);
    await s.waitFor((sc) => !sc.includes("[image 1:"), "the chip to go");
    s.type("plain");
    s.send(KEY.enter);
    await s.waitFor((sc) => sc.includes("NO-IMAGE") && idle(sc), "the answer");
    expect(images(lastUser(fake, 0))).toEqual([]);

    s.paste(`file://${join(cwd, "page.png")}`);
    await s.waitForText("page.png");
    s.type(" ");
    s.paste(join(cwd, "missing.png"));
    await s.waitForText("missing.png");
    s.send(KEY.enter);
    await s.waitFor((sc) => sc.includes("TEXT-PATHS") && idle(sc), "the second answer");
    const sent = lastUser(fake, 1);
    expect(images(sent)).toEqual([]);
    expect(sent.find((b) => b.type === "text")?.text).toBe(`file://${join(cwd, "page.png")} ${join(cwd, "missing.png")}`);
  }, 60_000);

  test("an image over the API's size limit is refused with the reason; its path stays in the prompt", async () => {
    const fake = await fixtures.api({ turns: [] });
    const cwd = tempProject();
    const big = makePng(1400, 1000, { noise: true });
    expect(big.length).toBeGreaterThan(3.75 * 1024 * 1024);
    writeFileSync(join(cwd, "huge.png"), big);
    const s = start(fake, isolatedEnv(fake.url), cwd);
    await s.waitFor(idle, "the composer");
    s.paste(join(cwd, "huge.png"));
    await s.waitForText("the API takes images up to 3.8 MB");
    expect(s.all()).toContain("KHAELOR cannot scale");
    expect(s.screen()).toContain(`› ${join(cwd, "huge.png")}`);
    expect(fake.requests).toHaveLength(0);
  }, 60_000);

  test("Ctrl-V takes the clipboard's image through xclip; without a clipboard tool it says why, once", async () => {
    const fake = await fixtures.api({ turns: [text("FROM-CLIPBOARD")] });
    const cwd = tempProject();
    const bin = join(cwd, "bin");
    mkdirSync(bin);
    const png = makePng(33, 22);
    writeFileSync(join(cwd, "clip.png"), png);
    // A fake xclip that serves the PNG only for the image target, as the real one does.
    writeFileSync(join(bin, "xclip"), `#!/bin/sh\ncase "$*" in *"-t image/png -o"*) exec cat "${join(cwd, "clip.png")}";; esac\necho "Error: target not available" >&2; exit 1\n`);
    chmodSync(join(bin, "xclip"), 0o755);
    const s = start(fake, isolatedEnv(fake.url, { PATH: `${bin}:${process.env.PATH}`, DISPLAY: ":99" }), cwd);
    await s.waitFor(idle, "the composer");
    s.send(CTRL_V);
    await s.waitForText(`› [image 1: clipboard.png, ${formatBytes(png.length)}]`);
    s.send(KEY.enter);
    await s.waitFor((sc) => sc.includes("FROM-CLIPBOARD") && idle(sc), "the answer");
    expect(images(lastUser(fake, 0))[0]?.source?.data).toBe(png.toString("base64"));

    const none = start(fake, isolatedEnv(fake.url, { PATH: "/usr/bin:/bin", DISPLAY: "", WAYLAND_DISPLAY: "" }), cwd);
    await none.waitFor(idle, "the composer");
    none.send(CTRL_V);
    await none.waitForText("no clipboard tool was found");
    // A second press says nothing more (the key reaches the composer in order, so the typing after it shows last).
    none.send(CTRL_V);
    none.type("still typing");
    await none.waitForText("› still typing");
    expect(none.all().split("no clipboard tool was found").length).toBe(2);
  }, 60_000);
});

describe('"editorMode": "vim"', () => {
  test("the status line shows the mode; Esc, then normal-mode commands edit the prompt; Enter sends it", async () => {
    const fake = await fixtures.api({ turns: [text("VIM-OK")] });
    const cwd = tempProject();
    mkdirSync(join(cwd, ".khaelor"));
    writeFileSync(join(cwd, ".khaelor", "settings.json"), JSON.stringify({ editorMode: "vim" }));
    const s = start(fake, isolatedEnv(fake.url), cwd);
    await s.waitFor((sc) => idle(sc) && sc.includes("-- INSERT --"), "insert mode");
    s.type("fix the tset now");
    await s.waitForText("› fix the tset now");
    s.send(KEY.esc);
    await s.waitForText("-- NORMAL --");
    // b b: onto "tset"; cw: change it; Esc; A: append at the end.
    s.type("bbcw");
    await s.waitForText("-- INSERT --");
    s.type("test");
    s.send(KEY.esc);
    await s.waitForText("-- NORMAL --");
    s.type("A");
    s.type(" please");
    await s.waitForText("› fix the test now please");
    s.send(KEY.enter);
    await s.waitFor((sc) => sc.includes("VIM-OK") && idle(sc), "the answer");
    expect(lastUser(fake, 0)[0]?.text).toBe("fix the test now please");
  }, 60_000);
});
