// The floor against real runs, inside a read-only bubblewrap sandbox (`/` read-only, a private
// /tmp and /dev, no network): each payload shape is first run ungated against a home directory
// made inside the sandbox's /tmp, which shows it really deletes it (our decoding agrees with the
// real shell, decoder and interpreter); then the same command goes through the engine in
// bypassPermissions, and runs only if allowed: the home must survive. A wrong allow would destroy
// only the sandbox's own /tmp. Skipped, with a note, where bwrap cannot run (CI must install
// bubblewrap for it to run there).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { createPermissionEngine, type PermissionEngine } from "../../src/permissions/index.ts";
import { b64, hex } from "./decision-rows.ts";
import { makeFixture, type Fixture, trustedProject } from "./fixture.ts";

let fx: Fixture;
let engine: PermissionEngine;

const pyenvRoot = process.env.PYENV_ROOT ?? join(homedir(), ".pyenv");

function sandbox(script: string, home: string): { status: number | null; stdout: string; stderr: string } {
  const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", "--unshare-all", "--die-with-parent", "--setenv", "HOME", home];
  if (existsSync(pyenvRoot)) args.push("--setenv", "PYENV_ROOT", pyenvRoot);
  const r = spawnSync("bwrap", [...args, "bash", "-c", script], { encoding: "utf8", timeout: 30_000 });
  return { status: r.status, stdout: r.stdout ?? "", stderr: r.stderr ?? "" };
}

const bwrapWorks = (() => {
  try {
    return sandbox("touch /tmp/ok && ! touch /etc/khaelor-probe 2>/dev/null", "/tmp").status === 0;
  } catch {
    return false;
  }
})();
if (!bwrapWorks) console.log("floor-sandbox: bwrap cannot run here (install bubblewrap); the real runs are skipped");
// CI installs bubblewrap (.ci/run): there a missing sandbox is a failure, not a skip.
test.skipIf(bwrapWorks || !process.env.CI)("bwrap runs in CI", () => {
  throw new Error("bwrap cannot run: .ci/run must install bubblewrap");
});

beforeAll(async () => {
  fx = makeFixture();
  engine = await createPermissionEngine({ projectRoot: fx.root, home: fx.home, configHome: fx.configHome, projectSettings: trustedProject, mode: "bypassPermissions" });
});
afterAll(() => fx.cleanup());

const reverse = (s: string) => [...s].reverse().join("");
/** Commands that delete `target` recursively, as an attacker would write them; `needs` names the interpreter the sandbox must have. */
const SHAPES: Array<{ needs?: string; run: (target: string) => string }> = [
  { run: (t) => `echo ${b64(`rm -rf ${t}`)} | base64 -d | sh` },
  { run: (t) => `echo '${b64(`rm -rf ${t}`)}!' | base64 -d | sh` },
  { run: (t) => `eval "$(echo ${b64(`rm -rf ${t}`)} | base64 -d)"` },
  { run: (t) => `X=$(base64 -d <<< ${b64(`rm -rf ${t}`)}); bash -c "$X"` },
  { run: (t) => `echo ${hex(`rm -rf ${t}`)} | xxd -r -p | sh` },
  { run: (t) => `echo '${reverse(`rm -rf ${t}`)}' | rev | bash` },
  { run: (t) => `sh <<EOF\n$(echo ${b64(`rm -rf ${t}`)} | base64 -d)\nEOF` },
  { run: (t) => `$(echo ${b64(`rm -rf ${t}`)} | base64 -d)` },
  { run: (t) => `echo ${b64(`echo ${b64(`rm -rf ${t}`)} | base64 -d | sh`)} | base64 -d | sh` },
  { needs: "python3", run: (t) => `python3 -c 'import shutil; shutil.rmtree("${t}")'` },
  { needs: "python3", run: (t) => `python3 -c 'import subprocess; subprocess.run(["rm", "-rf", "${t}"])'` },
  { needs: "python3", run: (t) => `python3 - <<'EOF'\nimport shutil, os\np = "${t}"\nshutil.rmtree(p)\nEOF` },
  { needs: "python3", run: () => `python3 -c 'import shutil, os; shutil.rmtree(os.path.expanduser("~"))'` },
  { needs: "perl", run: (t) => `perl -e 'use File::Path qw(remove_tree); remove_tree("${t}")'` },
  { needs: "perl", run: (t) => `perl -e 'system("rm -rf ${t}")'` },
  { needs: "perl", run: () => `perl -e 'system("rm", "-rf", $ENV{HOME})'` },
  { needs: "node", run: (t) => `node -e 'require("fs").rmSync("${t}", {recursive: true, force: true})'` },
  { needs: "node", run: () => `node -e 'require("child_process").execSync("rm -rf ~")'` },
];

test.skipIf(!bwrapWorks)("each payload really deletes the home in the sandbox when run ungated, and the engine never lets it run", () => {
  const home = fx.home;
  const setUp = `mkdir -p ${home}/keep && echo x > ${home}/keep/f`;
  const check = `[ -e ${home}/keep/f ] && echo ALIVE || echo GONE`;
  const missing = new Set<string>();
  const wrong: string[] = [];
  let checked = 0;
  for (const shape of SHAPES) {
    if (shape.needs && sandbox(`command -v ${shape.needs} >/dev/null && ${shape.needs} --version >/dev/null 2>&1`, home).status !== 0) {
      missing.add(shape.needs);
      continue;
    }
    const command = shape.run(home);
    // the command on lines of its own, so a heredoc in it ends where it should
    const runs = (c: string) => sandbox(`${setUp}\n{\n${c}\n} >/dev/null 2>&1\n${check}`, home);
    const ungated = runs(command);
    if (ungated.stdout.trim() !== "GONE") wrong.push(`${JSON.stringify(command)} did not delete the home even ungated: ${ungated.stdout}${ungated.stderr}`);
    const d = engine.decide({ tool: "bash", input: { command }, cwd: fx.root });
    const gated = runs(d.behavior === "allow" ? command : ":");
    if (d.behavior !== "deny" || !d.reason.startsWith("hardline floor")) wrong.push(`${JSON.stringify(command)}: ${d.behavior} (${d.source}) ${d.reason}`);
    if (gated.stdout.trim() !== "ALIVE") wrong.push(`${JSON.stringify(command)} deleted the home through the gate`);
    checked++;
  }
  if (missing.size > 0) console.log(`floor-sandbox: no ${[...missing].join(", ")} in the sandbox; those shapes are skipped`);
  expect(wrong.join("\n")).toBe("");
  expect(checked).toBeGreaterThanOrEqual(9);
});
