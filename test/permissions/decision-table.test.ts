// The decision suite: each row is a tool call and the expected decision in every mode, in the order
// default / acceptEdits / plan / bypassPermissions (a = allow, ? = ask, d = deny), decided through
// the public engine with settings in all three files and CLI rules.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createPermissionEngine, type PermissionEngine, type PermissionMode } from "../../src/permissions/index.ts";
import { addProject, makeFixture, type Fixture, trustedProject } from "./fixture.ts";

const MODES: PermissionMode[] = ["default", "acceptEdits", "plan", "bypassPermissions"];
const LETTER = { allow: "a", ask: "?", deny: "d" } as const;

let fx: Fixture;
let engine: PermissionEngine;

beforeAll(async () => {
  fx = makeFixture({
    // denies outside the project, in home and at an absolute path, that no file of the fixture sits in
    user: { permissions: { allow: ["Bash(npm run test *)", "Read(//usr/share/**)"], deny: ["Bash(curl:*)", "Read(~/vault/**)", "Read(//srv/vault/**)"] } },
    project: {
      permissions: {
        deny: ["Read(./secrets/**)", "Edit(./locked/**)", "Bash(git push --force *)"],
        ask: ["Bash(npm publish *)", "Read(./private/**)"],
      },
    },
    local: {
      permissions: {
        allow: [
          "Edit(./docs/**)", "Bash(make *)", "Process(npm run dev *)",
          // interpreters allowed broadly, as users write them for scripts; one rule names its code option
          "Bash(python:*)", "Bash(node *)", "Bash(perl:*)", "Bash(ruby *)", "Bash(bun *)", "Bash(deno *)", "Bash(osascript *)",
          "Bash(uv run *)", "Bash(bash *)", "Bash(python3 -c:*)", "Bash(node -e console.log(1))",
        ],
      },
    },
  });
  engine = await createPermissionEngine({
    projectRoot: fx.root,
    home: fx.home,
    configHome: fx.configHome,
    projectSettings: trustedProject,
    cliAllow: ["Bash(git log:*)"],
    cliDeny: ["Bash(terraform destroy *)"],
  });
});
afterAll(() => fx.cleanup());

type Row = [expected: string, input: string];

/** `at`: another project's engine, deciding at its root (the fixture's project by default). */
function run(tool: string, rows: Row[], toInput: (s: string) => unknown, at?: { engine: PermissionEngine; root: string }): void {
  const wrong: string[] = [];
  const judge = at?.engine ?? engine;
  for (const [expected, raw] of rows) {
    const text = raw.replaceAll("{root}", at?.root ?? fx.root).replaceAll("{home}", fx.home).replaceAll("{out}", fx.outside);
    let got = "";
    const reasons: string[] = [];
    for (const mode of MODES) {
      judge.setMode(mode);
      const d = judge.decide({ tool, input: toInput(text), cwd: at?.root ?? fx.root });
      got += LETTER[d.behavior];
      reasons.push(`${mode}: ${d.source} ${d.reason}`);
    }
    if (got !== expected) wrong.push(`${tool} ${JSON.stringify(raw)}: expected ${expected}, got ${got}\n    ${reasons.join("\n    ")}`);
  }
  expect(wrong.join("\n")).toBe("");
  count += rows.length;
}
let count = 0;

const file = (s: string) => ({ file_path: s });
const command = (s: string) => ({ command: s });

test("read", () => {
  run("read", [
    ["aaaa", "src/a.ts"], ["aaaa", "./src/../src/a.ts"], ["aaaa", "{root}/src/a.ts"], ["aaaa", ".env.example"],
    ["???a", ".env"], ["???a", ".env.local"], ["???a", "config/prod.pem"], ["???a", "~/.ssh/id_rsa"],
    ["???a", "{home}/.aws/credentials"], ["???a", "~/.bashrc"], ["???a", "/etc/hosts"], ["???a", "/etc/shadow"],
    ["aaaa", "/usr/share/dict/words"], ["???a", "../outside.txt"], ["???a", "link-out/notes.txt"], ["dddd", "secrets/key.txt"],
    ["dddd", "./src/../secrets/key.txt"], ["???a", "private/notes.md"], ["aaaa", "locked/x.txt"], ["aaaa", ".git/config"],
    ["aaaa", "docs/readme.md"], ["???a", "{out}/notes.txt"], ["dddd", "link-key"], ["dddd", "link-secrets/key.txt"],
    ["dddd", "{root}/link-secrets/../secrets/key.txt"],
  ], file);
});

test("write and edit", () => {
  const rows: Row[] = [
    ["?ada", "src/a.ts"], ["?ada", "src/new/file.ts"], ["aada", "docs/readme.md"], ["dddd", "locked/x.txt"],
    ["??da", ".env"], ["dddd", ".git/config"], ["dddd", ".git/hooks/pre-commit"], ["dddd", "link-git-config"],
    ["dddd", "sub/.git/HEAD"], ["dddd", ".khaelor/settings.json"], ["dddd", ".khaelor/settings.local.json"],
    ["dddd", "~/.config/khaelor/settings.json"], ["??da", "/tmp/x.txt"], ["??da", "{out}/notes.txt"], ["??da", "link-out/new.txt"],
    ["??da", "~/.bashrc"], ["??da", "~/.ssh/authorized_keys"], ["?ada", ".gitignore"], ["?ada", ".github/workflows/ci.yml"],
    ["??da", "../sibling/file.txt"],
  ];
  run("write", rows, file);
  run("edit", [["?ada", "src/b.ts"], ["dddd", ".git/HEAD"], ["?ada", "secrets/key.txt"], ["dddd", "./locked/../locked/x.txt"]], file);
});

