// A KHAELOR stand-in for lock tests: opens a session, starts a tool call, says where the log is,
// and waits to be killed.
import { createSession } from "../../src/session/store.ts";
import { assistant, toolUse, user } from "./make-events.ts";

const [cwd, home] = process.argv.slice(2);
const w = createSession({ cwd: cwd!, model: "claude-sonnet-5-5", permissionMode: "default", env: { KHAELOR_HOME: home } });
w.append(user("start the dev server"));
w.append(assistant([toolUse("toolu_running", "process", { action: "start", command: "npm run dev", name: "dev" })]));
w.append({ type: "tool_result", id: "r-start", ts: Date.now(), toolUseId: "toolu_running", name: "process", content: "started id: p1 (npm run dev)", isError: false, kind: "ok", summary: "process start", durationMs: 3 });
w.append(assistant([toolUse("toolu_dangling", "bash", { command: "sleep 100" })]));
process.stdout.write(`${w.path}\n`);
setInterval(() => {}, 1 << 30);
