// Claude through the clouds, end to end: the real CLI and Anthropic's real client packages against
// fakes of each cloud's wire format on loopback (test/support/clouds). A session streams, calls a
// tool and resumes exactly as a first-party one does; each fake checks the request as its cloud would.
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isolatedEnv, parseNdjson, runCli, tempProject } from "../support/cli.ts";
import { startCloudFake, type CloudAuth, type CloudFake, type CloudKind } from "../support/clouds/cloud-fake.ts";

let fakes: CloudFake[] = [];
afterEach(async () => {
  await Promise.all(fakes.map((f) => f.close()));
  fakes = [];
});

const READ_THEN_ANSWER = {
  turns: [
    { content: [{ type: "text", text: "Reading." }, { type: "tool_use", name: "read", input: { file_path: "notes.txt" } }] },
    { content: [{ type: "text", text: "The note says alpha." }], expect: { lastHasToolResult: { isError: false, contentMatches: "alpha" } } },
    // The resumed session's request carries the whole conversation.
    { content: [{ type: "text", text: "Still alpha." }], expect: { messageCount: 5, lastTextMatches: "again" } },
  ],
};

async function cloud(kind: CloudKind, auth: CloudAuth, extra: { project?: string; region?: string } = {}, scenario: object = READ_THEN_ANSWER) {
  const f = await startCloudFake(kind, { scenario: scenario as never, auth, ...extra });
  fakes.push(f);
  return f;
}

/** A run, then the same session resumed: both must go through the cloud. */
async function streamToolResume(env: Record<string, string>) {
  const dir = tempProject();
  writeFileSync(join(dir, "notes.txt"), "alpha\n");
  const first = await runCli(["-p", "what does notes.txt say?", "--output-format", "stream-json", "--permission-mode", "bypassPermissions"], { cwd: dir, env });
  const again = await runCli(["-p", "again", "--continue"], { cwd: dir, env });
  return { dir, first, again, lines: parseNdjson(first.stdout) };
}

const AWS = { AWS_ACCESS_KEY_ID: "AKIDFAKE0123456789", AWS_SECRET_ACCESS_KEY: "fake/secret+key", AWS_SESSION_TOKEN: "fake-session-token", AWS_EC2_METADATA_DISABLED: "true" };

describe("Amazon Bedrock", () => {
  test("a SigV4-signed session streams, calls a tool and resumes; the answer comes in event-stream frames", async () => {
    const f = await cloud("bedrock", { type: "sigv4", expect: { accessKeyId: AWS.AWS_ACCESS_KEY_ID, secretAccessKey: AWS.AWS_SECRET_ACCESS_KEY, region: "eu-west-3", sessionToken: AWS.AWS_SESSION_TOKEN } });
    const env = isolatedEnv(null, { CLAUDE_CODE_USE_BEDROCK: "1", AWS_REGION: "eu-west-3", ANTHROPIC_BEDROCK_BASE_URL: f.url, ...AWS });
    const r = await streamToolResume(env);
    expect(f.problems).toEqual([]);
    expect(f.inner.checkFailures).toEqual([]);
    expect(r.lines.at(-1)).toMatchObject({ type: "result", subtype: "success", result: "The note says alpha." });
    expect(r.again.stdout).toBe("Still alpha.\n");
    expect(r.first.code).toBe(0);
    expect(r.again.code).toBe(0);
    // KHAELOR's default model, as Bedrock's global inference profile; never the environment's Anthropic key.
    expect(f.requests.map((q) => q.model)).toEqual(Array(3).fill("global.anthropic.claude-sonnet-5-5"));
    for (const q of f.requests) expect(q.headers["x-api-key"]).toBeUndefined();
    // Bedrock runs neither web tool: they are left out, and the start says so.
    expect(r.lines[0]!.tools).not.toContain("WebSearch");
    for (const q of f.requests) expect(JSON.stringify(q.body.tools)).not.toMatch(/web_search|web_fetch/);
    expect(r.first.stderr).toContain("using Amazon Bedrock (region eu-west-3");
    expect(r.first.stderr).toContain("credentials: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY with AWS_SESSION_TOKEN");
    expect(r.first.stderr).toContain("Amazon Bedrock does not run the API's web search and web fetch");
    expect(r.first.stderr).not.toContain(AWS.AWS_SECRET_ACCESS_KEY);
  });

  test("a Bedrock API key (AWS_BEARER_TOKEN_BEDROCK) is sent as a bearer token, unsigned", async () => {
    const f = await cloud("bedrock", { type: "bearer", token: "bedrock-api-key-123" });
    const env = isolatedEnv(null, { CLAUDE_CODE_USE_BEDROCK: "1", AWS_REGION: "us-east-1", ANTHROPIC_BEDROCK_BASE_URL: f.url, AWS_BEARER_TOKEN_BEDROCK: "bedrock-api-key-123", ANTHROPIC_MODEL: "us.anthropic.claude-haiku-4-5-20251001-v1:0" });
    const r = await streamToolResume(env);
    expect(f.problems).toEqual([]);
    expect(r.again.stdout).toBe("Still alpha.\n");
    expect(f.requests[0]!.model).toBe("us.anthropic.claude-haiku-4-5-20251001-v1:0");
    expect(f.requests[0]!.headers["x-amz-date"]).toBeUndefined();
    // A regional profile costs 10% more than the list price.
    const result = r.lines.at(-1)!;
    const usage = result.usage as { input_tokens: number; output_tokens: number; cache_read_input_tokens: number; cache_creation_input_tokens: number };
    const list = (usage.input_tokens * 1 + usage.output_tokens * 5 + usage.cache_creation_input_tokens * 1.25 + usage.cache_read_input_tokens * 0.1) / 1e6;
    expect(result.total_cost_usd as number).toBeCloseTo(list * 1.1, 9);
  });
});

