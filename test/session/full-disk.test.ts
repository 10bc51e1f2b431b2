// Every write a session makes, on a real tmpfs that fills up: the log (no torn line; what did not
// fit waits and is written once space is free), the summary cache (no empty meta.json.tmp) and the
// lock (no empty lock file that would block the next start).
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readSessionLog } from "../../src/session/log.ts";
import { acquireSessionLock } from "../../src/session/lock.ts";
import { lockPathOf, metaPathOf } from "../../src/session/paths.ts";
import { createSession } from "../../src/session/store.ts";
import { smallFs } from "../support/small-fs.ts";
import { assistant, tempHome, text, user } from "./make-events.ts";

const fs = smallFs("256k");
let home: ReturnType<typeof tempHome>;
afterEach(() => {
  fs?.free();
  home?.cleanup();
});

const onTmpfs = (name: string) => {
  home = tempHome();
  const data = join(fs!.dir, name);
  mkdirSync(data, { recursive: true });
  return { ...home.env, KHAELOR_HOME: data };
};

describe.skipIf(!fs)("a full disk under the session", () => {
  test("a write that does not fit is cut back, later events wait, and all are written once space is free", () => {
    const env = onTmpfs("log");
    const errors: string[] = [];
    const w = createSession({ cwd: home.cwd, model: "m", permissionMode: "default", env, onError: (e) => errors.push(e.message) });
    w.append(user("first, saved"));
    fs!.fill();
    // Larger than any page left over: part of it would land on disk without the cut.
    w.append(assistant([text("x".repeat(20_000))]));
    w.append(user("second, waiting"));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^the disk is full; nothing after your message "first, saved" \(\d\d:\d\d:\d\d\) was saved to the session log /);
    expect(w.failure).not.toBeNull();
    const onDisk = readFileSync(w.path, "utf8");
    expect(onDisk.endsWith("\n")).toBe(true);
    expect(readSessionLog(w.path).events.map((e) => e.type)).toEqual(["session_header", "user_message"]);
    expect(w.retry()).toBe(false);
    fs!.free();
    expect(w.retry()).toBe(true);
    w.append(user("third, after"));
    w.close();
    const log = readSessionLog(w.path);
    expect(log.warnings).toEqual([]);
    expect(log.events.filter((e) => e.type === "user_message").map((e) => (e as { content: unknown }).content)).toEqual(["first, saved", "second, waiting", "third, after"]);
  });

  test("the summary cache leaves no empty temp file when it does not fit", () => {
    const env = onTmpfs("meta");
    const w = createSession({ cwd: home.cwd, model: "m", permissionMode: "default", env, onError: () => {} });
    w.append(user("hello"));
    fs!.fill();
    w.append({ type: "turn_end", id: "te", ts: Date.now(), reason: "finished" });
    w.close();
    const dir = readdirSync(join(w.path, ".."));
    expect(dir.filter((n) => n.endsWith(".tmp"))).toEqual([]);
    expect(existsSync(`${metaPathOf(w.path)}.tmp`)).toBe(false);
  });

  test("a lock that cannot be written is not left behind empty", () => {
    const env = onTmpfs("lock");
    const path = join(env.KHAELOR_HOME, "s.jsonl");
    fs!.fill();
    expect(() => acquireSessionLock(path)).toThrow(/ENOSPC/);
    expect(existsSync(lockPathOf(path))).toBe(false);
    expect(() => createSession({ cwd: home.cwd, model: "m", permissionMode: "default", env })).toThrow(/ENOSPC|disk is full/);
    expect(readdirSync(env.KHAELOR_HOME, { recursive: true }).filter((n) => String(n).match(/\.(lock|jsonl)$/))).toEqual([]);
  });

  test("a header that does not fit leaves no empty log (it would list as a session)", () => {
    const env = onTmpfs("header");
    const dir = join(env.KHAELOR_HOME, "sessions");
    mkdirSync(dir, { recursive: true });
    // Room for the lock's few bytes, none for the header: fill, then free exactly one page.
    const page = join(fs!.dir, "page");
    writeFileSync(page, Buffer.alloc(4096));
    fs!.fill();
    rmSync(page);
    expect(() => createSession({ cwd: home.cwd, model: "m", permissionMode: "default", env, onError: () => {} })).toThrow(/the disk is full; nothing after the start of the session was saved/);
    expect(readdirSync(dir, { recursive: true }).filter((n) => String(n).match(/\.(lock|jsonl)$/))).toEqual([]);
  });
});
