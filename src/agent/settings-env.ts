// Claude Code's `env` settings key: variables set for the whole session. As in Claude Code they go
// into KHAELOR's own environment, so they reach KHAELOR itself (ANTHROPIC_MODEL, a gateway's
// ANTHROPIC_BASE_URL) and everything it starts afterwards: the model's commands, hooks, MCP
// servers, the status-line command. The user's files apply at once. A project's file can run code
// through them (NODE_OPTIONS, PATH, LD_PRELOAD, GIT_SSH_COMMAND), so its variables hold only once
// the project is trusted (src/trust/settings-trust.ts), and those that would pick the key, the
// endpoint, the provider, the model, a proxy or where KHAELOR keeps its data and its trust
// answers are never taken from it: nothing a project's own files say may pick the key.

/** One variable a file inside the project sets. */
export type ProjectEnvVar = { name: string; value: string; file: string };

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The `env` object of a settings file as variables; a bad name or value is a problem naming it. */
export function readEnvKey(json: unknown, file: string, problems: string[]): Record<string, string> {
  const env = json && typeof json === "object" && !Array.isArray(json) ? (json as Record<string, unknown>).env : undefined;
  if (env === undefined) return {};
  if (!env || typeof env !== "object" || Array.isArray(env)) {
    problems.push(`${file}: env: expected an object of variables, as {"FOO": "bar"} (ignored)`);
    return {};
  }
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (!NAME.test(name)) problems.push(`${file}: env.${name}: not a variable name; the variable is not set`);
    // Claude Code's own files often hold numbers and booleans ("DISABLE_TELEMETRY": 1): the shell would see their text.
    else if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") out[name] = String(value);
    else problems.push(`${file}: env.${name}: not a string; the variable is not set`);
  }
  return out;
}

// What KHAELOR reads for its key, endpoint, provider and model (src/model/providers), the
// network its requests take (a proxy plus a CA of the project's would read the key in flight),
// and where it keeps its settings, sessions and trust answers (a project moving those could
// trust itself).
const NEVER_FROM_PROJECT = [
  /^ANTHROPIC_/,
  /^CLAUDE_CODE_/,
  /^CLAUDE_CONFIG_DIR$/,
  /^KHAELOR_/,
  /^AWS_/,
  /^GOOGLE_/,
  /^GCE_/,
  /^CLOUDSDK_/,
  /^CLOUD_ML_REGION$/,
  /^VERTEX_/,
  /^AZURE_/,
  /^(HTTP|HTTPS|ALL|NO)_PROXY$/i,
  /^NODE_EXTRA_CA_CERTS$/,
  /^NODE_TLS_REJECT_UNAUTHORIZED$/,
  /^SSL_CERT_(FILE|DIR)$/,
  /^HOME$/,
  /^XDG_[A-Z_]+$/,
];

/** Why a project's file may never set this variable, or null when it may (once trusted). */
export function refusedFromProject(name: string): string | null {
  if (!NEVER_FROM_PROJECT.some((re) => re.test(name))) return null;
  return `env.${name} is never taken from a file inside the project (it would pick KHAELOR's key, endpoint, provider, model, network or data directory); set it in your environment or your own settings`;
}

/** The project's variables that may be held for trust; the refused ones become problems. */
export function projectEnvVars(env: Record<string, string>, file: string, problems: string[]): ProjectEnvVar[] {
  const out: ProjectEnvVar[] = [];
  for (const [name, value] of Object.entries(env)) {
    const refused = refusedFromProject(name);
    if (refused) problems.push(`${file}: ${refused}`);
    else out.push({ name, value, file });
  }
  return out;
}

/** Sets the variables in KHAELOR's own environment: what it reads from now on and what it starts inherits them. */
export function applyEnv(vars: Record<string, string>, env: NodeJS.ProcessEnv = process.env): void {
  for (const [name, value] of Object.entries(vars)) env[name] = value;
}
