// A throwaway project and home with the files and settings the permission tests decide about.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { ProjectSettingsTrust } from "../../src/permissions/index.ts";

export type Fixture = { root: string; home: string; configHome: string; outside: string; cleanup(): void };

export function makeFixture(settings: { user?: object; project?: object; local?: object } = {}): Fixture {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "khaelor-perm-")));
  const root = join(base, "work", "project");
  const home = join(base, "home");
  const configHome = join(home, ".config");
  const outside = join(base, "elsewhere");
  const files: Record<string, string> = {
    [join(root, "src/a.ts")]: "export const a = 1;\n",
    [join(root, "src/b.ts")]: "export const b = 2;\n",
    [join(root, ".env")]: "TOKEN=secret\n",
    [join(root, ".env.example")]: "TOKEN=\n",
    // beside .env, so a walk of the root meets every kind of secret file at its top: `.env*`
    // names (not only `.env`) and a key that rg's hidden-file skipping does not leave out
    [join(root, ".env.local")]: "TOKEN=local\n",
    [join(root, "deploy.pem")]: "KEY\n",
    [join(root, "secrets/key.txt")]: "k\n",
    [join(root, "private/notes.md")]: "n\n",
    [join(root, "docs/readme.md")]: "d\n",
    [join(root, "locked/x.txt")]: "x\n",
    [join(root, ".git/config")]: "[core]\n",
    [join(root, ".git/HEAD")]: "ref: refs/heads/main\n",
    [join(home, ".ssh/id_rsa")]: "PRIVATE\n",
    [join(home, ".aws/credentials")]: "[default]\n",
    [join(home, ".bashrc")]: "# rc\n",
    [join(outside, "notes.txt")]: "outside\n",
  };
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  symlinkSync(outside, join(root, "link-out"));
  symlinkSync(join(root, ".git", "config"), join(root, "link-git-config"));
  symlinkSync(join(root, "secrets"), join(root, "link-secrets"));
  symlinkSync(join("secrets", "key.txt"), join(root, "link-key"));
  const write = (file: string, json: object | undefined) => {
    if (!json) return;
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(json, null, 2));
  };
  write(join(configHome, "khaelor", "settings.json"), settings.user);
  write(join(root, ".khaelor", "settings.json"), settings.project);
  write(join(root, ".khaelor", "settings.local.json"), settings.local);
  return { root, home, configHome, outside, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}

/**
 * Another project beside the fixture's, with its own root and the same home: `files` relative to
 * it. With `git`, it is a real repository (git init) with those paths staged, so git can say what
 * it ignores and tracks.
 */
export function addProject(fx: Fixture, name: string, files: Record<string, string>, git?: { add: string[] }): string {
  const root = join(dirname(dirname(fx.root)), "projects", name);
  mkdirSync(root, { recursive: true });
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  }
  if (git) {
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("GIT_")));
    for (const args of [["init", "-q"], ["add", "--", ...git.add]]) {
      const r = spawnSync("git", ["-C", root, ...args], { env, encoding: "utf8" });
      if (r.status !== 0) throw new Error(`git ${args.join(" ")} failed in the fixture: ${r.stderr}`);
    }
  }
  return root;
}

/** For tests of what the project's rules mean: the project is trusted, so its allow rules and modes hold. */
export const trustedProject: ProjectSettingsTrust = { widens: () => true, written: () => {} };
