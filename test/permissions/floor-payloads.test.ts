// The hardline floor reads what would really run: text a shell or eval runs after a static decoder
// (base64, xxd, printf escapes, rev, here-strings and here-docs), and one-line interpreter programs
// that delete, chmod or chown /, home or a system directory, or write onto a block device. The floor
// denies them in every mode, bypassPermissions included; what is not catastrophic asks as before.
import { afterAll, beforeAll, test } from "bun:test";
import { createPermissionEngine, type PermissionEngine } from "../../src/permissions/index.ts";
import { b64, expectRows, hex, type Row } from "./decision-rows.ts";
import { makeFixture, type Fixture, trustedProject } from "./fixture.ts";

let fx: Fixture;
let engine: PermissionEngine;

beforeAll(async () => {
  fx = makeFixture({ local: { permissions: { allow: ["Bash(python3 -c:*)", "Bash(node:*)"] } } });
  engine = await createPermissionEngine({ projectRoot: fx.root, home: fx.home, configHome: fx.configHome, projectSettings: trustedProject });
});
afterAll(() => fx.cleanup());

const floor = (commands: string[]): Row[] => commands.map((c) => ["dddd", c]);
const RM = b64("rm -rf /");

test("a payload a shell or eval runs is decoded and meets the floor", () => {
  expectRows(engine, fx, floor([
    // GNU base64 prints what it decoded before the bad character, and sh runs it
    `echo ${RM} | base64 -d | sh`, `echo '${RM}!' | base64 -d | sh`, `echo ${b64("rm -rf ~")} | base64 --decode | bash`, `echo '${RM}' | base64 -D | sh`,
    `base64 -d <<< ${RM} | sh`, `eval "$(echo ${RM} | base64 -d)"`, `eval \`echo ${RM} | base64 -d\``, `eval $(echo ${RM} | base64 -d)`,
    `bash -c "$(echo ${RM} | base64 -d)"`, `sh <<< "$(echo ${RM} | base64 -d)"`, `$(echo ${RM} | base64 -d)`, `\`echo ${RM} | base64 -d\``,
    `X=$(echo ${RM} | base64 -d); eval "$X"`, `X="$(base64 -d <<< ${RM})"; sh -c "$X"`,
    `echo ${hex("rm -rf /")} | xxd -r -p | sh`, `xxd -r -p <<< ${hex("rm -rf ~")} | bash`, `eval "$(echo ${hex("rm -rf /")} | xxd -rp)"`,
    `eval "$(printf '\\162\\155 -rf /')"`, `printf '\\x72\\x6d -rf /' | sh`, `sh -c "$(printf '%s -rf %s' rm /)"`,
    "echo '/ fr- mr' | rev | sh", "rev <<< '~ fr- mr' | bash", `eval "$(rev <<< '/ fr- mr')"`,
    `sh <<EOF\n$(echo ${RM} | base64 -d)\nEOF`, `bash <<EOF\n$(echo ${RM} | base64 -d)\necho done\nEOF`,
    `echo ${b64(RM)} | base64 -d | base64 -d | sh`, `echo ${b64(`echo ${RM} | base64 -d | sh`)} | base64 -d | sh`,
    `echo ${b64("mkfs.ext4 /dev/sda1")} | base64 -d | sh`, `echo ${b64("dd if=/dev/zero of=/dev/sda")} | base64 -d | sudo bash`,
    `echo ${b64(":(){ :|:& };:")} | base64 -d | bash`, `echo ${b64("cd / && rm -rf *")} | base64 -d | sh`,
    `python3 -c "$(echo ${b64("import shutil; shutil.rmtree('/')")} | base64 -d)"`,
  ]));
  // what is not catastrophic asks as it did: the decoded text is shown, never run unseen
  expectRows(engine, fx, [
    ["??da", `echo ${b64("ls")} | base64 -d | sh`], ["??da", `eval "$(echo ${b64("ls")} | base64 -d)"`], ["??da", `echo ${b64("rm -rf /tmp/x")} | base64 -d | sh`],
    ["??da", `echo ${RM} | base64 -d`], ["??da", `echo ${RM} | base64 -d > payload.txt`],
    ["??da", `echo ${b64("rm -rf build")} | base64 -d | sh`], ["??da", `echo "$X" | base64 -d | sh`],
  ]);
});