test("grep and glob", () => {
  run("grep", [
    ["aaaa", "."], ["aaaa", "src"], ["dddd", "secrets"], ["???a", "private"], ["???a", "/etc"], ["???a", "~/.ssh"],
    ["aaaa", "/usr/share"], ["???a", "{out}"], ["???a", ".."], ["dddd", "secrets/../secrets"], ["dddd", "src/../secrets"],
    ["dddd", "secrets/key.txt"], ["dddd", "link-secrets"], ["dddd", "link-key"], ["dddd", "./secrets/"], ["???a", "private/../private"],
  ], (p) => ({ pattern: "TODO", path: p }));
  run("glob", [
    ["aaaa", "**/*.ts@."], ["???a", "*@/etc"], ["???a", "/etc/*@."], ["???a", "../**@."], ["aaaa", "*.ts@src"], ["dddd", "secrets/**@."],
    ["dddd", "*.txt@secrets"], ["dddd", "secrets/*.txt@src/.."], ["dddd", "link-secrets/*@."], ["dddd", "../secrets/*@src"],
    ["???a", "private/*@."], ["aaaa", "src/*.ts@."],
  ], (s) => {
    const [pattern, path] = s.split("@");
    return { pattern, path };
  });
});

test("bash: the read-only set", () => {
  run("bash", [
    ["aaaa", "ls"], ["aaaa", "ls -la src"], ["aaaa", "cat src/a.ts"], ["aaaa", "head -n 5 src/a.ts"], ["aaaa", "tail -f src/a.ts"],
    ["aaaa", "wc -l src/*.ts"], ["aaaa", "pwd"], ["aaaa", "echo hello"], ["aaaa", "echo $HOME"], ["aaaa", "grep -rn TODO src"],
    ["???d", "rg -n foo"], ["???d", "find . -name '*.ts'"], ["??da", "find src -delete"],
    ["???d", "find . -type f -print0 | xargs -0 wc -l"], ["aaaa", "stat src/a.ts"], ["aaaa", "du -sh ."], ["aaaa", "diff src/a.ts src/b.ts"],
    ["aaaa", "which node"], ["aaaa", "git status"], ["aaaa", "git log --oneline -5"], ["???d", "git diff HEAD~1"],
    ["aaaa", "git show HEAD:src/a.ts"], ["aaaa", "git branch"], ["aaaa", "git branch -a"], ["aaaa", "git rev-parse HEAD"],
    ["??da", "git branch -D old"], ["??da", "git branch newbranch"], ["??da", "git tag v1.0"], ["aaaa", "git config --get user.name"],
    ["??da", "git config user.name x"], ["??da", "git -c core.pager=evil log"], ["??da", "git diff --output=/tmp/x"], ["??da", "git stash"],
    ["aaaa", "git stash list"], ["??da", "sort -o out.txt src/a.ts"], ["aaaa", "sort src/a.ts"], ["aaaa", "date"], ["??da", "date -s 2020-01-01"],
    ["??da", "tree -o out.txt"], ["??da", "rg --pre cat foo"], ["??da", "uniq src/a.ts out.txt"], ["aaaa", "echo rm -rf /"],
    ["???d", "grep -r 'rm -rf /' ."], ["aaaa", "grep -r 'rm -rf /' src"], ["aaaa", "cat .env.example"],
  ], command);
});

test("bash: what read-only commands read", () => {
  run("bash", [
    ["???a", "cat /etc/passwd"], ["???a", "ls ~"], ["???a", "ls ~/.ssh"], ["???a", "cat ~/.ssh/id_rsa"], ["???a", "head .env"],
    ["???a", "grep TOKEN .env"], ["???a", "cat .e*"], ["???a", "cat src/../../x"], ["???a", "cat link-out/notes.txt"],
    ["aaaa", "cat /usr/share/dict/words"], ["dddd", "cat secrets/key.txt"], ["dddd", "cat link-key"], ["dddd", "grep -r k link-secrets"], ["dddd", "grep -r k secrets"], ["dddd", "ls secrets"],
    ["???a", "cat private/notes.md"], ["???a", "cd .. && ls"], ["aaaa", "cd src && cat a.ts"], ["???a", "cat < .env"], ["???a", "cat $FILE"],
    ["???a", "echo ~/.ssh/id_rsa | xargs cat"], ["???a", "git -C /etc status"], ["???a", "cd /tmp; ls"], ["???a", "cat \"$HOME/.aws/credentials\""],
    ["??da", "PATH=/tmp/evil ls"], ["??da", "LD_PRELOAD=x.so cat src/a.ts"], ["aaaa", "FOO=1 ls"], ["aaaa", "env FOO=1 ls"],
    ["??da", "PATH=/tmp/evil; ls"], ["??da", "export LD_PRELOAD=x.so; cat src/a.ts"], ["??da", "X=x.so; export LD_PRELOAD; cat src/a.ts"], ["aaaa", "FOO=1; ls"],
    ["aaaa", "timeout 5 ls"], ["aaaa", "time git status"], ["aaaa", "nice -n 10 cat src/a.ts"], ["aaaa", "nohup ls"], ["aaaa", "command ls"],
    ["aaaa", "command -v git"], ["aaaa", "builtin cd src"], ["??da", "sudo ls"], ["??da", "sudo cat /etc/shadow"],
  ], command);
});

