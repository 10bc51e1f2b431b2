// The redactor's shapes, one test per row of the table, in plain text and inside a JSON event
// (where a token may follow a "\n" escape), plus env names that say "secret" and the text a
// redactor must leave alone (code that names a key without holding one).
import { describe, expect, test } from "bun:test";
import { createRedactor, createTextRedactor, PRIVATE_KEY_BODY_CAP, REDACTED, SECRET_SHAPES, secretValues } from "../../src/session/redact.ts";

const text = createTextRedactor({});
const json = createRedactor({});

describe("every secret shape is redacted", () => {
  for (const shape of SECRET_SHAPES) {
    test(shape.name, () => {
      expect(shape.example).toContain(shape.secret);
      const plain = text(shape.example);
      expect(plain).not.toContain(shape.secret);
      expect(plain).toContain(REDACTED);
      // In a serialized event, after a newline escape, and the JSON stays valid.
      const event = JSON.stringify({ content: `output:\n${shape.example}\nend` });
      const out = json(event);
      expect(out).not.toContain(JSON.stringify(shape.secret).slice(1, -1));
      expect(() => JSON.parse(out)).not.toThrow();
    });
  }
});

describe("private key blocks", () => {
  const begin = "-----BEGIN OPENSSH PRIVATE KEY-----";
  const end = "-----END OPENSSH PRIVATE KEY-----";

  test("two blocks are redacted each, the text between them stays", () => {
    expect(text(`a\n${begin}\nKEYONE\n${end}\nmiddle\n${begin}\nKEYTWO\n${end}\nz`)).toBe(`a\n${REDACTED}\nmiddle\n${REDACTED}\nz`);
  });

  test("a header without its END (the head of a key file) takes the base64 lines after it with it", () => {
    const out = text(`$ head -3 id_ed25519\n${begin}\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\nAAAAAAABAAAAMwAAAAtzc2gtZWQyNTUxOQ\n`);
    expect(out).toBe(`$ head -3 id_ed25519\n${REDACTED}\n`);
    // An old encrypted key's headers and blank line are part of it.
    const legacy = "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,3F17F5316E2BAC89\n\nhNaQvMB6m1mYOUEFKo0Tz3\n";
    expect(text(legacy)).toBe(`${REDACTED}\n`);
    // In a serialized event, where the newlines are escapes.
    expect(json(JSON.stringify({ out: `${begin}\nb3BlbnNzaC1rZXktdjEAAAAA\nAAAAAAABAAAAMwAA` }))).toBe(JSON.stringify({ out: REDACTED }));
    // ...and stops at the next marker, so a certificate after it is kept.
    expect(text(`${begin}\nTRUNCATED\n-----BEGIN CERTIFICATE-----\nMIIC\n-----END CERTIFICATE-----`)).toBe(`${REDACTED}\n-----BEGIN CERTIFICATE-----\nMIIC\n-----END CERTIFICATE-----`);
  });

  test("a PEM parser's source that names the header keeps its code", () => {
    const code = `const HEADER = "${begin}";\nexport function parse(pem: string) {\n  return pem.split("\\n").slice(1, -1).join("");\n}\n`;
    expect(text(code)).toBe(code.replace(begin, REDACTED));
    const comment = `// ${begin} starts the key\nconst body = lines.slice(1);\n`;
    expect(text(comment)).toBe(comment.replace(begin, REDACTED));
  });

  test(`at the cap: a body of ${PRIVATE_KEY_BODY_CAP} characters goes whole; a longer one in key lines goes line by line`, () => {
    const at = "K".repeat(PRIVATE_KEY_BODY_CAP - 2);
    expect(text(`${begin}\n${at}\n${end}`)).toBe(REDACTED);
    const lines = Array.from({ length: PRIVATE_KEY_BODY_CAP / 64 + 8 }, () => "K".repeat(64)).join("\n");
    expect(text(`${begin}\n${lines}\n${end}`)).toBe(`${REDACTED}\n${end}`);
  });
});

describe("a JSON Web Token starts where its run of token characters does", () => {
  const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";
  test.each([" ", "=", ":", "'", '"', "(", "\n"])("after %j", (before) => {
    expect(text(`x${before}${jwt} y`)).toBe(`x${before}${REDACTED} y`);
  });
  test("not inside a longer run, where every eyJ would rescan it", () => {
    const run = "eyJ-".repeat(5000);
    expect(text(run)).toBe(run);
  });
});

describe("environment values whose names say secret", () => {
  test.each([
    ["SECRET_KEY_BASE", "a8f3c0e2b9d14e7f"],
    ["MY_SECRET_VALUE", "hunter2-and-more"],
    ["GH_TOKEN", "not-a-known-shape-123"],
    ["DB_PASSWORD", "correct horse battery"],
    ["STRIPE_KEY", "plainvalue99"],
    ["SENTRY_DSN", "https://abc@sentry.example/1"],
    ["SLACK_WEBHOOK_URL", "https://example.invalid/hook/xyz"],
    ["AWS_SECRET_ACCESS_KEY", "wJalrXUtnFEMI/K7MDENG"],
  ])("%s", (name, value) => {
    expect(secretValues({ [name]: value })).toEqual([value]);
    expect(createTextRedactor({ [name]: value })(`env: ${name}=${value}.`)).toBe(`env: ${name}=${REDACTED}.`);
  });

  test.each(["HOME", "PATH", "EDITOR", "SSH_AUTH_SOCK", "KEYBOARD_LAYOUT", "MONKEY_BUSINESS"])("%s is not a secret", (name) => {
    expect(secretValues({ [name]: "/some/long/value/here" })).toEqual([]);
  });
});

describe("what stays as it is", () => {
  test.each([
    "const apiKey = process.env.ANTHROPIC_API_KEY;",
    "password: z.string().min(8)",
    "token = getToken(request)",
    "see https://docs.example.com/path:8080/x",
    "primary_key = id",
    "the Bearer of bad news",
  ])("%s", (line) => {
    expect(text(line)).toBe(line);
  });
});
