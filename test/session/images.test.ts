// Images in the session log: kept as files in the session's folder, referenced from the events,
// read back as the images they were, and never broken by the redactor.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, openSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createWriter, readSessionLog } from "../../src/session/log.ts";
import { imagesDirOf } from "../../src/session/image-store.ts";
import { createSession, forkSession } from "../../src/session/store.ts";
import { replaySession } from "../../src/session/replay.ts";
import { messageProblems } from "../../src/session/validate.ts";
import { pruneSpillDirs } from "../../src/session/spill-retention.ts";
import { createRedactor } from "../../src/session/redact.ts";
import type { ImageBlock } from "../../src/model/types.ts";
import { makePng } from "../support/images.ts";
import { assistant, tempHome, text, toolResult, toolUse, user } from "./make-events.ts";

const homes: Array<ReturnType<typeof tempHome>> = [];
afterEach(() => {
  for (const h of homes.splice(0)) h.cleanup();
});

const png = makePng(40, 30, { noise: true });
const image = (bytes: Buffer = png): ImageBlock => ({ type: "image", source: { type: "base64", media_type: "image/png", data: bytes.toString("base64") } });

function session() {
  const home = tempHome();
  homes.push(home);
  const w = createSession({ cwd: home.cwd, model: "claude-sonnet-5-5", permissionMode: "default", env: home.env });
  return { home, w };
}

describe("images in the session log", () => {
  test("an image is a 0600 file in the session's folder, named by its hash; the line references it; the same image is stored once", () => {
    const { w } = session();
    w.append(user([image(), { type: "text", text: "[image 1: shot.png, 9 KB] what is this?" }]));
    w.append(assistant([text("a gradient")]));
    w.append(user([image(), { type: "text", text: "[image 1: shot.png, 9 KB] again" }]));
    w.close();
    const dir = imagesDirOf(w.path);
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^[0-9a-f]{32}\.png$/);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, files[0]!)).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dir, files[0]!)).equals(png)).toBe(true);
    const log = readFileSync(w.path, "utf8");
    expect(log).not.toContain(png.toString("base64").slice(0, 40));
    expect(log).toContain(`"source":{"type":"file","media_type":"image/png","file":"${files[0]}","bytes":${png.length}}`);
    // Read back, the events hold the image itself, and the model's view is a valid request.
    const back = readSessionLog(w.path);
    expect(back.warnings).toEqual([]);
    const first = back.events.find((e) => e.type === "user_message");
    expect(first?.type === "user_message" && first.content[0]).toEqual(image());
    expect(messageProblems(replaySession(back.events).view.messages())).toEqual([]);
  });

  test("a tool's image result is stored the same way", () => {
    const { w } = session();
    w.append(user("read the screenshot"));
    w.append(assistant([toolUse("toolu_1", "read", { file_path: "a.png" })]));
    w.append(toolResult("toolu_1", [{ type: "text", text: "Image a.png" }, image()], { name: "read" }));
    w.close();
    expect(readFileSync(w.path, "utf8")).not.toContain(png.toString("base64").slice(0, 40));
    const r = readSessionLog(w.path).events.find((e) => e.type === "tool_result");
    expect(r?.type === "tool_result" && r.content).toEqual([{ type: "text", text: "Image a.png" }, image()]);
  });

  test("the redactor never reaches the pixels: a secret whose text occurs inside the image's base64 leaves the image whole", () => {
    const { w } = session();
    const b64 = png.toString("base64");
    // A "token" that happens to be a run of the image's base64 (as any 8+ characters can be).
    const secret = b64.slice(100, 130);
    const redact = createRedactor({ MY_TOKEN: secret });
    // A writer with this redactor (the default one reads the process's real environment).
    const path = join(dirname(w.path), "redacted.jsonl");
    const rw = createWriter(path, openSync(path, "a", 0o600), { existing: [], redact });
    rw.append(user([image(), { type: "text", text: `here, and my token ${secret}` }]));
    rw.close();
    const line = readFileSync(path, "utf8");
    expect(line).toContain("my token [REDACTED]");
    const back = readSessionLog(path).events[0];
    expect(back?.type === "user_message" && back.content[0]).toEqual(image());
  });

  test("an image whose copy is gone, changed, or named outside the folder reads as a note, and the conversation stays valid", () => {
    const { w } = session();
    w.append(user([image(), { type: "text", text: "look" }]));
    w.append(assistant([text("ok")]));
    w.close();
    const dir = imagesDirOf(w.path);
    const file = readdirSync(dir)[0]!;
    writeFileSync(join(dir, file), makePng(2, 2));
    const changed = readSessionLog(w.path);
    const c = changed.events.find((e) => e.type === "user_message");
    expect(JSON.stringify(c)).toContain("was changed");
    rmSync(join(dir, file));
    const gone = readSessionLog(w.path);
    expect(JSON.stringify(gone.events.find((e) => e.type === "user_message"))).toContain(`its copy ${file} was removed`);
    expect(messageProblems(replaySession(gone.events).view.messages())).toEqual([]);
    // A log is a trust boundary: a reference cannot read a file elsewhere.
    const crafted = readFileSync(w.path, "utf8").replace(file, "../../../../etc/passwd.png");
    writeFileSync(w.path, crafted);
    expect(JSON.stringify(readSessionLog(w.path).events.find((e) => e.type === "user_message"))).toContain("names it wrongly");
  });

  test("a fork copies the images into the new session's folder", () => {
    const { home, w } = session();
    w.append(user([image(), { type: "text", text: "look" }]));
    w.append(assistant([text("ok")]));
    w.close();
    const fork = forkSession(w.path);
    const f = createSession({ cwd: home.cwd, model: "claude-sonnet-5-5", permissionMode: "default", env: home.env, forkedFrom: fork.forkedFrom, seed: fork.events });
    f.close();
    expect(readdirSync(imagesDirOf(f.path))).toEqual(readdirSync(imagesDirOf(w.path)));
    const back = readSessionLog(f.path).events.find((e) => e.type === "user_message");
    expect(back?.type === "user_message" && back.content[0]).toEqual(image());
  });

  test("images go with their log: kept however old the log is, removed once it is gone", () => {
    const { w } = session();
    w.append(user([image(), { type: "text", text: "look" }]));
    w.close();
    const dir = imagesDirOf(w.path);
    const old = new Date(Date.now() - 400 * 86_400_000);
    utimesSync(w.path, old, old);
    pruneSpillDirs(dirname(w.path));
    expect(existsSync(dir)).toBe(true);
    rmSync(w.path);
    pruneSpillDirs(dirname(w.path));
    expect(existsSync(dir)).toBe(false);
  });
});