test("bash: rules, wrappers and spellings", () => {
  run("bash", [
    ["??da", "npm install"], ["??da", "npm run build"], ["aada", "npm run test"], ["aada", "npm run test -- --watch"],
    ["aada", "timeout 60 npm run test"], ["??da", "npm run test:unit"], ["??da", "npm publish"], ["??da", "env npm publish --tag beta"],
    ["aada", "make"], ["aada", "make build"], ["??da", "makefoo"], ["??da", "git push origin main"], ["dddd", "git push --force origin main"],
    ["dddd", "git  push  --force"], ["dddd", "git -C . push --force origin"], ["dddd", "sudo git push --force x"], ["dddd", "\"git\" push --force"],
    ["dddd", "curl https://example.com"], ["dddd", "curl"], ["dddd", "timeout 5 curl x"], ["dddd", "echo hi | curl -d @- x"],
    ["dddd", "terraform destroy -auto-approve"], ["??da", "python3 script.py"], ["?ada", "rm src/a.ts"], ["??da", "chmod +x script.sh"],
    ["???d", "git log -p"], ["??da", "$CMD src/a.ts"], ["??da", "git commit -m \"rm -rf /\""],
  ], command);
});

test("bash: compound commands", () => {
  run("bash", [
    ["aaaa", "ls && pwd"], ["aaaa", "ls; pwd\ncat src/a.ts"], ["??da", "git status && git push"], ["??da", "npm run test && git push origin main"],
    ["aada", "npm run test && make"], ["aaaa", "ls | grep a | wc -l"], ["aaaa", "ls || echo none"], ["aaaa", "ls & pwd"],
    ["aaaa", "echo $(whoami)"], ["aaaa", "echo `git rev-parse HEAD`"], ["?ada", "echo $(rm src/a.ts)"], ["???a", "cat $(ls src/*.ts)"],
    ["aaaa", "(cd src && ls)"], ["aaaa", "if [ -f x ]; then echo y; fi"], ["???a", "for f in src/*.ts; do cat $f; done"],
    ["??da", "while true; do npm install; done"], ["dddd", "ls && curl x"], ["dddd", "ls; rm -rf /"], ["dddd", "echo ok && git push --force"],
    ["??da", "ls && bash -c 'npm install'"], ["aaaa", "bash -c 'ls && pwd'"], ["??da", "diff <(ls) <(npm ls)"],
  ], command);
});

test("bash: redirections are writes", () => {
  run("bash", [
    ["?ada", "echo hi > out.txt"], ["aada", "echo hi >> docs/log.md"], ["aaaa", "ls > /dev/null 2>&1"], ["aaaa", "ls 2>/dev/null"],
    ["dddd", "ls > locked/x.txt"], ["??da", "echo x > .env"], ["??da", "echo x > /etc/motd"], ["dddd", "echo x > .git/HEAD"],
    ["dddd", "echo x >> .khaelor/settings.json"], ["dddd", "cat src/a.ts > .git/hooks/pre-commit"], ["?ada", "npm run test > test.log"],
    ["?ada", "cat <<EOF > notes.md\nhi\nEOF"], ["??da", "echo x > $OUT"], ["??da", "tee out.txt < src/a.ts"], ["dddd", "echo x | tee .git/config"],
    ["?ada", "ls &> listing.txt"], ["dddd", "echo x > link-git-config"],
  ], command);
});

test("bash: .git/ and .khaelor/ stay out of reach", () => {
  run("bash", [
    ["dddd", "rm -rf .git"], ["dddd", "rm .git/index.lock"], ["dddd", "cp /tmp/x .git/hooks/pre-commit"], ["dddd", "mv x .khaelor/settings.json"],
    ["dddd", "touch .git/x"], ["dddd", "sed -i s/a/b/ .git/config"], ["dddd", "ln -sf x .git/hooks/post-checkout"], ["??da", "git commit -m x"],
    ["?ada", "sed -i s/a/b/ src/a.ts"], ["dddd", "chmod +x .git/hooks/pre-commit"], ["dddd", "sudo rm -r .khaelor"], ["dddd", "cd .git && rm config"],
  ], command);
});

test("bash: acceptEdits runs file commands inside the project", () => {
  run("bash", [
    ["?ada", "mkdir -p src/new"], ["?ada", "touch src/c.ts"], ["?ada", "cp src/a.ts src/c.ts"], ["?ada", "mv src/a.ts src/z.ts"],
    ["??da", "mv src/a.ts /tmp/a.ts"], ["??da", "touch ~/.bashrc"], ["??da", "touch .env"], ["??da", "mkdir $X"], ["??da", "sudo mkdir x"],
  ], command);
});

