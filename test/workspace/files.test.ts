import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { writeFileAtomic } from "../../src/workspace/atomic-write.ts";
import { decodeText, dominantLineEnding, encodeText, looksBinary, type TextEncodingName } from "../../src/workspace/encoding.ts";
import { createWorkspace } from "../../src/workspace/local.ts";
import { ReadRecords } from "../../src/workspace/read-records.ts";

const dir = mkdtempSync(join(tmpdir(), "khaelor-ws-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("encodings", () => {
  test("every encoding round-trips byte for byte", () => {
    const text = "naïve café\r\nline 2\n";
    for (const enc of ["utf-8", "utf-8-bom", "utf-16le", "utf-16be", "latin1"] as TextEncodingName[]) {
      const bytes = encodeText(text, enc);
      const back = decodeText(bytes);
      expect(back).toEqual({ text, encoding: enc });
      expect(encodeText(back.text, back.encoding).equals(bytes)).toBe(true);
    }
  });

  test("invalid UTF-8 falls back to Latin-1; NULs mean binary unless a UTF-16 BOM explains them", () => {
    expect(decodeText(Buffer.from([0x66, 0xfc, 0x72])).encoding).toBe("latin1");
    expect(looksBinary(Buffer.from([0x61, 0x00, 0x62]))).toBe(true);
    expect(looksBinary(encodeText("ab", "utf-16le"))).toBe(false);
    expect(dominantLineEnding("a\r\nb\r\nc\n")).toBe("crlf");
    expect(dominantLineEnding("a\nb\r\nc\n")).toBe("lf");
  });
});

describe("atomic writes", () => {
  test("create parents, replace content, keep the mode, leave no temporary file", () => {
    const p = join(dir, "a/b/c.sh");
    writeFileAtomic(p, Buffer.from("one"));
    expect(readFileSync(p, "utf8")).toBe("one");
    chmodSync(p, 0o750);
    writeFileAtomic(p, Buffer.from("two"));
    expect(readFileSync(p, "utf8")).toBe("two");
    expect(statSync(p).mode & 0o777).toBe(0o750);
    expect(readdirSync(join(dir, "a/b"))).toEqual(["c.sh"]);
  });
});

describe("read records", () => {
  test("unread, fresh, changed, and a touch with the same bytes stays fresh", () => {
    const p = join(dir, "r.txt");
    writeFileSync(p, "v1");
    const r = new ReadRecords();
    expect(r.check(p)).toBe("unread");
    r.record(p, readFileSync(p));
    expect(r.check(p)).toBe("fresh");
    writeFileSync(p, "v2");
    expect(r.check(p)).toBe("changed");
    r.record(p, readFileSync(p));
    const later = new Date(Date.now() + 10_000);
    utimesSync(p, later, later);
    expect(r.check(p)).toBe("fresh");
    rmSync(p);
    expect(r.check(p)).toBe("missing");
  });
});

describe("workspace paths", () => {
  test("relative paths resolve against cwd, which can move; root does not", () => {
    const ws = createWorkspace({ root: dir, spillDir: join(dir, "spill") });
    expect(ws.resolve("x/../y.txt")).toBe(join(dir, "y.txt"));
    ws.cwd = join(dir, "a");
    expect(ws.resolve("b")).toBe(join(dir, "a/b"));
    expect(ws.resolve("/etc/hosts")).toBe("/etc/hosts");
    expect(ws.resolve("~/x")).toBe(join(homedir(), "x"));
    expect(ws.root).toBe(dir);
  });
});
