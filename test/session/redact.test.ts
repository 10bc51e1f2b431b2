import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { createWriter, readSessionLog } from "../../src/session/log.ts";
import { createRedactor, REDACTED } from "../../src/session/redact.ts";
import { openSync } from "node:fs";
import { join } from "node:path";
import { tempHome, toolResult, user } from "./make-events.ts";

let home: ReturnType<typeof tempHome>;
afterEach(() => home?.cleanup());

const env = {
  ANTHROPIC_API_KEY: "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789",
  GITHUB_TOKEN: "gho_notashapeweknow_but_named_token",
  DB_PASSWORD: 'pa"ss\\word-with-quotes',
  STRIPE_SECRET: "whsec_1234567890abcdef",
  AWS_SECRET_ACCESS_KEY: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
  SHORT_KEY: "1",
  HOME: "/home/dev",
  EDITOR: "vim-with-a-long-name",
};

describe("redaction", () => {
  test("secrets from the environment and token shapes never reach the log file", () => {
    home = tempHome();
    const path = join(home.dir, "s.jsonl");
    const w = createWriter(path, openSync(path, "a"), { redact: createRedactor(env) });
    w.append(user(`my key is ${env.ANTHROPIC_API_KEY} and the db password is ${env.DB_PASSWORD}`));
    w.append(
      toolResult(
        "t1",
        `GITHUB_TOKEN=${env.GITHUB_TOKEN}\nSTRIPE=${env.STRIPE_SECRET}\naws=${env.AWS_SECRET_ACCESS_KEY}\nfound sk-ant-oat01-ZZZZZZZZZZZZZZZZ in ~/.config\nghp_${"a".repeat(36)}\n-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----\nEDITOR=${env.EDITOR} HOME=/home/dev SHORT=1 src/task-management-service-backend.ts`,
      ),
    );
    w.close();
    const raw = readFileSync(path, "utf8");
    for (const secret of [env.ANTHROPIC_API_KEY, env.GITHUB_TOKEN, "pa\\\"ss", env.STRIPE_SECRET, env.AWS_SECRET_ACCESS_KEY, "sk-ant-oat01", "ghp_aaaa", "MIIE"])
      expect(raw).not.toContain(secret);
    // Still valid events, and what is not a secret is untouched.
    const { events, warnings } = readSessionLog(path);
    expect(warnings).toEqual([]);
    expect(JSON.stringify(events)).toContain(REDACTED);
    expect(JSON.stringify(events)).toContain(`EDITOR=${env.EDITOR} HOME=/home/dev SHORT=1 src/task-management-service-backend.ts`);
  });
});

test("passwords inside URLs are redacted wherever they appear; the rest of the URL stays", () => {
  const redact = createRedactor({});
  const text = JSON.stringify({ content: "DATABASE_URL=postgres://admin:hunter2pass@db.local:5432/app and https://example.com/a:b@c" });
  const out = redact(text);
  expect(out).not.toContain("hunter2pass");
  expect(out).toContain(`postgres://admin:${REDACTED}@db.local:5432/app`);
  expect(out).toContain("https://example.com/a:b@c");
  expect(() => JSON.parse(out)).not.toThrow();
});