test("bash: the hardline floor, in every spelling", () => {
  const floor = [
    "rm -rf /", "rm -fr /", "rm -r -f /", "rm -Rf /", "rm --recursive --force /", "rm -rf --no-preserve-root /", "rm -rf / --no-preserve-root",
    "rm -rf /*", "rm -rf \"/\"", "rm -rf '/'", "rm -rf \\/", "\"rm\" -rf /", "r\\m -rf /", "'r''m' -rf /", "rm  -rf   /", "\\rm -rf /",
    "sudo rm -rf /", "sudo -u root rm -rf /", "doas rm -rf /", "timeout 5 rm -rf /", "env rm -rf /", "command rm -rf /", "nice rm -rf ~",
    "rm -rf ~", "rm -rf ~/", "rm -rf $HOME", "rm -rf \"$HOME\"", "rm -rf ${HOME}", "rm -rf \"${HOME}/\"", "rm -rf ~/*", "rm -rf ~/.*",
    "rm -rf /.", "rm -rf //", "rm -rf /tmp/../", "rm -rf .", "rm -rf ./", "rm -rf *", "rm -rf {root}", "rm -rf ..", "rm -rf $PWD",
    "X=/; rm -rf $X", "export X=~; rm -rf \"$X\"", "rm -rf $UNKNOWN", "rm -rf \"$(echo /)\"", "rm -rf `echo /`", "echo / | xargs rm -rf",
    "bash -c 'rm -rf /'", "sh -c \"rm -rf ~\"", "eval \"rm -rf /\"", "eval rm -rf /", "sudo bash -c 'rm -rf /'", "$'rm' -rf /",
    "$'\\x72m' -rf /", "rm -rf /{,}", "rm -rf {/,/tmp}", "find / -delete", "find ~ -delete", "find . -delete", "find / -exec rm -rf {} \\;",
    "mkfs.ext4 /dev/sda1", "sudo mkfs -t ext4 /dev/sdb", "dd if=/dev/zero of=/dev/sda", "dd of=/dev/nvme0n1 if=x", "echo x > /dev/sda",
    "cat img > /dev/sdb", "cp x /dev/sda", ":(){ :|:& };:", "bomb(){ bomb|bomb& }; bomb", "chmod -R 777 /", "chmod -R 000 ~",
    "chown -R me /", "sudo chown -R nobody ~/", "chmod --recursive 777 /", "mv ~ /tmp/x", "rsync -a --delete empty/ ~/",
    "cd / && rm -rf *", "cd ~ && rm -rf .", "rm -rf -- /", "rm -r -- \"$HOME\"", "rm -rf $HOME/", "rm -rf \"$HOME/$X\"", "rm -rf /$X",
    "rm -rf {home}/..", "rm -rf \"$X/project\"", "rm -rf $X/..", "rm -rf $X/*", "find / -name '*' -delete", "find . -type f -delete", "ls && rm -rf / && ls", "true || sudo rm -rf --no-preserve-root /", "(rm -rf ~) &", "$RM -rf /",
    // a shell's program on stdin by another name, after options that take values, or piped in by a printer
    "bash /dev/stdin <<'EOF'\nrm -rf /\nEOF", "sh /dev/stdin <<< 'rm -rf /'", "bash --rcfile /dev/null <<'EOF'\nrm -rf /\nEOF", "bash -O extglob /dev/fd/0 <<< 'rm -rf ~'",
    "bash +o posix <<< 'rm -rf /'", "bash -s foo <<< 'rm -rf /'", "bash -c -e 'rm -rf /'", "sh -ec -- 'rm -rf ~'", "printf 'rm -rf /\\n' | sh",
    "echo 'rm -rf /' | bash", "echo 'rm -rf /' | sudo sh", "printf '%s -rf /\\n' rm | bash", "echo 'ls\\nrm -rf /' | sh", "cat <<'EOF' | sh\nrm -rf ~\nEOF",
    "cat <<< 'rm -rf /' | sh", "sh <(echo 'rm -rf /')", "source /dev/stdin <<< 'rm -rf /'", ". <(printf 'rm -rf ~')", "printf 'ls\\n' | sh -s && echo 'rm -rf /' | sh -s",
  ];
  run("bash", floor.map((c): Row => ["dddd", c]), command);
  run("bash", [
    ["?ada", "rm -rf node_modules"], ["?ada", "rm -rf ./build/*"], ["?ada", "rm -rf *.o"], ["??da", "rm -rf /tmp/somedir"],
    ["??da", "chmod -R u+w src"], ["??da", "rm -rf \"build/$X\""], ["??da", "rm -f /tmp/x"], ["??da", "find src -name '*.o' -delete"],
    ["??da", "chmod -R 755 ."], ["?ada", "rm -r src"], ["??da", "dd if=/dev/zero of=disk.img bs=1M count=1"],
    ["??da", "find . -name '*.pyc' -delete"], ["??da", "rm -rf \"$TMPDIR/build\""], ["??da", "rm -rf $OUT/cache/"], ["??da", "find . -name x -exec rm {} \\;"],
  ], command);
});

