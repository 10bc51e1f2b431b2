// Claude Code's `disableAllHooks`: a user who turned hooks off there expects none to run here. A
// project's file may turn off the project's own hooks, never the user's (a hook can be a guard).
import { expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadHooks, type HookFile } from "../../src/hooks/config.ts";

const hook = (command: string) => ({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command }] }] } });

test("disableAllHooks: in the user's settings every hook is off, plugins' too; in a project's, only the project's; false or absent changes nothing", () => {
  const dir = mkdtempSync(join(tmpdir(), "khaelor-hooks-off-"));
  const user = join(dir, "user.json");
  const project = join(dir, "project.json");
  const plugin = join(dir, "hooks.json");
  writeFileSync(user, JSON.stringify({ ...hook("echo user"), disableAllHooks: true }));
  writeFileSync(project, JSON.stringify(hook("echo project")));
  writeFileSync(plugin, JSON.stringify(hook("echo plugin")));
  const files: HookFile[] = [
    { scope: "user" as const, file: user },
    { scope: "project" as const, file: project },
    { scope: "user" as const, file: plugin, plugin: { name: "p", root: dir, active: () => true } },
  ];
  const off = loadHooks(files);
  expect(off.entries).toEqual([]);
  expect(off.problems).toEqual([`hooks are off: disableAllHooks is set in ${user}; 3 hooks are not run`]);

  writeFileSync(user, JSON.stringify({ ...hook("echo user"), disableAllHooks: false }));
  writeFileSync(project, JSON.stringify({ ...hook("echo project"), disableAllHooks: true }));
  const projectOff = loadHooks(files);
  expect(projectOff.entries.map((e) => e.command)).toEqual(["echo user", "echo plugin"]);
  expect(projectOff.problems).toEqual([`${project}: disableAllHooks turns off this project's hooks only (1 not run); your own hooks still run (set it in your user settings to turn them off)`]);

  writeFileSync(project, JSON.stringify(hook("echo project")));
  expect(loadHooks(files).entries.map((e) => e.command)).toEqual(["echo user", "echo project", "echo plugin"]);
  // In a plugin's hooks.json it is not a setting: a plugin cannot turn the user's hooks off.
  writeFileSync(plugin, JSON.stringify({ ...hook("echo plugin"), disableAllHooks: true }));
  expect(loadHooks(files).entries.length).toBe(3);
});
