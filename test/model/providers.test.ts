// The provider layer's plain parts: what is in force (never a secret), model ids per provider,
// prices per provider, and the fake's event-stream frames as AWS's own decoder reads them.
import { describe, expect, test } from "bun:test";
import { EventStreamCodec } from "@smithy/eventstream-codec";
import { fromUtf8, toUtf8 } from "@smithy/util-utf8";
import { costUsd, modelInfo } from "../../src/model/models.ts";
import { describeProvider, providerNotice } from "../../src/model/providers/describe.ts";
import { wireModel } from "../../src/model/providers/model-ids.ts";
import { pricingFor } from "../../src/model/providers/pricing.ts";
import { customHeaders } from "../../src/model/providers/custom-headers.ts";
import { chunkMessage, eventStreamMessage } from "../support/clouds/event-stream.ts";

const SECRETS = ["AKIDSECRET99", "wJalrXUtnFEMI/K7MDENG", "sess-tok-777", "bedrock-key-5", "sk-ant-xyz", "foundry-k-1", "hunter2", "helper-arg-secret"];

describe("describeProvider says what is in force, never a secret", () => {
  test("each provider, its region, endpoint and the credentials' source", () => {
    const bedrock = describeProvider({ CLAUDE_CODE_USE_BEDROCK: "1", AWS_REGION: "eu-west-1", AWS_ACCESS_KEY_ID: SECRETS[0], AWS_SECRET_ACCESS_KEY: SECRETS[1], AWS_SESSION_TOKEN: SECRETS[2], HTTPS_PROXY: `http://user:${SECRETS[6]}@proxy.corp:3128` }, {});
    expect(bedrock).toMatchObject({ provider: "bedrock", region: "eu-west-1", baseURL: "https://bedrock-runtime.eu-west-1.amazonaws.com", credentials: "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY with AWS_SESSION_TOKEN", proxy: "http://proxy.corp:3128", problem: null });
    const bearer = describeProvider({ CLAUDE_CODE_USE_BEDROCK: "1", AWS_REGION: "us-east-1", AWS_BEARER_TOKEN_BEDROCK: SECRETS[3] }, {});
    expect(bearer.credentials).toBe("AWS_BEARER_TOKEN_BEDROCK (a Bedrock API key)");
    const vertex = describeProvider({ CLAUDE_CODE_USE_VERTEX: "1", CLOUD_ML_REGION: "global", ANTHROPIC_VERTEX_PROJECT_ID: "proj", CLAUDE_CODE_SKIP_VERTEX_AUTH: "1" }, {});
    expect(vertex).toMatchObject({ provider: "vertex", region: "global", project: "proj", baseURL: "https://aiplatform.googleapis.com/v1", problem: null });
    const foundry = describeProvider({ CLAUDE_CODE_USE_FOUNDRY: "1", ANTHROPIC_FOUNDRY_RESOURCE: "acme", ANTHROPIC_FOUNDRY_API_KEY: SECRETS[5] }, {});
    expect(foundry).toMatchObject({ provider: "foundry", baseURL: "https://acme.services.ai.azure.com/anthropic/", credentials: "ANTHROPIC_FOUNDRY_API_KEY" });
    const helper = describeProvider({ ANTHROPIC_BASE_URL: "https://gw.corp", ANTHROPIC_CUSTOM_HEADERS: `X-Team: a\nAuthorization: Bearer ${SECRETS[6]}` }, { apiKeyHelper: `/opt/bin/get-key --token ${SECRETS[7]}` });
    expect(helper).toMatchObject({ provider: "anthropic", baseURL: "https://gw.corp", credentials: "apiKeyHelper in your settings (runs get-key)", headers: ["X-Team", "Authorization"] });
    const plain = describeProvider({ ANTHROPIC_API_KEY: SECRETS[4] }, {});
    expect(plain).toMatchObject({ provider: "anthropic", credentials: "ANTHROPIC_API_KEY", problem: null });
    const all = JSON.stringify([bedrock, bearer, vertex, foundry, helper, plain]) + [bedrock, bearer, vertex, foundry, helper, plain].map((d) => providerNotice(d, "claude-sonnet-5-5", {})).join("\n");
    for (const s of SECRETS) expect(all).not.toContain(s);
  });

  test("a missing setting is the problem, in one line; a plain key needs no start-up notice", () => {
    expect(describeProvider({ CLAUDE_CODE_USE_VERTEX: "1", CLOUD_ML_REGION: "global" }, {})).toMatchObject({ provider: "vertex", problem: expect.stringContaining("ANTHROPIC_VERTEX_PROJECT_ID") });
    expect(describeProvider({}, {}).problem).toContain("ANTHROPIC_API_KEY");
    expect(providerNotice(describeProvider({ ANTHROPIC_API_KEY: "k" }, {}), "claude-sonnet-5-5", {})).toBeNull();
    const unreadable = describeProvider({ ANTHROPIC_API_KEY: "k", NODE_EXTRA_CA_CERTS: "/nonexistent/ca.pem" }, {});
    expect(providerNotice(unreadable, "claude-sonnet-5-5", {})).toBe("NODE_EXTRA_CA_CERTS names /nonexistent/ca.pem, which cannot be read: its certificates are not used");
    expect(describeProvider({ ANTHROPIC_API_KEY: "k", HTTPS_PROXY: "http://p:1", NO_PROXY: ".anthropic.com" }, {}).proxy).toBeNull();
  });
});