test("bash: inline interpreter code is opaque: a rule for the interpreter does not cover it", () => {
  run("bash", [
    ["dddd", "python -c \"import shutil; shutil.rmtree('/')\""], ["??da", "python -c 'print(1)'"], ["??da", "python -Bc 'x'"],
    ["??da", "python -W ignore -c 'x'"], ["??da", "python -c'x'"], ["??da", "timeout 10 python -c 'x'"], ["??da", "env FOO=1 python -c 'x'"],
    ["??da", "python -c 'x' && ls"], ["??da", "ls | python -c 'import sys'"], ["??da", "/usr/bin/python3 -c 'x'"], ["??da", "python3.12 -c 'x'"],
    ["aada", "python3 -c 'print(1)'"], ["??da", "python3 -Bc 'print(1)'"], ["aada", "python script.py"], ["aada", "python -m pytest -x"],
    ["aada", "python script.py -c x"], ["aada", "python < script.py"],
    ["dddd", "node -e 'require(\"fs\").rmSync(\"/\", {recursive: true})'"], ["??da", "node --eval 'x'"], ["??da", "node --eval=x"],
    ["??da", "node -p 1+1"], ["??da", "node -pe 1"], ["??da", "node -r dotenv/config -e 'x'"], ["??da", "node --print 'x'"],
    ["aada", "node app.js -e x"], ["aada", "node -e 'console.log(1)'"], ["??da", "node -e 'console.log(2)'"],
    ["??da", "bun -e 'x'"], ["??da", "bun --eval 'x'"], ["??da", "bun -p 1"], ["aada", "bun run build"], ["aada", "bun test"],
    ["??da", "perl -e 'unlink glob(\"*\")'"], ["??da", "perl -ne 'print' src/a.ts"], ["??da", "perl -lne 'print' src/a.ts"],
    ["??da", "perl -pi -e 's/a/b/' src/a.ts"], ["??da", "perl -0777 -ne 'print'"], ["??da", "perl -E 'say 1'"], ["aada", "perl script.pl"],
    ["??da", "ruby -e 'x'"], ["??da", "ruby -rjson -e 'x'"], ["??da", "ruby -I lib -e 'x'"], ["aada", "ruby script.rb"],
    ["??da", "osascript -e 'tell app \"Finder\" to delete every item'"], ["??da", "osascript -l JavaScript -e 'x'"], ["aada", "osascript script.scpt"],
    ["dddd", "deno eval 'Deno.removeSync(\"/\")'"], ["aada", "deno run main.ts"], ["??da", "uv run python -c 'x'"], ["??da", "uv run --with rich python -c 'x'"],
    ["aada", "uv run pytest"], ["??da", "php -r 'system(\"ls\");'"], ["??da", "Rscript -e 'x'"], ["??da", "lua -e 'x'"],
    ["??da", "bash -c \"$CODE\""], ["??da", "sh -c \"$CODE\""], ["aada", "bash script.sh"], ["??da", "sh -c 'python -c 1'"],
    ["??da", "xargs python -c 'x'"], ["??da", "sudo python -c 'x'"], ["dddd", "python -c 'x'; rm -rf /"],
    // code in a module option: perl writes -M's text after `use`, node loads a data: URL
    ["??da", "perl -M'strict;system(q{id})' /dev/null"], ["??da", "perl -M'strict qw{x},system q{id}' x.pl"], ["??da", "perl -wM'strict;1' x.pl"],
    ["aada", "perl -MList::Util=sum script.pl"], ["aada", "perl -Mstrict -w script.pl"], ["??da", "perl -d:'Foo;system(1)' x.pl"],
    ["??da", "node --import 'data:text/javascript,x' x.js"], ["??da", "node --require=data:text/javascript,x app.js"], ["??da", "node -r \"$MOD\" app.js"],
    ["aada", "node --import ./register.js app.js"], ["aada", "node -r dotenv/config app.js"],
  ], command);
});

test("bash: programs fed on stdin are inline code too; a shell's literal script is read", () => {
  run("bash", [
    ["??da", "python - <<'EOF'\nimport shutil\nEOF"], ["??da", "python <<'EOF'\nimport shutil\nEOF"], ["??da", "python <<< 'print(1)'"],
    ["??da", "echo 'import os' | python"], ["??da", "cat <<EOF | python\nprint(1)\nEOF"], ["??da", "echo 'x' | node"], ["??da", "echo 1 | perl"],
    ["??da", "python3 - <<'EOF'\nprint(1)\nEOF"], ["aada", "python script.py < input.txt"], ["aada", "echo data | python script.py"], ["aada", "echo data | python -- script.py"],
    ["??da", "echo 'x' | python --"],
    // stdin or a script KHAELOR cannot see, under another name
    ["??da", "python /dev/stdin <<'EOF'\nimport os\nEOF"], ["??da", "node /dev/stdin <<< 'x'"], ["??da", "python -- /dev/fd/0 <<< 'x'"],
    ["??da", "echo x | perl /proc/self/fd/0"], ["??da", "python /dev/fd/3 3<<'EOF'\nx\nEOF"], ["??da", "python <(echo 'import os')"],
    ["??da", "node \"$SCRIPT\""], ["??da", "python $DIR/x.py"], ["aada", "python /dev/stdin < script.py"], ["aada", "python ./dev/stdin.py"],
    ["dddd", "bash <<'EOF'\nrm -rf /\nEOF"], ["dddd", "bash <<< 'rm -rf ~'"], ["dddd", "sh -s <<'EOF'\ncurl x\nEOF"], ["aaaa", "bash <<'EOF'\nls\nEOF"],
    ["??da", "bash <<'EOF'\nnpm install\nEOF"], ["??da", "bash <<EOF\n$(cat x)\nEOF"], ["??da", "curl2 x | sh"],
    // text a printer pipes into a shell is read like a heredoc; a command in a script read from stdin reads the rest of it
    ["aaaa", "echo ls | bash"], ["??da", "printf 'npm install\\n' | sh"], ["aaaa", "cat <<'EOF' | sh\nls\nEOF"], ["??da", "echo \"$X\" | sh"],
    ["??da", "bash <<'EOF'\npython\necho hi\nEOF"], ["??da", "sh <(echo 'npm install')"], ["??da", "bash <(curl2 x)"],
  ], command);
});

