// A write replaces the file's content, not what the file is: through a symlink to its target (the
// link stays), to every hard link, with its owner, group and mode, and the model is told when the
// file was read-only. Real files, real uids (root, as in CI, can chown), the real edit/write tools.
import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, chownSync, linkSync, lstatSync, mkdirSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { updateRuleInFile } from "../../src/permissions/rules/settings-files.ts";
import { writeFileAtomic } from "../../src/workspace/atomic-write.ts";
import { makeHarness, type Harness } from "../tools/harness.ts";

let h: Harness;
afterEach(async () => h?.cleanup());

const isRoot = process.getuid?.() === 0;

async function editFile(path: string, from: string, to: string) {
  expect((await h.call("read", { file_path: path })).isError).toBe(false);
  return h.call("edit", { file_path: path, old_string: from, new_string: to });
}

describe("symlinks", () => {
  test.each([
    ["a relative link", (dir: string) => symlinkSync("AGENTS.md", join(dir, "CLAUDE.md"))],
    ["an absolute link", (dir: string) => symlinkSync(join(dir, "AGENTS.md"), join(dir, "CLAUDE.md"))],
    [
      "a chain of links",
      (dir: string) => {
        symlinkSync("AGENTS.md", join(dir, "middle.md"));
        symlinkSync("middle.md", join(dir, "CLAUDE.md"));
      },
    ],
  ])("an edit through %s changes the target; the link stays a link", async (_name, link) => {
    h = makeHarness();
    writeFileSync(join(h.dir, "AGENTS.md"), "# Rules\nuse tabs\n");
    link(h.dir);
    const r = await editFile(join(h.dir, "CLAUDE.md"), "use tabs", "use spaces");
    expect(r.isError).toBe(false);
    expect(r.text).toContain("written through the symlink to AGENTS.md");
    expect(lstatSync(join(h.dir, "CLAUDE.md")).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(h.dir, "AGENTS.md"), "utf8")).toBe("# Rules\nuse spaces\n");
    expect(readFileSync(join(h.dir, "CLAUDE.md"), "utf8")).toBe("# Rules\nuse spaces\n");
  });

  test("a write to a dangling link creates its target, not a file in place of the link", async () => {
    h = makeHarness();
    mkdirSync(join(h.dir, "docs"));
    symlinkSync("docs/NOTES.md", join(h.dir, "NOTES.md"));
    const report = writeFileAtomic(join(h.dir, "NOTES.md"), Buffer.from("hello\n"));
    expect(report.throughLink).toBe(true);
    expect(readlinkSync(join(h.dir, "NOTES.md"))).toBe("docs/NOTES.md");
    expect(readFileSync(join(h.dir, "docs", "NOTES.md"), "utf8")).toBe("hello\n");
  });
});

describe("hard links", () => {
  test("a file with another hard link is written in place: both names see the new text, and the model is told", async () => {
    h = makeHarness();
    const a = join(h.dir, "a.txt");
    writeFileSync(a, "old\n");
    linkSync(a, join(h.dir, "b.txt"));
    const inode = statSync(a).ino;
    const r = await editFile(a, "old", "new");
    expect(r.isError).toBe(false);
    expect(r.text).toContain("1 other hard link shares this file");
    expect(readFileSync(join(h.dir, "b.txt"), "utf8")).toBe("new\n");
    expect(statSync(a).ino).toBe(inode);
    expect(statSync(a).nlink).toBe(2);
  });

  test("in place, a shorter text leaves no tail of the old one", () => {
    h = makeHarness();
    const a = join(h.dir, "a.txt");
    writeFileSync(a, "a much longer old text\n");
    linkSync(a, join(h.dir, "b.txt"));
    writeFileAtomic(a, Buffer.from("short\n"));
    expect(readFileSync(join(h.dir, "b.txt"), "utf8")).toBe("short\n");
  });
});

describe("owner, group and mode", () => {
  test.skipIf(!isRoot).each([
    [1000, 1000, 0o640],
    [1234, 5678, 0o755],
    [65534, 0, 0o600],
  ])("a file of uid %d gid %d mode %o keeps them when root edits it", async (uid, gid, mode) => {
    h = makeHarness();
    const f = join(h.dir, "owned.sh");
    writeFileSync(f, "echo old\n");
    chownSync(f, uid, gid);
    chmodSync(f, mode);
    const r = await editFile(f, "old", "new");
    expect(r.isError).toBe(false);
    const st = statSync(f);
    expect([st.uid, st.gid, st.mode & 0o7777]).toEqual([uid, gid, mode]);
    expect(readFileSync(f, "utf8")).toBe("echo new\n");
  });

  test("a read-only file is changed, stays read-only, and the model is told it was read-only", async () => {
    h = makeHarness();
    const f = join(h.dir, "locked.txt");
    writeFileSync(f, "old\n");
    chmodSync(f, 0o444);
    const r = await h.call("read", { file_path: f });
    expect(r.isError).toBe(false);
    const w = await h.call("write", { file_path: f, content: "new\n" });
    expect(w.text).toContain("the file was read-only");
    expect(statSync(f).mode & 0o777).toBe(0o444);
  });
});

describe("the user's settings file", () => {
  test("'always allow (every project)' writes through a symlinked settings file (dotfiles), keeping the link", () => {
    h = makeHarness();
    const dotfiles = join(h.dir, "dotfiles");
    const config = join(h.dir, "config", "khaelor");
    mkdirSync(dotfiles);
    mkdirSync(config, { recursive: true });
    writeFileSync(join(dotfiles, "settings.json"), JSON.stringify({ model: "claude-opus-5-5", permissions: { allow: [] } }));
    symlinkSync(join(dotfiles, "settings.json"), join(config, "settings.json"));
    expect(updateRuleInFile(join(config, "settings.json"), "allow", "Bash(npm test)", "add")).toBe(true);
    expect(lstatSync(join(config, "settings.json")).isSymbolicLink()).toBe(true);
    const saved = JSON.parse(readFileSync(join(dotfiles, "settings.json"), "utf8"));
    expect(saved).toEqual({ model: "claude-opus-5-5", permissions: { allow: ["Bash(npm test)"] } });
  });
});