describe("model ids", () => {
  test("KHAELOR's names as each provider's ids; the family variables win; other ids go as they are", () => {
    expect(wireModel("claude-sonnet-5-5", "bedrock", {})).toBe("global.anthropic.claude-sonnet-5-5");
    expect(wireModel("opus", "bedrock", {})).toBe("global.anthropic.claude-opus-5-5");
    expect(wireModel("claude-sonnet-5-5", "vertex", {})).toBe("claude-sonnet-5-5");
    expect(wireModel("haiku", "anthropic", {})).toBe("claude-haiku-5-5");
    expect(wireModel("sonnet", "vertex", { ANTHROPIC_DEFAULT_SONNET_MODEL: "claude-sonnet-4-5@20250929" })).toBe("claude-sonnet-4-5@20250929");
    expect(wireModel("arn:aws:bedrock:us-east-1:1:application-inference-profile/abc", "bedrock", {})).toBe("arn:aws:bedrock:us-east-1:1:application-inference-profile/abc");
  });

  test("a cloud's id finds the model's window and price", () => {
    for (const id of ["us.anthropic.claude-haiku-4-5-20251001-v1:0", "claude-haiku-4-5@20251001", "arn:aws:bedrock:us-east-1:1:inference-profile/eu.anthropic.claude-haiku-4-5-20251001-v1:0", "haiku"]) expect(modelInfo(id)?.name ?? id).toBe(id === "haiku" ? "claude-haiku-5-5" : "claude-haiku-4-5");
    expect(modelInfo("arn:aws:bedrock:us-east-1:1:application-inference-profile/abc")).toBeNull();
  });
});

describe("prices per provider", () => {
  const usage = { input_tokens: 1_000_000, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
  test("global endpoints at list price, regional ones 10% more, Foundry an estimate said as such", () => {
    const list = costUsd("claude-haiku-4-5", usage)!;
    const sentAs = (id: string) => () => id;
    expect(pricingFor("bedrock", { sentAs: sentAs("global.anthropic.claude-haiku-4-5-20251001-v1:0") }).costOf("claude-haiku-4-5", usage)).toBeCloseTo(list, 9);
    expect(pricingFor("bedrock", { sentAs: sentAs("eu.anthropic.claude-haiku-4-5-20251001-v1:0") }).costOf("claude-haiku-4-5", usage)).toBeCloseTo(list * 1.1, 9);
    expect(pricingFor("vertex", { region: "global", sentAs: (m) => m }).costOf("claude-haiku-4-5", usage)).toBeCloseTo(list, 9);
    expect(pricingFor("vertex", { region: "europe-west1", sentAs: (m) => m }).costOf("claude-haiku-4-5", usage)).toBeCloseTo(list * 1.1, 9);
    const foundry = pricingFor("foundry", { sentAs: (m) => m });
    expect(foundry.costOf("claude-haiku-4-5", usage)).toBe(list);
    expect(foundry.estimate).toContain("estimates");
  });
});

describe("ANTHROPIC_CUSTOM_HEADERS", () => {
  test("Name: value lines; a value may hold colons; blank lines are skipped", () => {
    expect(customHeaders({ ANTHROPIC_CUSTOM_HEADERS: "X-A: 1\r\n\nX-B:  http://x:1/y  " })).toEqual({ "X-A": "1", "X-B": "http://x:1/y" });
  });
});

describe("the Bedrock fake's frames", () => {
  test("AWS's own decoder reads them, and refuses one whose CRC is off", () => {
    const codec = new EventStreamCodec(toUtf8, fromUtf8);
    const frame = chunkMessage(JSON.stringify({ type: "ping" }));
    const msg = codec.decode(frame);
    expect(msg.headers[":event-type"]).toEqual({ type: "string", value: "chunk" });
    const payload = JSON.parse(toUtf8(msg.body)) as { bytes: string };
    expect(Buffer.from(payload.bytes, "base64").toString()).toBe('{"type":"ping"}');
    const bad = eventStreamMessage([[":message-type", "event"]], fromUtf8("{}"));
    bad[bad.length - 1]! ^= 1;
    expect(() => codec.decode(bad)).toThrow(/checksum/i);
  });
});