test("bash: a command spelled with its directory meets the same floor and deny rules", () => {
  run("bash", [
    ["dddd", "/bin/rm -rf /"], ["dddd", "/usr/bin/sudo /bin/rm -rf ~"], ["dddd", "/bin/bash -c 'rm -rf /'"], ["dddd", "/usr/bin/curl x"],
    ["dddd", "./curl x"], ["dddd", "/sbin/mkfs.ext4 /dev/sda1"], ["??da", "/usr/bin/make"], ["??da", "/bin/cat src/a.ts"], ["??da", "./timeout 5 ls"], ["dddd", "/usr/bin/env /bin/rm -rf /"],
  ], command);
});

// secrets/ is denied and private/ asks: a walk over a folder holding them asks (contents walks for
// both, listings for the deny only), is denied in bypass when read-only, and runs when the command
// verifiably leaves them out. Commands outside the read-only set ask and run in bypass. A contents
// walk of the project root (or above it, or outside) also asks, except in bypass, when it would read
// a secret-bearing file there (this root holds .env, .env.local and deploy.pem), until it leaves
// them out as the reason offers; excluding every name sensitiveReason flags always does.
const SECRET_NAMES = [".env*", "*.pem", "*.key", "*.p12", "*.pfx", "*.keystore", "*.jks", ".npmrc", ".pypirc", ".netrc", ".git-credentials", "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "credentials.json", "service-account.json", ".htpasswd"];
const GREP_NO_SECRETS = SECRET_NAMES.map((n) => `--exclude='${n}'`).join(" ");
const RG_NO_KEYS = SECRET_NAMES.filter((n) => !n.startsWith(".")).map((n) => `-g '!${n}'`).join(" ");
const GIT_NO_SECRETS = SECRET_NAMES.map((n) => `':!*${n.replace(/^\*/, "")}'`).join(" ");

test("bash: walking a folder that holds a denied path", () => {
  run("bash", [
    ["???d", "grep -r TOKEN ."], ["???d", "grep -R TOKEN ."], ["???d", "grep -rl TOKEN"], ["???d", "grep -r TOKEN .."], ["???d", "grep -r TOKEN {root}"],
    ["???d", "grep -r TOKEN /"], ["???d", "cd src && grep -r TOKEN .."], ["aaaa", "grep -rn TOKEN src"], ["???d", "egrep -r TOKEN"],
    ["???a", "grep -r --exclude-dir=secrets TOKEN ."], ["???a", "grep -r --exclude-dir=secrets --exclude-dir=private TOKEN ."],
    ["???a", "grep -r TOKEN . --exclude-dir={secrets,private}"], ["aaaa", `grep -r --exclude-dir=secrets --exclude-dir=private ${GREP_NO_SECRETS} TOKEN .`],
    ["???a", `grep -r --exclude-dir=secrets --exclude-dir=private ${GREP_NO_SECRETS.replace("--exclude='.env*'", "--exclude=.env")} TOKEN .`],
    ["aaaa", "grep -r --include='*.ts' --exclude='.env*' --exclude-dir=secrets --exclude-dir=private TOKEN ."],
    ["???a", "grep -r --exclude='.env*' --include='*.ts' --exclude-dir=secrets --exclude-dir=private TOKEN ."],
    ["???a", "cd src && grep -r --exclude-dir=secrets --exclude-dir=private TOKEN .."], ["aaaa", "grep -r TOKEN src docs"], ["???d", "grep -r --exclude-dir=secrets/ --exclude-dir=private TOKEN ."],
    ["???d", "grep -R --exclude-dir=secrets --exclude-dir=private TOKEN ."], ["???d", "grep -r --exclude-dir=$X --exclude-dir=private TOKEN ."],
    ["???d", "rg TOKEN"], ["???d", "rg TOKEN ."], ["???d", "rg -l TOKEN"], ["aaaa", "rg TOKEN src"], ["???a", "rg -g '!secrets' -g '!private' TOKEN"],
    ["aaaa", `rg -g '!secrets' -g '!private' ${RG_NO_KEYS} TOKEN`], ["???a", "rg -g '!secrets/**' -g '!private/**' TOKEN ."], ["???d", "rg -g '!secrets/**' -g '!private/**' TOKEN src/.."],
    // a whitelist reads only what it matches: `*.ts` matches none of the secret files at the root
    ["???d", "rg -g '!secrets' -g '!private' -g 'sec*' TOKEN"], ["aaaa", "rg -g '!secrets' -g '!private' -g '*.ts' TOKEN"], ["???a", "rg -g '!secrets' -g '!private' -g '*.ts' -g '.env*' TOKEN"],
    ["aaaa", "rg -g '!secrets' -g '!private' -g '*.ts' -g '!.env*' TOKEN"], ["???d", "rg -L -g '!secrets' -g '!private' TOKEN"],
    ["???d", "rg --files"], ["aaaa", "rg --files -g '!secrets'"], ["???a", "rg --max-depth 1 TOKEN"],
    // rg skips hidden files only without --hidden, -uu, a positive glob or a type, which read the ones they match
    ["???a", `rg -g '*' -g '!secrets' -g '!private' ${RG_NO_KEYS} TOKEN`], ["???a", `rg -t ts -g '!secrets' -g '!private' ${RG_NO_KEYS} TOKEN`],
    ["aaaa", `rg --hidden --no-hidden -g '!secrets' -g '!private' ${RG_NO_KEYS} TOKEN`], ["aaaa", `rg -L --no-follow -g '!secrets' -g '!private' ${RG_NO_KEYS} TOKEN`],
    // a ripgrep config set by the command itself may add --pre, --hidden or --follow
    ["??da", "RIPGREP_CONFIG_PATH=/tmp/rg.conf rg TOKEN src"], ["??da", "export RIPGREP_CONFIG_PATH=/tmp/rg.conf; rg TOKEN src"],
    ["aaaa", "RIPGREP_CONFIG_PATH=/tmp/rg.conf; unset RIPGREP_CONFIG_PATH; rg --no-config TOKEN src"],
    ["??da", "ag TOKEN"], ["??da", "ack TOKEN"], ["??da", "ag TOKEN src"],
    ["???d", "git grep TOKEN"], ["aaaa", "git grep TOKEN -- src"], ["???a", "git grep TOKEN -- . ':!secrets' ':!private'"],
    ["aaaa", `git grep TOKEN -- . ':!secrets' ':!private' ${GIT_NO_SECRETS}`], ["???d", `git --literal-pathspecs grep TOKEN -- . ':!secrets' ':!private' ${GIT_NO_SECRETS}`], ["???d", "git grep TOKEN src"],
    // `:/` and `:(top)` name paths from the top of the work tree, wherever git runs; a pathspec git reads at run time may too
    ["???d", "cd src && git grep TOKEN -- ':/'"], ["???d", "git -C src grep TOKEN -- ':(top)'"], ["???d", "cd src && git ls-files :/"], ["???d", "cd src && git grep TOKEN -- $P"],
    ["aaaa", "cd src && git grep TOKEN -- ':!/secrets'"],
    ["aaaa", "git -C src grep TOKEN"], ["dddd", "git grep TOKEN -- secrets"], ["???a", "git grep TOKEN -- private"], ["aaaa", "rg --version"], ["???d", "git ls-files"], ["aaaa", "git ls-files ':!secrets'"],
    ["???d", "find . -name '*.txt'"], ["???d", "find"], ["aaaa", "find . -path ./secrets -prune -o -name '*.txt' -print"], ["aaaa", "find . -name secrets -prune -o -print"],
    ["aaaa", "find . -type d -name secrets -prune -o -print"], ["aaaa", "find . \\( -name secrets -o -name node_modules \\) -prune -o -print"],
    ["???d", "find . -depth -path ./secrets -prune -o -print"], ["???d", "find . -print -path ./secrets -prune"], ["aaaa", "find . -maxdepth 1"], ["???d", "find . -maxdepth 2"],
    ["aaaa", "find src -name '*.ts'"], ["???d", "find -L src -name '*.ts'"], ["??da", "find . -name '*.txt' -exec cat {} \\;"], ["???d", "find . -print0 | xargs -0 cat"],
    ["???d", "ls -R"], ["???d", "ls -Ra"], ["aaaa", "ls -R src"], ["aaaa", "ls -la"], ["dddd", "ls *"], ["aaaa", "ls -d s*/"],
    ["???d", "tree"], ["aaaa", "tree -I secrets"], ["aaaa", "tree -I 'node_modules|secrets'"], ["aaaa", "tree -L 1"], ["aaaa", "tree src"],
    ["???d", "du -a"], ["???d", "du -h"], ["aaaa", "du -h -d 1 ."], ["aaaa", "du -a src"],
    ["??da", "tar c ."], ["??da", "tar czf /tmp/x.tgz ."], ["??da", "tar -czf out.tgz --exclude=secrets ."], ["??da", "tar czf out.tgz src"], ["??da", "tar -C src -czf out.tgz ."],
    ["??da", "zip -r /tmp/x.zip ."], ["??da", "zip -r x.zip src"], ["??da", "zip -ry x.zip src"],
    ["??da", "cp -r . /tmp/x"], ["??da", "cp -r . backup"], ["?ada", "cp -r src backup"], ["ddda", "cp secrets/key.txt /tmp/x"], ["ddda", "cp -r link-secrets /tmp/x"],
    ["??da", "mv secrets public"], ["??da", "mv private public"],
    ["??da", "rsync -a . /tmp/x"], ["??da", "rsync -a --exclude=secrets . /tmp/x"],
    ["dddd", "cat **/*"], ["dddd", "cat */*"], ["dddd", "cat l*/*"], ["dddd", "head -n 5 secrets/*"], ["dddd", "grep -r TOKEN *"], ["dddd", "grep -r TOKEN l*"],
    ["aaaa", "grep TOKEN src/*"], ["dddd", "grep TOKEN *"],
    ["???d", "grep -r TOKEN ~"], ["???d", "ls -R ~"], ["???a", "ls ~"], ["???d", "grep -r TOKEN /srv"], ["???a", "find /srv -maxdepth 1"], ["???d", "du -a /srv"],
    ["???a", "grep -r TOKEN $DIR"], ["???a", "du --files0-from=list.txt"],
    // diff prints what differs in the trees it compares; git's diff and history views print what git tracks (this fixture's .git is not a real repository, so git cannot say what it tracks: it is taken to track everything)
    ["???d", "diff -rN docs ."], ["???d", "diff -r src docs"], ["???a", "diff docs ."], ["???d", "git diff --no-index docs ."],
    ["dddd", "git show HEAD:secrets/key.txt"], ["dddd", "git cat-file -p HEAD:secrets/key.txt"], ["dddd", "git -C src show HEAD:secrets/key.txt"], ["dddd", "git show :./secrets/key.txt"],
    ["dddd", "cd src && git show HEAD:../secrets/key.txt"], ["???a", "git show HEAD:private/notes.md"], ["???a", "git show HEAD~2:.env"], ["dddd", "git blame secrets/key.txt"],
    ["???a", "echo HEAD:.env | git cat-file --batch"], ["aaaa", "git show HEAD:src/a.ts HEAD:docs/readme.md"],
    ["???d", "git show"], ["???d", "git diff --stat"], ["dddd", "git log -p -- secrets"], ["dddd", "git log -p secrets"], ["???a", "git diff -- private"],
    ["???d", "git log -G TOKEN"], ["???a", "git log -p -- . ':!secrets'"], ["aaaa", "git log -p -- . ':!secrets' ':!private'"],
  ], command);
  run("process", [["??da", "rg TOKEN"], ["??da", "rg TOKEN src"]], (c) => ({ action: "start", command: c }));
});

// Whether a secret file is there to be read is looked up: the walk's start folder is listed once,
// and a walk of the root asks only about the secret-bearing files directly in it that it would
// read, not those it leaves out by its exclusions, a whitelist, rg's hidden-file skipping, or
// git's view of the tree (rg skips what git ignores, git grep reads tracked files). A secret file
// deeper down is the known limit of bash walks (the grep tool checks every file it searches).
test("bash: a walk of a project root asks only about the secret files at its top that it would read", async () => {
  const at = async (name: string, files: Record<string, string>, git?: { add: string[] }) => {
    const root = addProject(fx, name, files, git);
    return { root, engine: await createPermissionEngine({ projectRoot: root, home: fx.home, configHome: fx.configHome, projectSettings: trustedProject }) };
  };
  const src = { "src/a.ts": "// TODO\n", "README.md": "foo\n" };
  run("bash", [
    ["aaaa", "rg TODO"], ["aaaa", "grep -rn foo ."], ["aaaa", "git grep foo"], ["aaaa", "rg --hidden -uu TODO"],
  ], command, await at("plain", src));
  run("bash", [["aaaa", "grep -rn foo ."], ["aaaa", "rg --hidden TODO"]], command, await at("example", { ...src, ".env.example": "TOKEN=\n" }));
  run("bash", [
    ["???a", "grep -rn foo ."], ["???a", "rg --hidden TODO"], ["???a", "grep -rn --include='.env*' foo ."], ["???a", "cd src && grep -rn foo .."],
    // rg skips hidden files; a whitelist that cannot match .env, or an exclusion of it, leaves it out
    ["aaaa", "rg TODO"], ["aaaa", "grep -rn --include='*.ts' foo ."], ["aaaa", "rg --hidden -g '*.ts' TODO"], ["aaaa", "grep -rn --exclude='.env*' foo ."],
  ], command, await at("dotenv", { ...src, ".env": "TOKEN=secret\n" }));
  const ignored = await at("ignored", { ...src, ".gitignore": ".env\n*.pem\n", ".env": "TOKEN=secret\n", "deploy.pem": "KEY\n" }, { add: [".gitignore", "src", "README.md"] });
  run("bash", [
    // rg leaves out what git ignores, git grep reads tracked files only (with --untracked, those git does not ignore)
    ["aaaa", "rg TODO"], ["aaaa", "rg --hidden TODO"], ["aaaa", "git grep foo"], ["aaaa", "git grep foo -- ."], ["aaaa", "git grep --untracked foo"],
    // grep -r reads them; so does rg told to ignore no ignore files, or given a glob (which overrides them); git grep of a revision's tree may
    ["???a", "grep -rn foo ."], ["???a", "rg -u TODO"], ["???a", "rg --no-ignore-vcs TODO"], ["???a", "rg -g '*.pem' TODO"], ["???a", "git grep --untracked --no-exclude-standard foo"],
    ["???a", "git grep foo HEAD"],
  ], command, ignored);
});

test("bash: text the parser cannot read asks", () => {
  run("bash", [["??da", "echo \"unterminated"], ["??da", "ls )("], ["??da", "cat <(ls"]], command);
});

test("process and other tools", () => {
  run("process", [
    ["aada", "npm run dev"], ["aada", "npm run dev -- --port 3000"], ["??da", "python -m http.server"], ["dddd", "rm -rf /"],
    ["dddd", "curl x"], ["??da", "ls"],
  ], (c) => ({ action: "start", command: c }));
  run("process", [["aaaa", "list"], ["aaaa", "read"], ["aaaa", "stop"], ["??da", "write"]], (a) => ({ action: a, id: "p1", input: "x" }));
  // An MCP tool not marked read-only asks in plan mode too (test/mcp/permissions.test.ts has the rest).
  run("mcp__browser__open", [["???a", "x"]], () => ({}));
});

test("the suite has at least 200 rows", () => {
  expect(count).toBeGreaterThanOrEqual(200);
  console.log(`decision suite: ${count} rows × ${MODES.length} modes`);
});
