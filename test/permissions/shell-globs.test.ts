// Globs in shell commands are expanded to be judged, synchronously, inside decide(): that must stay
// bounded whatever the project links to. Counted in directory entries read, through the real engine.
import { afterEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { createPermissionEngine, type PermissionMode } from "../../src/permissions/index.ts";
import { GLOB_VISIT_LIMIT, globScans } from "../../src/permissions/shell/shell-globs.ts";
import { makeFixture, type Fixture, trustedProject } from "./fixture.ts";

let fx: Fixture | undefined;
afterEach(() => fx?.cleanup());

/** loop/ holds 50 links to itself: loop/*\/*\/* names 125,000 paths without a file being written; usr links to /usr. */
async function setup() {
  const f = (fx = makeFixture());
  mkdirSync(join(f.root, "loop"));
  for (let i = 0; i < 50; i++) symlinkSync(".", join(f.root, "loop", `l${i}`));
  if (existsSync("/usr")) symlinkSync("/usr", join(f.root, "usr"));
  const engine = await createPermissionEngine({ projectRoot: f.root, home: f.home, configHome: f.configHome, projectSettings: trustedProject });
  return (command: string, mode: PermissionMode = "default") => {
    engine.setMode(mode);
    const before = globScans.visited;
    const d = engine.decide({ tool: "bash", input: { command }, cwd: f.root });
    return { ...d, visited: globScans.visited - before };
  };
}

test("`**` is one level, as in bash without globstar: a link to a big tree (or /usr) is not walked through", async () => {
  const decide = await setup();
  // /usr is outside the project: reading there asks, as always
  const cases: Array<[string, string]> = [["cat **/*.zzzq", "allow"], ["cat loop/**/*.zzzq", "allow"], ["ls loop/**/", "allow"], ...(existsSync("/usr") ? [["cat usr/**/*.zzzq", "ask"] as [string, string]] : [])];
  for (const [command, behavior] of cases) {
    const d = decide(command);
    expect({ command, behavior: d.behavior as string }).toEqual({ command, behavior });
    // each folder level of the pattern read once per folder matched above it, never deeper
    expect({ command, bounded: d.visited < 4 * 3_000 }).toEqual({ command, bounded: true });
  }
});

test("a glob that would read more entries than the limit stops there and asks, except in bypass", async () => {
  const decide = await setup();
  const capsBefore = globScans.capped;
  const d = decide("cat loop/*/*/*.zzzq");
  // the engine expands it for the read and again for the walk it is judged as: each stops at the limit
  expect(d.visited).toBeLessThanOrEqual(2 * (GLOB_VISIT_LIMIT + 1));
  expect(globScans.capped).toBe(capsBefore + 2);
  expect(d.behavior).toBe("ask");
  expect(d.reason).toContain(`loop/*/*/*.zzzq reaches more than the ${GLOB_VISIT_LIMIT} entries KHAELOR reads to check a glob`);
  expect(decide("cat loop/*/*/*.zzzq", "bypassPermissions").behavior).toBe("allow");
  expect(decide("cat loop/*/*.zzzq").behavior).toBe("allow");
});
