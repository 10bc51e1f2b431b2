// Every decision's reason names the rule, the mode or the floor entry that decided it.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createPermissionEngine, type PermissionEngine, type PermissionMode } from "../../src/permissions/index.ts";
import { b64 } from "./decision-rows.ts";
import { makeFixture, type Fixture, trustedProject } from "./fixture.ts";

let fx: Fixture;
let engine: PermissionEngine;

beforeAll(async () => {
  fx = makeFixture({ project: { permissions: { allow: ["Bash(git *)"] } } });
  engine = await createPermissionEngine({ projectRoot: fx.root, home: fx.home, configHome: fx.configHome, projectSettings: trustedProject });
});
afterAll(() => fx.cleanup());

const decide = (mode: PermissionMode, command: string) => {
  engine.setMode(mode);
  return engine.decide({ tool: "bash", input: { command }, cwd: fx.root });
};

test("the floor names its entry and, for decoded text or a program, where the command came from", () => {
  expect(decide("bypassPermissions", "rm -rf /").reason).toStartWith("hardline floor (recursive deletion): refusing to delete /");
  const decoded = decide("bypassPermissions", `echo ${b64("rm -rf /")} | base64 -d | sh`);
  expect(decoded.source).toBe("hardline");
  expect(decoded.reason).toStartWith("hardline floor (recursive deletion)");
  expect(decoded.reason).toEndWith("(`rm -rf /`, decoded from `base64 -d`)");
  expect(decide("bypassPermissions", `python3 -c 'import shutil; shutil.rmtree("/")'`).reason).toStartWith("hardline floor (recursive deletion): python code deletes / (rmtree)");
  expect(decide("bypassPermissions", `perl -e 'system("rm -rf ~")'`).reason).toEndWith("(a shell command the program runs: `rm -rf ~`)");
  expect(decide("default", "dd if=/dev/zero of=/dev/sda").reason).toStartWith("hardline floor (block device)");
  expect(decide("default", ":(){ :|:& };:").reason).toStartWith("hardline floor (fork bomb)");
});

test("an allowed line names what allowed it: a rule, else the mode, before the read-only set", () => {
  expect(decide("bypassPermissions", `echo ${b64("ls")} | base64 -d | sh`)).toMatchObject({ behavior: "allow", reason: "bypassPermissions mode", source: "mode:bypassPermissions" });
  expect(decide("default", "ls && git push")).toMatchObject({ behavior: "allow", reason: "allowed by Bash(git *)" });
  const env = decide("default", "GIT_EXTERNAL_DIFF=/tmp/evil git diff");
  expect(env.reason).toContain("runs with GIT_EXTERNAL_DIFF, which can name a program or change what loads; Bash(git *) (project settings) does not cover that");
});