describe("Google Vertex AI", () => {
  test("a session streams, calls a tool and resumes through :streamRawPredict with Google's bearer token", async () => {
    const token = await googleTokenServer("ya29.fake-access-token");
    const f = await cloud("vertex", { type: "bearer", token: "ya29.fake-access-token" }, { project: "my-proj", region: "us-east5" });
    const env = isolatedEnv(null, { CLAUDE_CODE_USE_VERTEX: "1", CLOUD_ML_REGION: "us-east5", ANTHROPIC_VERTEX_PROJECT_ID: "my-proj", ANTHROPIC_VERTEX_BASE_URL: `${f.url}/v1` });
    env.GOOGLE_APPLICATION_CREDENTIALS = token.credentialsFile(env.HOME!);
    const r = await streamToolResume(env);
    expect(f.problems).toEqual([]);
    expect(f.inner.checkFailures).toEqual([]);
    expect(r.lines.at(-1)).toMatchObject({ type: "result", subtype: "success", result: "The note says alpha." });
    expect(r.again.stdout).toBe("Still alpha.\n");
    expect(f.requests.map((q) => q.model)).toEqual(Array(3).fill("claude-sonnet-5-5"));
    // Vertex runs web search but not web fetch.
    expect(r.lines[0]!.tools).toContain("WebSearch");
    expect(r.lines[0]!.tools).not.toContain("WebFetch");
    expect(r.first.stderr).toContain("using Google Vertex AI (region us-east5, project my-proj");
    expect(r.first.stderr).toContain("Google Vertex AI does not run the API's web fetch");
    token.close();
  });
});

describe("Microsoft Foundry", () => {
  test("a session streams, calls a tool and resumes with the resource's key; the model is the deployment", async () => {
    const f = await cloud("foundry", { type: "x-api-key", key: "foundry-key-1" });
    const env = isolatedEnv(null, { CLAUDE_CODE_USE_FOUNDRY: "1", ANTHROPIC_FOUNDRY_BASE_URL: `${f.url}/anthropic`, ANTHROPIC_FOUNDRY_API_KEY: "foundry-key-1", ANTHROPIC_DEFAULT_SONNET_MODEL: "claude-sonnet-5-5" });
    const r = await streamToolResume(env);
    expect(f.problems).toEqual([]);
    expect(r.lines.at(-1)).toMatchObject({ type: "result", subtype: "success", result: "The note says alpha." });
    expect(r.again.stdout).toBe("Still alpha.\n");
    expect(r.first.stderr).toContain("using Microsoft Foundry");
    expect(r.first.stderr).toContain("costs shown are estimates");
  });
});

/**
 * Google's application default credentials without Google: an external-account file whose token
 * exchange (STS) is this loopback server. The Vertex package gets its token the way it would.
 */
async function googleTokenServer(accessToken: string) {
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: () => Response.json({ access_token: accessToken, issued_token_type: "urn:ietf:params:oauth:token-type:access_token", token_type: "Bearer", expires_in: 3600 }),
  });
  return {
    credentialsFile(home: string) {
      const dir = join(home, "gcp");
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, "subject.jwt"), "header.payload.signature");
      const file = join(dir, "adc.json");
      writeFileSync(
        file,
        JSON.stringify({
          type: "external_account",
          // No project number: the library would look the project up at Google.
          audience: "//iam.googleapis.com/locations/global/workloadIdentityPools/p/providers/q",
          subject_token_type: "urn:ietf:params:oauth:token-type:jwt",
          token_url: `http://127.0.0.1:${server.port}/v1/token`,
          credential_source: { file: join(dir, "subject.jwt") },
        }),
      );
      return file;
    },
    close: () => void server.stop(true),
  };
}