test("one-line programs are scanned for deleting, chmod-ing or chown-ing /, home or a system directory, and writing a block device", () => {
  expectRows(engine, fx, floor([
    `python3 -c 'import shutil; shutil.rmtree("/")'`, `python -c "import shutil,os; shutil.rmtree(os.path.expanduser('~'))"`,
    `python3 -c 'import os; os.system("rm -rf /")'`, `python3 -c 'import subprocess; subprocess.run(["rm", "-rf", "/"])'`,
    `python3 -c 'import subprocess; subprocess.call("rm -rf ~", shell=True)'`, `python3 -c 'import shutil; shutil.rmtree("/etc")'`,
    `python3 -c 'import shutil; shutil.rmtree("/usr/")'`, `python3 -c 'import os; os.chown("/", 0, 0)'`, `python3 -c 'import os; os.chmod("/etc", 0o777)'`,
    `python3 -c 'import shutil; p = "/"; shutil.rmtree(p)'`, `python3 -c 'import shutil, pathlib; shutil.rmtree(pathlib.Path.home())'`,
    `python3 -c 'import shutil,os; shutil.rmtree(os.environ["HOME"])'`, `python3 -c 'import shutil; shutil.rmtree("{home}")'`, `python3 -c 'import shutil; shutil.rmtree("{root}")'`,
    `python3 -c 'open("/dev/sda","wb").write(b"0"*512)'`, `sudo python3 -c 'import shutil; shutil.rmtree("/boot")'`,
    `python3 - <<'EOF'\nimport shutil\nshutil.rmtree("/")\nEOF`, `echo 'import shutil; shutil.rmtree("/")' | python3`, `cat <<'EOF' | python3\nimport shutil; shutil.rmtree("/var")\nEOF`,
    `perl -e 'use File::Path qw(remove_tree); remove_tree("/")'`, `perl -MFile::Path -e 'rmtree("/lib")'`, `perl -e 'system("rm -rf /")'`,
    "perl -e '`rm -rf ~`'", `perl -e 'qx{rm -rf /}'`, `perl -e 'open(F, ">/dev/sda"); print F "x"'`, `perl -e 'system("rm", "-rf", $ENV{HOME})'`,
    `node -e 'require("fs").rmSync("/", {recursive: true, force: true})'`, `node -e 'require("child_process").execSync("rm -rf ~")'`,
    `node -e "require('fs').rmSync(require('os').homedir(), {recursive:true})"`, `node -e 'require("fs").rmSync(process.env.HOME, {recursive: true})'`,
    `node -e 'require("fs").writeFileSync("/dev/nvme0n1", "x")'`, `timeout 5 node -e 'require("child_process").spawnSync("rm", ["-rf", "/"])'`,
    `ruby -e 'require "fileutils"; FileUtils.rm_rf("/")'`, `ruby -e 'system("rm -rf /")'`, "ruby -e '`rm -rf ~`'", `ruby -e 'require "fileutils"; FileUtils.chmod_R(0777, "/usr")'`,
    `ruby <<'EOF'\nrequire "fileutils"\nFileUtils.rm_rf(Dir.home)\nEOF`, `ruby -e 'FileUtils.rm_r(ENV["HOME"])'`,
    `php -r 'system("rm -rf /");'`, `php -r 'shell_exec("rm -rf ~");'`, `php -r 'exec("mkfs.ext4 /dev/sda1");'`,
  ]));
  // code that deletes something else, or only mentions the words, is judged as any inline code is
  // (this project allows `python3 -c` by a rule that spells the code option out; `Bash(node:*)` does not cover `node -e`)
  expectRows(engine, fx, [
    ["aada", `python3 -c 'import shutil; shutil.rmtree("build")'`], ["aada", `python3 -c 'print("rm -rf /")'`], ["??da", `python -c 'print("shutil.rmtree(\\"/\\")")'`],
    ["aada", `python3 -c 'import shutil; shutil.rmtree("/tmp/build")'`], ["??da", `node -e 'require("fs").rmSync("dist", {recursive: true})'`],
    ["??da", `perl -e 'print "rm -rf /\\n"'`], ["aada", `python3 -c 'open("/dev/null","w")'`], ["??da", `ruby -e 'FileUtils.rm_rf("/tmp/x")'`],
    ["aada", `python3 -c 'import os; os.system("ls /")'`], ["aada", `python3 -c 'import os; print(os.listdir("/etc"))'`], ["??da", `php -r 'echo "rm -rf /";'`],
  ]);
});
