// What terminals paste for a dragged file, read back into paths.
import { describe, expect, test } from "bun:test";
import { pastedImagePaths, shellWords } from "../../../src/tui/app/pasted-paths.ts";

const cwd = "/work/proj";
const home = "/home/ann";
const paths = (s: string) => pastedImagePaths(s, cwd, home);

describe("pasted image paths", () => {
  test("the forms terminals paste: bare, quoted, escaped spaces, file:// URLs, ~", () => {
    expect(paths("/tmp/shot.png")).toEqual(["/tmp/shot.png"]);
    expect(paths("/tmp/shot.png ")).toEqual(["/tmp/shot.png"]);
    expect(paths("'/tmp/my shot.png'")).toEqual(["/tmp/my shot.png"]);
    expect(paths('"/tmp/my shot.JPG"')).toEqual(["/tmp/my shot.JPG"]);
    expect(paths("/Users/ann/Desktop/Screen\\ Shot\\ 2026-12-01\\ at\\ 10.00.00.png")).toEqual(["/Users/ann/Desktop/Screen Shot 2026-12-01 at 10.00.00.png"]);
    expect(paths("file:///tmp/my%20shot.webp")).toEqual(["/tmp/my shot.webp"]);
    expect(paths("file://localhost/tmp/a.gif\r\n")).toEqual(["/tmp/a.gif"]);
    expect(paths("~/Pictures/cat.jpeg")).toEqual(["/home/ann/Pictures/cat.jpeg"]);
    expect(paths("shots/a.png")).toEqual(["/work/proj/shots/a.png"]);
  });

  test("several dropped files, on one line or one per line", () => {
    expect(paths("'/tmp/a b.png' '/tmp/c.png'")).toEqual(["/tmp/a b.png", "/tmp/c.png"]);
    expect(paths("file:///tmp/a.png\nfile:///tmp/b.png\n")).toEqual(["/tmp/a.png", "/tmp/b.png"]);
  });

  test("anything else stays text: prose, other files, a path among words, another host, bad quoting", () => {
    expect(paths("look at /tmp/shot.png please")).toBeNull();
    expect(paths("/tmp/notes.txt")).toBeNull();
    expect(paths("/tmp/a.png /tmp/notes.txt")).toBeNull();
    expect(paths("file://server/share/a.png")).toBeNull();
    expect(paths("'/tmp/unclosed.png")).toBeNull();
    expect(paths("")).toBeNull();
    expect(paths("file:///tmp/%E0%A4%A.png")).toBeNull();
  });

  test("shell words: quotes group, backslashes escape, single quotes keep backslashes", () => {
    expect(shellWords(`a 'b c' "d \\" e" f\\ g 'h\\i'`)).toEqual(["a", "b c", 'd " e', "f g", "h\\i"]);
    expect(shellWords("''")).toEqual([""]);
  });
});
