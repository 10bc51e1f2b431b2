// Both writers of settings files (a rule from the permission prompt, a choice such as /theme) read
// the file the same way: a BOM is fine, a file that is not a JSON object is never overwritten.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { saveUserSetting } from "../../src/agent/config.ts";
import { updateRuleInFile } from "../../src/permissions/rules/settings-files.ts";

let config: string;
const saved = process.env.XDG_CONFIG_HOME;
beforeEach(() => {
  const root = mkdtempSync(join(tmpdir(), "khaelor-settings-"));
  process.env.XDG_CONFIG_HOME = root;
  config = join(root, "khaelor");
  mkdirSync(config, { recursive: true });
});
afterEach(() => {
  if (saved === undefined) delete process.env.XDG_CONFIG_HOME;
  else process.env.XDG_CONFIG_HOME = saved;
});

const writers: Array<[string, (file: string) => void]> = [
  ["a saved rule", (file) => void updateRuleInFile(file, "allow", "Bash(npm test)", "add")],
  ["a saved setting", () => void saveUserSetting("theme", "dark")],
];

describe("writing to a settings file", () => {
  test.each(writers)("%s keeps a file with a byte-order mark and its other keys", (_what, write) => {
    const file = join(config, "settings.json");
    writeFileSync(file, '\uFEFF{"model":"claude-haiku-4-5"}\n');
    write(file);
    expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({ model: "claude-haiku-4-5" });
  });

  test.each(writers)("%s refuses a file that is not a JSON object, and leaves it as it was", (_what, write) => {
    const file = join(config, "settings.json");
    for (const text of ["[1, 2]\n", "{ not json\n"]) {
      writeFileSync(file, text);
      expect(() => write(file)).toThrow(`${file} is not valid JSON`);
      expect(readFileSync(file, "utf8")).toBe(text);
    }
  });

  test.each(writers)("%s creates a missing file", (_what, write) => {
    const file = join(config, "settings.json");
    write(file);
    expect(JSON.parse(readFileSync(file, "utf8"))).toBeObject();
  });
});
