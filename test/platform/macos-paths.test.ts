// The file systems of macOS, on Linux: case-insensitive by default, and /tmp (like /var) a link to
// /private/tmp, so one file has several spellings. A rule about a path must hold for every spelling
// of it. Case: path rules ignore case on macOS, checked by running the same engine with
// process.platform set to darwin in a child process. Links: the project opened through a linked
// directory, as /tmp/x is /private/tmp/x, and the file named through the other spelling.
import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, realpathSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createPermissionEngine } from "../../src/permissions/index.ts";
import { makeFixture, type Fixture } from "../permissions/fixture.ts";

let fx: Fixture | undefined;
afterEach(() => fx?.cleanup());
const read = (file_path: string, cwd: string) => ({ tool: "read", input: { file_path }, cwd });

async function decideAs(platform: NodeJS.Platform, f: Fixture, path: string): Promise<string> {
  const code = `Object.defineProperty(process, "platform", { value: ${JSON.stringify(platform)} });
    const { createPermissionEngine } = await import(${JSON.stringify(join(import.meta.dir, "../../src/permissions/index.ts"))});
    const engine = await createPermissionEngine({ projectRoot: ${JSON.stringify(f.root)}, home: ${JSON.stringify(f.home)}, configHome: ${JSON.stringify(f.configHome)} });
    process.stdout.write(engine.decide({ tool: "read", input: { file_path: ${JSON.stringify(path)} }, cwd: ${JSON.stringify(f.root)} }).behavior);`;
  const p = Bun.spawn([process.execPath, "-e", code], { stdout: "pipe", stderr: "pipe" });
  const [out, err] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  if (!out) throw new Error(err);
  return out;
}

test("a deny on secrets/ covers SECRETS/ on macOS, where it is the same directory, and not on Linux", async () => {
  fx = makeFixture({ project: { permissions: { deny: ["Read(./secrets/**)"] } } });
  expect(await decideAs("darwin", fx, join(fx.root, "SECRETS/key.txt"))).toBe("deny");
  expect(await decideAs("darwin", fx, join(fx.root, "Secrets/Key.TXT"))).toBe("deny");
  expect(await decideAs("linux", fx, join(fx.root, "SECRETS/key.txt"))).not.toBe("deny");
  expect(await decideAs("linux", fx, join(fx.root, "secrets/key.txt"))).toBe("deny");
}, 30_000);

test("a rule holds for a file named through a linked directory, as /tmp is /private/tmp on macOS", async () => {
  fx = makeFixture({ project: { permissions: { deny: ["Read(./secrets/**)"] } } });
  const alias = join(realpathSync(mkdtempSync(join(tmpdir(), "khaelor-alias-"))), "tmp");
  symlinkSync(join(fx.root, ".."), alias); // alias/project is fx.root
  const viaAlias = join(alias, "project");
  const real = await createPermissionEngine({ projectRoot: fx.root, home: fx.home, configHome: fx.configHome });
  expect(real.decide(read(join(viaAlias, "secrets/key.txt"), viaAlias)).behavior).toBe("deny");
  const opened = await createPermissionEngine({ projectRoot: viaAlias, home: fx.home, configHome: fx.configHome });
  expect(opened.decide(read(join(fx.root, "secrets/key.txt"), fx.root)).behavior).toBe("deny");
  expect(opened.decide(read(join(viaAlias, "secrets/key.txt"), viaAlias)).behavior).toBe("deny");
});
