// Which clipboard helper each platform uses, and text through it both ways. The helpers are real
// programs on PATH: small scripts standing in for pbcopy/xclip/wl-copy, keeping the clipboard in
// a file, with a copy helper that leaves a child running holding its output, as wl-copy and xclip do.
import { expect, test } from "bun:test";
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { clipboardHelper, copyText, pasteText } from "../../src/platform/clipboard.ts";

function helpers(names: Record<string, "copy" | "paste">): { bin: string; board: string } {
  const bin = mkdtempSync(join(tmpdir(), "khaelor-clip-"));
  const board = join(bin, "board");
  for (const [name, role] of Object.entries(names)) {
    // copy: store stdin, then leave a child behind with stdout open (it serves the selection)
    const body = role === "copy" ? `cat > ${board}; (sleep 60 &) ; exit 0` : `cat ${board}`;
    writeFileSync(join(bin, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(bin, name), 0o755);
  }
  return { bin, board };
}

test("macOS uses pbcopy and pbpaste", async () => {
  const { bin, board } = helpers({ pbcopy: "copy", pbpaste: "paste" });
  const env = { PATH: `${bin}:/usr/bin:/bin` };
  const h = clipboardHelper("darwin", env)!;
  expect(h).toEqual({ copy: ["pbcopy"], paste: ["pbpaste"] });
  await copyText("naïve ✓\nline two", h, env);
  expect(readFileSync(board, "utf8")).toBe("naïve ✓\nline two");
  expect(await pasteText(h, env)).toBe("naïve ✓\nline two");
}, 10_000);

test("Linux: wl-copy under Wayland, else xclip, else xsel under X, else none", async () => {
  const all = helpers({ "wl-copy": "copy", "wl-paste": "paste", xclip: "copy", xsel: "copy" });
  const PATH = `${all.bin}:/usr/bin:/bin`;
  expect(clipboardHelper("linux", { PATH, WAYLAND_DISPLAY: "wayland-0", DISPLAY: ":0" })?.copy[0]).toBe("wl-copy");
  expect(clipboardHelper("linux", { PATH, DISPLAY: ":0" })?.copy).toEqual(["xclip", "-selection", "clipboard", "-in"]);
  const xselOnly = helpers({ xsel: "copy" });
  expect(clipboardHelper("linux", { PATH: xselOnly.bin, DISPLAY: ":0" })?.copy).toEqual(["xsel", "--clipboard", "--input"]);
  expect(clipboardHelper("linux", { PATH })).toBeNull(); // no display: a console or SSH
  expect(clipboardHelper("darwin", { PATH })).toBeNull();

  const env = { PATH, WAYLAND_DISPLAY: "wayland-0" };
  await copyText("from wayland", clipboardHelper("linux", env)!, env);
  expect(readFileSync(all.board, "utf8")).toBe("from wayland");
}, 10_000);

test("a helper that fails is named", async () => {
  const { bin } = helpers({});
  writeFileSync(join(bin, "pbcopy"), "#!/bin/sh\nexit 3\n");
  chmodSync(join(bin, "pbcopy"), 0o755);
  const env = { PATH: bin };
  await expect(copyText("x", clipboardHelper("darwin", env)!, env)).rejects.toThrow("pbcopy failed (exit 3)");
  await expect(pasteText({ copy: ["pbcopy"], paste: ["pbpaste"] }, env)).rejects.toThrow("pbpaste could not start");
});
