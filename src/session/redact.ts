// Secrets never reach the session log. Two nets: the values of environment variables that hold
// credentials (whatever they look like), and the shapes of well-known tokens (whatever their source:
// a file the model read, a command's output).
type Env = Record<string, string | undefined>;

export const REDACTED = "[REDACTED]";

/** Env names whose values are credentials. */
const SECRET_NAME = /(^|_)(API_?KEY|KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASS|CREDENTIALS?|AUTH)$/i;
const ALWAYS_SECRET = new Set(["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN"]);
/** Shorter values are too likely to occur by chance ("1", "true", "dev") to be replaced everywhere. */
const MIN_SECRET_LENGTH = 8;

/**
 * Token shapes that are secrets wherever they appear. They must start a word; the text is JSON, so
 * a token right after a newline follows the "\n" escape, which counts as a word start too.
 */
const START = String.raw`(?<=^|[^A-Za-z0-9_]|\\[nrt])`;
const TOKEN_PATTERNS: RegExp[] = [
  String.raw`sk-ant-[A-Za-z0-9_-]{8,}`, // Anthropic API and OAuth keys
  String.raw`sk-(?:proj-)?[A-Za-z0-9_-]{20,}`, // OpenAI-style keys
  String.raw`gh[pousr]_[A-Za-z0-9]{30,}`, // GitHub tokens
  String.raw`github_pat_[A-Za-z0-9_]{30,}`,
  String.raw`xox[abprs]-[A-Za-z0-9-]{10,}`, // Slack
  String.raw`AKIA[0-9A-Z]{16}(?![A-Za-z0-9])`, // AWS access key ids
  String.raw`glpat-[A-Za-z0-9_-]{20,}`, // GitLab
  String.raw`-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----`,
].map((p) => new RegExp(START + p, "g"));

/** The password in a URL (postgres://user:secret@host): kept are the scheme, user and host. */
const URL_PASSWORD = /(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@"\\]+:)([^\s@/"\\]+)(@)/gi;

export type Redactor = (text: string) => string;

/** The credential values found in `env`, longest first (so a secret containing another is replaced whole). */
export function secretValues(env: Env = process.env): string[] {
  const values = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    if (!value || value.length < MIN_SECRET_LENGTH) continue;
    if (ALWAYS_SECRET.has(name) || SECRET_NAME.test(name)) values.add(value);
  }
  return [...values].sort((a, b) => b.length - a.length);
}

/**
 * A redactor for JSON text (one serialized event): secrets are matched in their JSON-escaped form,
 * so a value containing quotes or backslashes is found too, and the replacement keeps the JSON valid.
 */
export function createRedactor(env: Env = process.env): Redactor {
  const escaped = secretValues(env).map((v) => JSON.stringify(v).slice(1, -1));
  return (text) => {
    let out = text;
    for (const s of escaped) if (out.includes(s)) out = out.split(s).join(REDACTED);
    out = out.replace(URL_PASSWORD, `$1${REDACTED}$3`);
    for (const p of TOKEN_PATTERNS) {
      p.lastIndex = 0;
      if (p.test(out)) {
        p.lastIndex = 0;
        out = out.replace(p, REDACTED);
      }
    }
    return out;
  };
}
