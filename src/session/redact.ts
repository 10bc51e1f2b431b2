// Secrets never reach KHAELOR's data directory (session logs, their summaries, spill files, prompt
// history) nor what `khaelor sessions` prints. Two nets: the values of environment variables whose
// names say they hold credentials (whatever they look like), and the shapes of well-known tokens and
// of `name = value` assignments whose name says secret (whatever their source: a file the model
// read, a command's output, a typed prompt). The shapes are data (SECRET_SHAPES), each with an
// example its test redacts. Every pattern starts at a word boundary and bounds its runs, so the
// redactor stays linear on any text.
type Env = Record<string, string | undefined>;

export const REDACTED = "[REDACTED]";

/** Env names whose values are credentials: a word of the name says so (SECRET_KEY_BASE, MY_SECRET_VALUE, GH_TOKEN). */
const SECRET_NAME = /(?:^|_)(?:API_?KEY|KEY|KEYS|TOKEN|TOKENS|SECRET|SECRETS|PASSWORD|PASSWD|PASS|PWD|CREDENTIALS?|AUTH|PRIVATE|DSN|WEBHOOK)(?:_|$)/i;
/** Names that match the words above but hold no secret. */
const NOT_SECRET = new Set(["SSH_AUTH_SOCK", "PWD", "OLDPWD", "GPG_AGENT_INFO", "KEYTIMEOUT"]);
const ALWAYS_SECRET = new Set(["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN"]);
/** Shorter values are too likely to occur by chance ("1", "true", "dev") to be replaced everywhere. */
const MIN_SECRET_LENGTH = 8;

/**
 * Where a token may start: not inside a longer word. In JSON text a token right after a newline
 * follows the "\n" escape, which counts as a word start too.
 */
const start = (tokenChars = "A-Za-z0-9_") => String.raw`(?<=^|[^${tokenChars}]|\\[nrt])`;
const B = String.raw`(?![A-Za-z0-9_])`;

export type SecretShape = {
  name: string;
  /** Source of the pattern; a named group `keep` is kept (the `Authorization: Bearer ` before a token). */
  pattern: string;
  flags?: string;
  /**
   * The characters a match may not start after (default letters, digits and `_`). A shape whose
   * own body has more of them says so, so that it starts only where a run of them begins: a match
   * tried at every `eyJ` inside one long run of `eyJ-eyJ-…` rescans the run each time.
   */
  tokenChars?: string;
  /** A text holding the secret, for the test; `secret` is the part that must disappear. */
  example: string;
  secret: string;
};

/** The characters of a private key block's body that are redacted with it; a longer body keeps the rest. */
export const PRIVATE_KEY_BODY_CAP = 16384;

/** A newline in plain text, or escaped inside a serialized event. */
const PEM_NEWLINE = String.raw`(?:\r?\n|(?:\\r)?\\n)`;

