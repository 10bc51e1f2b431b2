// The script `khaelor --demo` replays through the fake API while the real tools work on the sample
// project: stream markdown (a table, a code block), read, edit, run the tests, start, read and stop
// a background server, then sum up. Every answer says plainly that it is scripted.
// No `expect` checks: a user who denies a tool in the demo should see the script go on, not a 400.
import type { Scenario } from "../fakeapi/scenario.ts";
import { parseScenario } from "../fakeapi/scenario.ts";
import { SLUGIFY_BUGGY_LINES, SLUGIFY_FIXED_LINES } from "./sample-project.ts";

const FENCE = "```";

const INTRO = `> **Scripted demo.** No model is being called: every answer is replayed from a script by a local fake API. The tools are real, and they work on a temporary copy of a small sample project.

The test for \`slugify\` fails. Here is the plan:

| Step | Tool | Why |
|---|---|---|
| 1 | \`read\` | look at \`slugify\` and its test |
| 2 | \`edit\` | fix the bug |
| 3 | \`bash\` | run the tests |
| 4 | \`process\` | start the HTTP server in the background |

First, the code and its test, read together:`;

const DIAGNOSIS = `Found it. \`slugify\` replaces **each** character outside \`a-z0-9\` with its own dash:

${FENCE}js
slugify("Hello, World!") // "hello--world-", but the test wants "hello-world"
slugify("Crème brûlée")  // "cr-me-br-l-e", but the test wants "creme-brulee"
${FENCE}

The fix: strip accents first, turn each *run* of other characters into one dash, and trim dashes at both ends.`;

const SUMMARY = `## Summary

- **Bug:** \`slugify\` turned every character outside \`a-z0-9\` into its own dash, and accented letters with it.
- **Fix:** \`src/slugify.js\` now strips accents, collapses runs into a single dash and trims both ends.
- **Checked:** ran \`test/slugify.test.js\` (its output is above), then started the server, waited for it to listen, and stopped it.

| File | Change |
|---|---|
| \`src/slugify.js\` | +4 −1 |

That was a **scripted demo**: the answers were replayed, the tool calls were real. To work on your own code, set \`ANTHROPIC_API_KEY\` and run \`khaelor\` in your project.`;

/** Streams at a readable pace; tests override `pacing` to run it at full speed. */
export const demoScenario: Scenario = parseScenario({
  name: "khaelor-demo",
  pacing: { textChunk: 6, delayMs: 12 },
  whenDone: { type: "text", text: "(Scripted demo: the script has ended. Set ANTHROPIC_API_KEY and run `khaelor` to talk to a real model.)" },
  turns: [
    {
      content: [
        {
          type: "thinking",
          thinking: "A failing test. Before changing anything I should read the function and the test that exercises it.",
        },
        { type: "text", text: INTRO },
        { type: "tool_use", name: "read", input: { file_path: "src/slugify.js" } },
        { type: "tool_use", name: "read", input: { file_path: "test/slugify.test.js" } },
      ],
    },
    {
      content: [
        { type: "text", text: DIAGNOSIS },
        { type: "tool_use", name: "edit", input: { file_path: "src/slugify.js", old_string: SLUGIFY_BUGGY_LINES, new_string: SLUGIFY_FIXED_LINES } },
      ],
    },
    {
      content: [
        { type: "text", text: "Edited. Now the tests:" },
        { type: "tool_use", name: "bash", input: { command: "sh run-js.sh test/slugify.test.js", description: "Run the slugify tests" } },
      ],
    },
    {
      content: [
        {
          type: "text",
          text: "The test output is above. Next, the little HTTP server, started in the background with the `process` tool so it keeps running while the session goes on:",
        },
        { type: "tool_use", name: "process", input: { action: "start", command: "sh run-js.sh server.js", name: "slug-server" } },
      ],
    },
    {
      content: [
        { type: "text", text: "Waiting for it to say it is listening:" },
        { type: "tool_use", name: "process", input: { action: "read", id: "slug-server", wait_for: "Listening on", timeout: 10000 } },
      ],
    },
    {
      content: [
        { type: "text", text: "It is up. Stopping it again, so nothing is left running:" },
        { type: "tool_use", name: "process", input: { action: "stop", id: "slug-server" } },
      ],
    },
    { content: [{ type: "text", text: SUMMARY }] },
  ],
});
