// --json-schema, as Claude Code: a StructuredOutput tool whose input schema is the user's; a call that
// does not match is an error the model sees (and retries), a matching one ends the turn and is the
// result's structured_output; a model that never calls it is reminded once, then the run fails.
import { expect, test } from "bun:test";
import { fakeApiFixture } from "../support/fake-api.ts";
import { isolatedEnv, runCli, tempProject } from "../support/cli.ts";

const serve = fakeApiFixture();
const schema = JSON.stringify({ type: "object", properties: { n: { type: "number" } }, required: ["n"], additionalProperties: false });
type Body = { tools?: { name: string; input_schema: unknown }[]; messages: { role: string; content: unknown }[] };

test("an invalid call is an error result; the valid one ends the turn and is structured_output", async () => {
  const server = await serve({
    turns: [
      { content: [{ type: "tool_use", name: "StructuredOutput", input: { n: "three" } }] },
      { content: [{ type: "tool_use", name: "StructuredOutput", input: { n: 3 } }], expect: { lastHasToolResult: { isError: true, contentMatches: "Output does not match required schema: /n: must be number" } } },
    ],
  });
  const r = await runCli(["-p", "count", "--output-format", "json", "--json-schema", schema], { cwd: tempProject(), env: isolatedEnv(server.url) });
  expect(server.checkFailures).toEqual([]);
  const first = server.requests[0]!.body as Body;
  expect(first.tools?.find((t) => t.name === "StructuredOutput")?.input_schema).toEqual(JSON.parse(schema));
  expect(server.requests.filter((q) => q.outcome === "served")).toHaveLength(2);
  const result = JSON.parse(r.stdout) as Record<string, unknown>;
  expect(result).toMatchObject({ subtype: "success", is_error: false, structured_output: { n: 3 }, result: '{"n":3}' });
  expect(r.code).toBe(0);
});

test("a model that answers in text is reminded once with Claude Code's words; still none: the run fails", async () => {
  const server = await serve({ turns: [{ content: [{ type: "text", text: "three" }] }, { content: [{ type: "text", text: "still three" }] }] });
  const r = await runCli(["-p", "count", "--output-format", "json", "--json-schema", schema], { cwd: tempProject(), env: isolatedEnv(server.url) });
  const second = server.requests[1]!.body as Body;
  expect(JSON.stringify(second.messages.at(-1))).toContain("[structured-output-enforce] You MUST call the StructuredOutput tool");
  const result = JSON.parse(r.stdout) as Record<string, unknown>;
  expect(result).toMatchObject({ is_error: true });
  expect(String(result.error)).toContain("no answer matching --json-schema");
  expect(result.structured_output).toBeUndefined();
  expect(r.code).toBe(1);
});

test("text output prints the object as JSON", async () => {
  const server = await serve({ turns: [{ content: [{ type: "tool_use", name: "StructuredOutput", input: { n: 7 } }] }] });
  const r = await runCli(["-p", "count", "--json-schema", schema], { cwd: tempProject(), env: isolatedEnv(server.url) });
  expect(r.stdout).toBe('{"n":7}\n');
  expect(r.code).toBe(0);
});