/** The shapes gitleaks and trufflehog know best, as data. */
export const SECRET_SHAPES: SecretShape[] = [
  { name: "Anthropic API key", pattern: String.raw`sk-ant-[A-Za-z0-9_-]{8,512}`, example: "key sk-ant-api03-AbCdEf0123456789xyz here", secret: "sk-ant-api03-AbCdEf0123456789xyz" },
  { name: "OpenAI API key", pattern: String.raw`sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,512}`, example: "OPENAI=sk-proj-abcdefghijklmnopqrstuvwx12", secret: "sk-proj-abcdefghijklmnopqrstuvwx12" },
  { name: "GitHub token", pattern: String.raw`gh[pousr]_[A-Za-z0-9]{30,255}`, example: "token ghp_0123456789abcdefghijABCDEFGHIJ0123", secret: "ghp_0123456789abcdefghijABCDEFGHIJ0123" },
  { name: "GitHub fine-grained token", pattern: String.raw`github_pat_[A-Za-z0-9_]{30,255}`, example: "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuv", secret: "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuv" },
  { name: "GitLab token", pattern: String.raw`gl(?:pat|dt|ptt|rt)-[A-Za-z0-9_-]{20,255}`, example: "glpat-AbCdEf0123456789xyzW", secret: "glpat-AbCdEf0123456789xyzW" },
  { name: "Slack token", pattern: String.raw`xox[abposr]-[A-Za-z0-9-]{10,255}`, example: "xoxb-123456789012-abcdefABCDEF", secret: "xoxb-123456789012-abcdefABCDEF" },
  { name: "Slack webhook", pattern: String.raw`https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/+-]{20,255}`, example: "post to https://hooks.slack.com/services/T0000AAAA/B0000BBBB/abcdefghijklmnopqrstuvwx now", secret: "hooks.slack.com/services/T0000AAAA" },
  { name: "AWS access key id", pattern: String.raw`(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}${B}`, example: "AKIAIOSFODNN7EXAMPLE", secret: "AKIAIOSFODNN7EXAMPLE" },
  { name: "Google API key", pattern: String.raw`AIza[0-9A-Za-z_-]{35}`, example: "maps key AIzaSyA-0123456789abcdefghijklmnopqrstu ok", secret: "AIzaSyA-0123456789abcdefghijklmnopqrstu" },
  { name: "Google OAuth client secret", pattern: String.raw`GOCSPX-[A-Za-z0-9_-]{28}`, example: "GOCSPX-0123456789abcdefghijklmnopqr", secret: "GOCSPX-0123456789abcdefghijklmnopqr" },
  { name: "Stripe key", pattern: String.raw`(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,255}`, example: "sk_live_0123456789abcdefABCDEF", secret: "sk_live_0123456789abcdefABCDEF" },
  { name: "Stripe webhook secret", pattern: String.raw`whsec_[A-Za-z0-9]{24,255}`, example: "whsec_0123456789abcdefABCDEFghij", secret: "whsec_0123456789abcdefABCDEFghij" },
  { name: "npm token", pattern: String.raw`npm_[A-Za-z0-9]{36}${B}`, example: "//registry.npmjs.org/:_authToken=npm_0123456789abcdefghijABCDEFGHIJ012345", secret: "npm_0123456789abcdefghijABCDEFGHIJ012345" },
  { name: "PyPI token", pattern: String.raw`pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,1024}`, example: "pypi-AgEIcHlwaS5vcmcCJDAwMDAwMDAwLTAwMDAtMDAwMC0wMDAwLTAwMDAwMDAwMDAwMAACKlsz", secret: "pypi-AgEIcHlwaS5vcmcCJDAwMDAw" },
  { name: "Hugging Face token", pattern: String.raw`hf_[A-Za-z0-9]{30,255}`, example: "HF hf_abcdefghijklmnopqrstuvwxyzABCDEFGH", secret: "hf_abcdefghijklmnopqrstuvwxyzABCDEFGH" },
  { name: "SendGrid key", pattern: String.raw`SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}`, example: "SG.abcdefghijklmnopqrstuv.abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ", secret: "SG.abcdefghijklmnopqrstuv" },
  { name: "DigitalOcean token", pattern: String.raw`do[por]_v1_[a-f0-9]{64}`, example: `dop_v1_${"a1".repeat(32)}`, secret: `dop_v1_${"a1".repeat(32)}` },
  { name: "Shopify token", pattern: String.raw`shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}`, example: "shpat_0123456789abcdef0123456789abcdef", secret: "shpat_0123456789abcdef0123456789abcdef" },
  { name: "Sentry auth token", pattern: String.raw`sntry[su]_[A-Za-z0-9+/=_]{40,512}`, example: "sntrys_eyJpYXQiOjE2ODAwMDAwMDAuMCwidXJsIjoiaHR0cHM6Ly9zZW50cnkuaW8ifQ", secret: "sntrys_eyJpYXQiOjE2ODAwMDAw" },
  { name: "JSON Web Token", pattern: String.raw`eyJ[A-Za-z0-9_-]{8,4096}\.eyJ[A-Za-z0-9_-]{8,8192}\.[A-Za-z0-9_-]{8,4096}`, tokenChars: "A-Za-z0-9_-", example: "jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", secret: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0" },
  { name: "Authorization header", pattern: String.raw`(?<keep>\b(?:Bearer|Basic|Token)[ \t]{1,16})[A-Za-z0-9._~+/=-]{16,4096}`, flags: "i", example: "curl -H 'Authorization: Bearer abcDEF0123456789ghiJKL' x", secret: "abcDEF0123456789ghiJKL" },
  { name: "Sentry DSN key", pattern: String.raw`(?<keep>https?://)[0-9a-f]{32}(?::[0-9a-f]{32})?(?=@)`, example: "SENTRY=https://0123456789abcdef0123456789abcdef@o12345.ingest.sentry.io/678", secret: "0123456789abcdef0123456789abcdef" },
  {
    // With its END: the body runs to the next BEGIN or END marker, so each character is looked at
    // for one block (a lazy run to the END rescanned 16 KiB after every header without one), and at
    // most PRIVATE_KEY_BODY_CAP characters of it: no key is that long. Without its END (`head` of a
    // key file): the header and the run of whole base64 or `Proc-Type:` lines after it, newlines
    // real or JSON-escaped; so a PEM parser's source that names the header keeps its code.
    name: "Private key block",
    pattern: String.raw`-----BEGIN [A-Z ]{0,40}PRIVATE KEY(?: BLOCK)?-----(?:(?:(?!-----(?:BEGIN|END) )[\s\S]){0,${PRIVATE_KEY_BODY_CAP}}-----END [A-Z ]{0,40}PRIVATE KEY(?: BLOCK)?-----|(?:${PEM_NEWLINE}(?:[A-Za-z0-9+/=]{1,128}(?=[\r\n"'\\]|$)|[A-Za-z-]{1,32}: [^\r\n\\]{0,128}|(?=${PEM_NEWLINE}))){0,1024})`,
    example: "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA0123\n-----END RSA PRIVATE KEY-----",
    secret: "MIIEowIBAAKCAQEA0123",
  },
  {
    name: "Password in a URL",
    pattern: String.raw`(?<keep>(?<![A-Za-z0-9+.-])[a-z][a-z0-9+.-]{0,30}://[^\s:/@"\\]{1,256}:)[^\s@/"\\]{1,256}(?=@)`,
    flags: "i",
    example: "DATABASE_URL=postgres://app:hunter2hunter2@db.internal:5432/app",
    secret: "hunter2hunter2",
  },
  {
    // aws_secret_access_key = …, SECRET_KEY_BASE=…, "password": "…", client_secret: …; the value
    // must mix letters and digits (checked in code), so `apiKey = process.env.KEY` stays.
    name: "Secret assignment",
    pattern: String.raw`(?<keep>(?<![A-Za-z0-9_.-])[A-Za-z0-9_.-]{0,64}(?:secret|token|passw(?:or)?d|pwd|api_?key|apikey|access_?key|private_?key|auth_?key|credentials?|dsn)[A-Za-z0-9_.-]{0,64}(?:\\?["'])?[ \t]{0,16}[:=][ \t]{0,16}(?:\\?["'])?)[^\s"'\\<>(){}\[\],;&|$\x60]{8,512}`,
    flags: "i",
    example: "[default]\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n",
    secret: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
  },
];

const COMPILED = SECRET_SHAPES.map((s) => ({ shape: s, re: new RegExp(start(s.tokenChars) + s.pattern, `g${s.flags ?? ""}`) }));

export type Redactor = (text: string) => string;

/** The credential values found in `env`, longest first (so a secret containing another is replaced whole). */
export function secretValues(env: Env = process.env): string[] {
  const values = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    if (!value || value.length < MIN_SECRET_LENGTH) continue;
    if (ALWAYS_SECRET.has(name) || (SECRET_NAME.test(name) && !NOT_SECRET.has(name))) values.add(value);
  }
  return [...values].sort((a, b) => b.length - a.length);
}

