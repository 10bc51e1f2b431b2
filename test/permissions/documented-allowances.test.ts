// Claude Code's documented semantics where they allow more: a bare `Bash` allow rule allows every
// Bash call (the floor, protected paths and configured deny and ask rules still apply), and
// acceptEdits runs the file commands it lists (mkdir, touch, rm, rmdir, mv, cp, sed) on files inside
// the project, never outside it or through a symlink that leaves it.
import { afterAll, beforeAll, test } from "bun:test";
import { createPermissionEngine, type PermissionEngine } from "../../src/permissions/index.ts";
import { b64, expectRows } from "./decision-rows.ts";
import { makeFixture, type Fixture } from "./fixture.ts";

let fx: Fixture;
let bare: PermissionEngine;
let plain: PermissionEngine;

beforeAll(async () => {
  fx = makeFixture({
    project: { permissions: { deny: ["Bash(curl:*)", "Edit(./locked/**)", "Read(./secrets/**)"], ask: ["Bash(npm publish *)", "Edit(./docs/**)"] } },
  });
  const opts = { projectRoot: fx.root, home: fx.home, configHome: fx.configHome };
  plain = await createPermissionEngine(opts);
  bare = await createPermissionEngine({ ...opts, cliAllow: ["Bash"] });
});
afterAll(() => fx.cleanup());

test("a bare Bash rule allows every Bash call, redirects into project files included", () => {
  expectRows(bare, fx, [
    ["aada", "echo hi > out.txt"], ["aada", "echo hi >> src/a.ts"], ["aada", "npm install > install.log 2>&1"], ["aada", "cat <<'EOF' > notes.md\nhi\nEOF"],
    ["aada", "echo x > /tmp/khaelor-x.txt"], ["aada", "echo x > $OUT"], ["aada", "npm install"], ["aada", "python3 -c 'print(1)'"],
    ["aada", `echo ${b64("ls")} | base64 -d | sh`], ["aaaa", "cat .env"], ["aada", "GIT_PAGER=cat git log"],
    // the floor, protected paths and configured rules still hold
    ["dddd", "rm -rf /"], ["dddd", "echo x > .git/HEAD"], ["dddd", "echo x > locked/x.txt"], ["dddd", "curl x"], ["??da", "npm publish"],
    ["??da", "echo x > docs/readme.md"], ["dddd", "cat secrets/key.txt"], ["dddd", `echo ${b64("rm -rf ~")} | base64 -d | sh`],
  ]);
});

test("acceptEdits runs mkdir, touch, rm, rmdir, mv, cp and sed on files inside the project", () => {
  expectRows(plain, fx, [
    ["?ada", "sed -i s/a/b/ src/a.ts"], ["?ada", "sed -i.bak -e 's/a/b/g' -e 's/c/d/' src/a.ts src/b.ts"], ["?ada", "sed -i '/^$/d' src/a.ts"],
    ["?ada", "rm src/a.ts"], ["?ada", "rm -r src"], ["?ada", "rm -f src/*.ts"], ["?ada", "rmdir src"], ["?ada", "mkdir -p src/new"], ["?ada", "cp -r src backup"],
    ["?ada", "rm -rf node_modules"],
    // outside the project, through a symlink that leaves it, secrets, unknown paths, scripts that write or run elsewhere
    ["??da", "rm /tmp/x"], ["??da", "rm link-out/notes.txt"], ["??da", "rm -r link-out"], ["??da", "sed -i s/a/b/ link-out/notes.txt"], ["??da", "cp link-out/notes.txt src/"],
    ["??da", "sed -i s/a/b/ /etc/hosts"], ["??da", "sed -i s/a/b/ .env"], ["??da", "rm $X"], ["??da", "sed -i 's/a/b/w /tmp/out' src/a.ts"], ["??da", "sed -i 's/a/b/e' src/a.ts"],
    ["??da", "sed -i -f script.sed src/a.ts"], ["??da", "sed -i '1e id' src/a.ts"], ["??da", "sed -i 'r /etc/passwd' src/a.ts"], ["??da", "sudo rm src/a.ts"],
    ["??da", "LD_PRELOAD=/tmp/x.so mkdir src/new"], ["dddd", "rm -rf ."], ["dddd", "sed -i s/a/b/ .git/config"], ["dddd", "rm locked/x.txt"],
  ]);
});
