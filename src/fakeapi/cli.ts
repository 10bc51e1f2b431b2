// `bun src/fakeapi/cli.ts --scenario <file.json> [--port N] [--host H] [--record <file.jsonl>]`
// Starts the fake Messages API and prints its URL as the first line of stdout, so a CI script or a
// test can point ANTHROPIC_BASE_URL at it. Runs until SIGINT/SIGTERM.
import { appendFileSync, readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { parseScenario } from "./scenario.ts";
import { startFakeApi } from "./server.ts";

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      scenario: { type: "string" },
      port: { type: "string" },
      host: { type: "string" },
      record: { type: "string" },
    },
  });
  if (!values.scenario) {
    process.stderr.write("usage: bun src/fakeapi/cli.ts --scenario <file.json> [--port N] [--host H] [--record <file.jsonl>]\n");
    process.exit(2);
  }
  let scenario;
  try {
    scenario = parseScenario(JSON.parse(readFileSync(values.scenario, "utf8")));
  } catch (e) {
    process.stderr.write(`fake API: cannot load ${values.scenario}: ${(e as Error).message}\n`);
    process.exit(2);
  }
  const record = values.record;
  const api = await startFakeApi({
    scenario,
    port: values.port ? Number(values.port) : 0,
    host: values.host,
    onRequest: record ? (r) => appendFileSync(record, JSON.stringify(r) + "\n") : undefined,
  });
  process.stdout.write(api.url + "\n");
  const stop = async () => {
    await api.close();
    process.exit(api.checkFailures.length > 0 ? 1 : 0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

void main();
