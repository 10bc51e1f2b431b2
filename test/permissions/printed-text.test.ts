// What echo and printf print, as the permission check reads it for text piped into a shell, against
// what the real bash and sh print for the same words: the real output must be one of the readings.
import { expect, test } from "bun:test";
import { printedText } from "../../src/permissions/shell/printed-text.ts";

const CASES: string[][] = [
  ["echo", "rm", "-rf", "/"],
  ["echo", "-n", "a\\nb"],
  ["echo", "ls\\nrm -rf /"],
  ["echo", "-e", "a\\tb\\c", "never"],
  ["echo", "-E", "a\\nb"],
  ["printf", "rm -rf /\\n"],
  ["printf", "%s -rf /\\n", "rm"],
  ["printf", "%s\\n", "ls", "rm -rf ~"],
  ["printf", "%5s|%-3s|%.2s\\n", "a", "b", "xyz"],
  ["printf", "\\101\\x42%%\\n"],
  ["printf", "%b", "a\\nb\\c", "dropped"],
  ["printf", "%d-%c\\n", "42", "zed"],
  ["printf", "%q\\n", "a b'c"],
];

for (const shell of ["bash", "sh"]) {
  test(`every reading set includes what ${shell} prints`, () => {
    for (const argv of CASES) {
      const quoted = argv.map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(" ");
      const real = Bun.spawnSync([shell, "-c", quoted]).stdout.toString();
      // %q differs between shells (sh has none); its reading only has to parse back to the same word
      if (argv[1] === "%q\\n" && shell === "sh") continue;
      expect({ argv, readings: printedText(argv, null) }).toEqual({ argv, readings: expect.arrayContaining([real]) });
    }
  });
}

test("cat passes a literal stdin on; a printf directive it does not copy yields the format and each argument as lines", () => {
  expect(printedText(["cat"], ["rm -rf /\n"])).toEqual(["rm -rf /\n"]);
  expect(printedText(["cat", "-"], null)).toBeNull();
  expect(printedText(["cat", "file"], ["x"])).toBeNull();
  expect(printedText(["printf", "%x %s\\n", "rm -rf /"], null)).toEqual(["%x %s\n\nrm -rf /"]);
  expect(printedText(["ls"], null)).toBeNull();
});
