// An allow rule in plain words, for the user deciding whether a project's settings may hold: what
// it lets run without a question ("runs the shell command `npm test …` without asking").

/** What an allow rule lets happen without asking. */
export function describeAllowRule(rule: string): string {
  const m = /^\s*([A-Za-z_][\w-]*)\s*(?:\((.*)\))?\s*$/s.exec(rule);
  const tool = m?.[1] ?? rule;
  const spec = m?.[2]?.trim();
  // `*`, `* *`, `*:*`: a pattern of wildcards alone matches everything.
  const any = spec === undefined || /^[\s*:]*$/.test(spec);
  const where = (p: string) => `${p}${OUTSIDE.test(p) ? " (outside this project)" : p.includes("/") ? "" : " (at any depth, outside this project too)"}`;
  const lower = tool.toLowerCase();
  if (lower.startsWith("mcp__")) return `calls the MCP tool ${rule} without asking`;
  switch (lower) {
    case "bash":
      return any ? "runs any shell command without asking" : `runs the shell command ${commandOf(spec)} without asking`;
    case "process":
      return any ? "starts any background process without asking" : `starts the process ${commandOf(spec)} without asking`;
    case "read":
      return any ? "reads any file without asking, outside this project too" : `reads ${where(spec)} without asking`;
    case "grep":
    case "glob":
      return any ? "searches any folder without asking, outside this project too" : `searches ${where(spec)} without asking`;
    case "edit":
    case "write":
    case "multiedit":
    case "notebookedit":
      return any ? "edits and writes any file without asking, outside this project too" : `edits and writes ${where(spec)} without asking`;
    case "webfetch":
      return any ? "fetches any web page without asking" : `fetches ${spec.replace(/^domain:\s*/i, "")} without asking`;
    case "websearch":
      return "searches the web without asking";
    default:
      return `allows ${rule} without asking`;
  }
}

/** `npm test:*` and `npm test *` are both "npm test …". */
function commandOf(spec: string): string {
  const prefix = spec.replace(/(?::\*|\s\*)$/, "");
  return prefix === spec ? `\`${spec}\`` : `\`${prefix} …\``;
}

/** Rule paths that reach outside the project: `//abs`, `~/…`, `$HOME`, or up through `..` (`/x` is the project's). */
const OUTSIDE = /^(?:\/\/|~|\$HOME)|(?:^|\/)\.\.(?:\/|$)/;
