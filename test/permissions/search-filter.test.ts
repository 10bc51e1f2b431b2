// searchFilter: what grep and glob over an allowed directory leave out, through the public engine
// and real files (the tools' side is in test/tools/search-permissions.test.ts).
import { afterEach, expect, test } from "bun:test";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { createPermissionEngine } from "../../src/permissions/index.ts";
import { makeFixture, type Fixture, trustedProject } from "./fixture.ts";

let fx: Fixture | undefined;
afterEach(() => fx?.cleanup());

const setup = async (permissions: object) => {
  fx = makeFixture({ project: { permissions } });
  const engine = await createPermissionEngine({ projectRoot: fx.root, home: fx.home, configHome: fx.configHome, projectSettings: trustedProject });
  return { engine, f: fx };
};

test("a deny on a folder inside the searched directory leaves its files out of grep and glob, in every mode", async () => {
  const { engine, f } = await setup({ deny: ["Read(./secrets/**)"] });
  for (const mode of ["default", "acceptEdits", "plan", "bypassPermissions"] as const) {
    engine.setMode(mode);
    for (const tool of ["grep", "glob"] as const) {
      const filter = engine.searchFilter(tool, f.root);
      expect(filter.active).toBe(true);
      expect(filter.skip(join(f.root, "secrets/key.txt"))).toEqual({ kind: "denied", because: "Read(./secrets/**) (project settings)" });
      expect(filter.skip(join(f.root, "src/a.ts"))).toBeNull();
    }
  }
});

test("grep leaves out what reading would ask about, unless the search itself settled it; glob lists names", async () => {
  const { engine, f } = await setup({ ask: ["Read(./private/**)"] });
  const grep = engine.searchFilter("grep", f.root);
  expect(grep.skip(join(f.root, "private/notes.md"))).toEqual({ kind: "asks", because: "Read(./private/**) (project settings)" });
  expect(grep.skip(join(f.root, ".env"))).toEqual({ kind: "asks", because: ".env files usually hold secrets" });
  expect(grep.skip(join(f.root, ".env.example"))).toBeNull();
  expect(engine.searchFilter("glob", f.root).active).toBe(false);
  // the user answered the ask for private/ and for ~/.ssh when the search began
  expect(engine.searchFilter("grep", join(f.root, "private")).skip(join(f.root, "private/notes.md"))).toBeNull();
  expect(engine.searchFilter("grep", join(f.home, ".ssh")).skip(join(f.home, ".ssh/id_rsa"))).toBeNull();
  expect(engine.searchFilter("grep", f.home).skip(join(f.home, ".ssh/id_rsa"))?.kind).toBe("asks");
  engine.grant("Read(./.env)", "session");
  expect(grep.skip(join(f.root, ".env"))).toBeNull();
});

test("Grep rules bind grep only, Glob rules glob only; Read rules bind both", async () => {
  const { engine, f } = await setup({ deny: ["Grep(./docs/**)", "Glob(./src/**)"] });
  engine.setMode("bypassPermissions");
  expect(engine.searchFilter("grep", f.root).skip(join(f.root, "docs/readme.md"))?.kind).toBe("denied");
  expect(engine.searchFilter("glob", f.root).skip(join(f.root, "docs/readme.md"))).toBeNull();
  expect(engine.searchFilter("glob", f.root).skip(join(f.root, "src/a.ts"))?.kind).toBe("denied");
  expect(engine.searchFilter("grep", f.root).skip(join(f.root, "src/a.ts"))).toBeNull();
});

test("paths found through a symlinked directory are judged where they really are", async () => {
  const { engine, f } = await setup({ deny: ["Read(./secrets/**)"] });
  const alias = join(f.outside, "alias");
  symlinkSync(f.root, alias);
  const filter = engine.searchFilter("glob", alias);
  expect(filter.skip(join(alias, "secrets/key.txt"))?.kind).toBe("denied");
  expect(filter.skip(join(alias, "src/a.ts"))).toBeNull();
});
