// Runs one file-opening path of KHAELOR on a path given on the command line and prints what came
// back as JSON. The special-file tests run it as a child with a deadline: a path that blocks (a
// FIFO's open) would freeze a test file in process, where no timeout can fire.
import { join } from "node:path";
import { loadProjectInstructions } from "../../src/context/system-prompt.ts";
import { loadSettingsFile } from "../../src/permissions/rules/settings-files.ts";
import { loadSettings } from "../../src/agent/config.ts";
import { loadHistory } from "../../src/tui/app/history.ts";
import { readSessionLog } from "../../src/session/log.ts";
import { loadSkills } from "../../src/extensions/skills.ts";
import { loadCommands } from "../../src/extensions/commands.ts";
import { loadHooks } from "../../src/hooks/config.ts";
import { makeHarness } from "../tools/harness.ts";

const [what, path, extra] = process.argv.slice(2) as [string, string, string | undefined];
const t0 = performance.now();
let result: unknown;
try {
  switch (what) {
    case "read-tool":
    case "edit-tool":
    case "write-tool": {
      const h = makeHarness();
      const tool = what.replace("-tool", "");
      const input = tool === "read" ? { file_path: path } : tool === "edit" ? { file_path: path, old_string: "a", new_string: "b" } : { file_path: path, content: "x" };
      const out = await h.call(tool, input);
      result = { isError: out.isError, text: out.text };
      break;
    }
    case "settings-file":
      result = loadSettingsFile({ scope: "project", file: path });
      break;
    case "config":
      result = loadSettings(path);
      break;
    case "instructions":
      result = loadProjectInstructions(path, { configDir: extra ?? join(path, "no-config") });
      break;
    case "history":
      result = loadHistory(path);
      break;
    case "session-log":
      result = readSessionLog(path);
      break;
    case "skills":
      result = loadSkills([{ dir: path, scope: "project" }]);
      break;
    case "commands":
      result = loadCommands([{ dir: path, scope: "project" }]);
      break;
    case "hooks":
      result = loadHooks([{ scope: "project", file: path }]);
      break;
    default:
      throw new Error(`unknown probe ${what}`);
  }
} catch (e) {
  result = { thrown: (e as Error).message };
}
await Bun.write(Bun.stdout, JSON.stringify({ result, ms: performance.now() - t0 }));
process.exit(0);
