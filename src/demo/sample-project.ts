// The small project `khaelor --demo` works on: a slug function with a bug, its failing test, and a
// tiny server for the background-process step. Kept as text so it ships inside the binary.
// Plain ES modules that run under node or bun, whichever the machine has (run-js.sh picks).
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

export const SLUGIFY_BUGGY_LINES = `    .toLowerCase()
    .replace(/[^a-z0-9]/g, "-");`;

// Not String.raw: Bun's transpiler turns "é" into "\u00E9" inside raw templates.
export const SLUGIFY_FIXED_LINES = `    .normalize("NFKD")
    .replace(/[\\u0300-\\u036f]/g, "") // drop accents: "é" becomes "e"
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-") // one dash for each run of other characters
    .replace(/^-+|-+$/g, ""); // and none at either end`;

const SLUGIFY = `// Turns a title into the last part of a URL: "Hello, World!" -> "hello-world".
export function slugify(title) {
  return title
${SLUGIFY_BUGGY_LINES}
}
`;

const TEST = `import assert from "node:assert/strict";
import { slugify } from "../src/slugify.js";

const cases = [
  ["Hello, World!", "hello-world"],
  ["  Many   spaces  ", "many-spaces"],
  ["Crème brûlée", "creme-brulee"],
  ["already-a-slug", "already-a-slug"],
];

let failed = 0;
for (const [input, expected] of cases) {
  const got = slugify(input);
  try {
    assert.equal(got, expected);
    console.log(\`ok   slugify(\${JSON.stringify(input)}) = \${JSON.stringify(got)}\`);
  } catch {
    failed++;
    console.log(\`FAIL slugify(\${JSON.stringify(input)}) = \${JSON.stringify(got)}, expected \${JSON.stringify(expected)}\`);
  }
}
console.log(failed ? \`\${failed} of \${cases.length} failed\` : \`all \${cases.length} passed\`);
process.exitCode = failed ? 1 : 0;
`;

const SERVER = `import { createServer } from "node:http";
import { slugify } from "./src/slugify.js";

// GET /?title=Some%20Title answers "some-title".
const server = createServer((req, res) => {
  const title = new URL(req.url ?? "/", "http://localhost").searchParams.get("title") ?? "";
  res.end(slugify(title) + "\\n");
});
server.listen(0, "127.0.0.1", () => {
  const { port } = server.address();
  console.log(\`Listening on http://127.0.0.1:\${port}\`);
});
`;

const RUN_JS = `#!/bin/sh
# Runs a JavaScript file with node, or with bun when node is not installed.
if command -v node >/dev/null 2>&1; then exec node "$@"; fi
if command -v bun >/dev/null 2>&1; then exec bun "$@"; fi
echo "run-js.sh: neither node nor bun is installed" >&2
exit 127
`;

const PACKAGE_JSON = `{
  "name": "slugs-demo",
  "version": "1.0.0",
  "private": true,
  "type": "module",
  "scripts": {
    "test": "sh run-js.sh test/slugify.test.js",
    "start": "sh run-js.sh server.js"
  }
}
`;

const README = `# slugs-demo

A tiny project for the KHAELOR scripted demo. \`slugify\` turns titles into URL slugs;
its test fails until the bug is fixed.

    sh run-js.sh test/slugify.test.js   # run the tests
    sh run-js.sh server.js              # serve slugs over HTTP
`;

/** Path (relative to the project root) to content. */
export const SAMPLE_PROJECT_FILES: Readonly<Record<string, string>> = {
  "README.md": README,
  "package.json": PACKAGE_JSON,
  "run-js.sh": RUN_JS,
  "server.js": SERVER,
  "src/slugify.js": SLUGIFY,
  "test/slugify.test.js": TEST,
};

/** Writes the sample project into `dir` (created if needed). */
export function writeSampleProject(dir: string): void {
  for (const [path, content] of Object.entries(SAMPLE_PROJECT_FILES)) {
    const full = join(dir, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content, { mode: path.endsWith(".sh") ? 0o755 : 0o644 });
  }
}
