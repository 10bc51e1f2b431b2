// Inline interpreter code through the public engine: what the user is told, and what "allow
// always" offers. The decisions per mode are rows of the decision suite.
import { afterEach, expect, test } from "bun:test";
import { createPermissionEngine } from "../../src/permissions/index.ts";
import { makeFixture, type Fixture, trustedProject } from "./fixture.ts";

let fx: Fixture | undefined;
afterEach(() => fx?.cleanup());

const open = async (allow: string[]) => {
  fx = makeFixture({ project: { permissions: { allow } } });
  const engine = await createPermissionEngine({ projectRoot: fx.root, home: fx.home, configHome: fx.configHome, projectSettings: trustedProject });
  const root = fx.root;
  return { engine, decide: (command: string) => engine.decide({ tool: "bash", input: { command }, cwd: root }) };
};

test("the prompt says the text is code KHAELOR cannot check, and which rule does not cover it", async () => {
  const { decide } = await open(["Bash(python:*)"]);
  const d = decide("python -c \"import shutil; shutil.rmtree('build')\"");
  expect(d.behavior).toBe("ask");
  expect(d.reason).toContain("runs python code given with -c, which KHAELOR cannot check; allow it only after reading the code");
  expect(d.reason).toContain("Bash(python:*) does not cover inline code (only a rule naming `python -c` itself does)");
  const fed = decide("python - <<'EOF'\nimport os\nEOF");
  expect(fed.reason).toContain("runs python code fed on stdin");
  expect(fed.reason).toContain("Bash(python:*) does not cover code fed on stdin");
  expect(fed.suggestion).toBeUndefined();
  // a script named by a process substitution or a variable cannot be read either, nor allowed always
  const hidden = decide("python <(echo 'import os')");
  expect(hidden.reason).toContain("runs python code read from a script only known when it runs");
  expect(hidden.reason).toContain("Bash(python:*) does not cover code read from a script only known when it runs");
  expect(hidden.suggestion).toBeUndefined();
});

test("'allow always' offers exactly that code, and granting it allows no other code", async () => {
  const { engine, decide } = await open([]);
  const d = decide("node -e 'console.log(1)'");
  expect(d.suggestion).toEqual({ rule: "Bash(node -e console.log(1))", rules: ["Bash(node -e console.log(1))"], description: "always allow exactly this node code" });
  expect(engine.grant(d.suggestion!.rule, "session")).toMatchObject({ ok: true });
  expect(decide("node -e 'console.log(1)'").behavior).toBe("allow");
  expect(decide("node -e 'console.log(2)'").behavior).toBe("ask");
  // wrappers and runners get the same exact offer for what really runs
  expect(decide("timeout 5 perl -ne 'print' f.txt").suggestion?.rule).toBe("Bash(perl -ne print f.txt)");
  expect(decide("uv run python -c 'print(2)'").suggestion?.rule).toBe("Bash(uv run python -c print(2))");
  // code an exact rule cannot say again gets no offer
  expect(decide("python -c \"$CODE\"").suggestion).toBeUndefined();
  expect(decide("python -c 'a = 1\nprint(a)'").suggestion).toBeUndefined();
});

test("a rule that names the code option, or the whole Bash tool, does cover it", async () => {
  const { engine, decide } = await open(["Bash(python3 -c *)", "Bash(perl -ne:*)"]);
  expect(decide("python3 -c 'print(1)'").behavior).toBe("allow");
  expect(decide("perl -ne 'print' f").behavior).toBe("allow");
  expect(decide("perl -e 'print'").behavior).toBe("ask");
  engine.grant("Bash", "session");
  expect(decide("ruby -e 'x'").behavior).toBe("allow");
  expect(decide("echo 'import os' | python3").behavior).toBe("allow");
});
