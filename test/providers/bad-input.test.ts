// What is missing for a cloud is said before anything is sent or written: one line naming what to
// set, exit 2 in print mode, no stack trace. An expired login met mid-session names what to renew.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { isolatedEnv, runCli, tempProject } from "../support/cli.ts";
import { startCloudFake, type CloudFake } from "../support/clouds/cloud-fake.ts";

let fakes: CloudFake[] = [];
afterEach(async () => {
  await Promise.all(fakes.map((f) => f.close()));
  fakes = [];
});

async function refused(env: Record<string, string>, says: string) {
  const full = isolatedEnv(null, { AWS_EC2_METADATA_DISABLED: "true", ...env });
  const r = await runCli(["-p", "hi"], { cwd: tempProject(), env: full });
  expect(r.stderr).toContain(says);
  expect(r.stderr.trim().split("\n")).toHaveLength(1);
  expect(r.stderr).not.toMatch(/\n\s+at |Error:/);
  expect(r.code).toBe(2);
  expect(r.stdout).toBe("");
  return { ...r, env: full };
}

describe("a cloud's missing settings", () => {
  test("Bedrock without a region", () => refused({ CLAUDE_CODE_USE_BEDROCK: "1", AWS_ACCESS_KEY_ID: "AKID", AWS_SECRET_ACCESS_KEY: "s" }, "Amazon Bedrock needs a region: set AWS_REGION"));

  test("Bedrock without any AWS credentials", async () => {
    const r = await refused({ CLAUDE_CODE_USE_BEDROCK: "1", AWS_REGION: "us-east-1" }, "Amazon Bedrock: no usable AWS credentials");
    expect(r.stderr).toContain("AWS_PROFILE");
    // Nothing was written: no empty session left behind.
    expect(existsSync(join(r.env.KHAELOR_HOME!, "sessions"))).toBe(false);
  });

  test("Bedrock with a profile that does not exist", () => refused({ CLAUDE_CODE_USE_BEDROCK: "1", AWS_REGION: "us-east-1", AWS_PROFILE: "nope" }, "Amazon Bedrock: no usable AWS credentials"));

  test("Vertex without a region, without a project, without credentials", async () => {
    await refused({ CLAUDE_CODE_USE_VERTEX: "1", ANTHROPIC_VERTEX_PROJECT_ID: "p" }, "Google Vertex AI needs a region: set CLOUD_ML_REGION");
    await refused({ CLAUDE_CODE_USE_VERTEX: "1", CLOUD_ML_REGION: "global" }, "Google Vertex AI needs a project: set ANTHROPIC_VERTEX_PROJECT_ID");
    await refused({ CLAUDE_CODE_USE_VERTEX: "1", CLOUD_ML_REGION: "global", ANTHROPIC_VERTEX_PROJECT_ID: "p" }, "Google Vertex AI needs credentials: run `gcloud auth application-default login`");
    await refused({ CLAUDE_CODE_USE_VERTEX: "1", CLOUD_ML_REGION: "global", ANTHROPIC_VERTEX_PROJECT_ID: "p", GOOGLE_APPLICATION_CREDENTIALS: "/nonexistent/key.json" }, "GOOGLE_APPLICATION_CREDENTIALS names /nonexistent/key.json, which does not exist");
  });

  test("Foundry without its endpoint, or without credentials", async () => {
    await refused({ CLAUDE_CODE_USE_FOUNDRY: "1", ANTHROPIC_FOUNDRY_API_KEY: "k" }, "Microsoft Foundry needs its endpoint: set ANTHROPIC_FOUNDRY_RESOURCE");
    await refused({ CLAUDE_CODE_USE_FOUNDRY: "1", ANTHROPIC_FOUNDRY_RESOURCE: "r", PATH: "/nonexistent" }, "Microsoft Foundry needs credentials: set ANTHROPIC_FOUNDRY_API_KEY");
  });

  test("two clouds at once", () => refused({ CLAUDE_CODE_USE_BEDROCK: "1", CLAUDE_CODE_USE_VERTEX: "true" }, "CLAUDE_CODE_USE_BEDROCK and CLAUDE_CODE_USE_VERTEX are all set"));
});

describe("a login that expires mid-session", () => {
  test("Bedrock's ExpiredTokenException is one line naming the credentials to renew, not retried", async () => {
    const f = await startCloudFake("bedrock", { scenario: { turns: [{ content: [{ type: "text", text: "never" }] }] }, auth: { type: "bearer", token: "t" } });
    fakes.push(f);
    f.refuseNext(403, "The security token included in the request is expired");
    const r = await runCli(["-p", "hi"], { cwd: tempProject(), env: isolatedEnv(null, { CLAUDE_CODE_USE_BEDROCK: "1", AWS_REGION: "us-east-1", ANTHROPIC_BEDROCK_BASE_URL: f.url, AWS_BEARER_TOKEN_BEDROCK: "t" }) });
    expect(r.stderr).toContain("Amazon Bedrock says the credentials have expired");
    expect(r.stderr).toContain("AWS_BEARER_TOKEN_BEDROCK");
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(f.requests).toHaveLength(1);
    expect(r.code).not.toBe(0);
  });

  test("Bedrock's throttling and a stream exception are retried like the API's own", async () => {
    const f = await startCloudFake("bedrock", {
      scenario: { turns: [{ content: [{ type: "text", text: "made it through" }], faults: [{ type: "rate_limit", retryAfterMs: 5 }, { type: "stream_error", afterEvents: 3, errorType: "overloaded_error", message: "Overloaded" }] }] },
      auth: { type: "bearer", token: "t" },
    });
    fakes.push(f);
    const r = await runCli(["-p", "hi", "--output-format", "stream-json", "--verbose"], { cwd: tempProject(), env: isolatedEnv(null, { CLAUDE_CODE_USE_BEDROCK: "1", AWS_REGION: "us-east-1", ANTHROPIC_BEDROCK_BASE_URL: f.url, AWS_BEARER_TOKEN_BEDROCK: "t" }) });
    expect(r.code).toBe(0);
    expect(f.requests.map((q) => q.status)).toEqual([429, 200, 200]);
    const retries = r.stdout.split("\n").filter((l) => l.includes('"api_retry"'));
    expect(retries).toHaveLength(2);
    expect(r.stdout).toContain("made it through");
  });
});