const mixesLettersAndDigits = (s: string) => /[0-9]/.test(s) && /[A-Za-z]/.test(s);

function redactShapes(text: string): string {
  let out = text;
  for (const { shape, re } of COMPILED) {
    re.lastIndex = 0;
    if (!re.test(out)) continue;
    re.lastIndex = 0;
    const assignment = shape.name === "Secret assignment";
    out = out.replace(re, (match: string, ...rest: unknown[]) => {
      const groups = rest[rest.length - 1] as { keep?: string } | undefined;
      const keep = (typeof groups === "object" && groups?.keep) || "";
      const value = match.slice(keep.length);
      if (assignment && (!mixesLettersAndDigits(value) || value.includes(REDACTED))) return match;
      return keep + REDACTED;
    });
  }
  return out;
}

function build(values: string[]): Redactor {
  return (text) => {
    let out = text;
    for (const s of values) if (out.includes(s)) out = out.split(s).join(REDACTED);
    return redactShapes(out);
  };
}

/**
 * A redactor for JSON text (one serialized event, a summary): secrets are matched in their
 * JSON-escaped form, so a value containing quotes or backslashes is found too, and the replacement
 * keeps the JSON valid.
 */
export function createRedactor(env: Env = process.env): Redactor {
  return build(secretValues(env).map((v) => JSON.stringify(v).slice(1, -1)));
}

/** The same nets for plain text: spill files, prompt history, a title printed to a terminal. */
export function createTextRedactor(env: Env = process.env): Redactor {
  return build(secretValues(env));
}

let processText: Redactor | null = null;
/** The plain-text redactor for this process's environment, built once. */
export function redactText(text: string): string {
  processText ??= createTextRedactor();
  return processText(text);
}
