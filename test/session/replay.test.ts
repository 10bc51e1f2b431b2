// Replay derives what the session left running: processes started and never stopped.
import { expect, test } from "bun:test";
import { replaySession } from "../../src/session/replay.ts";
import { assistant, toolResult, toolUse, turnEnd, user } from "./make-events.ts";

test("a process stopped by its id or by its name is not lost; one never stopped is", () => {
  const events = [
    user("run the servers"),
    assistant([toolUse("s1", "process", { action: "start", command: "npm run dev", name: "web" })]),
    toolResult("s1", 'Started "web" as p1 (pid 41) in the project root. Read its output with action=read id=web, stop it with action=stop.'),
    assistant([toolUse("s2", "process", { action: "start", command: "npm run api" })]),
    toolResult("s2", "Started p2 (pid 42) in the project root. Read its output with action=read id=p2, stop it with action=stop."),
    assistant([toolUse("s3", "process", { action: "start", command: "npm run worker", name: "worker" })]),
    toolResult("s3", 'Started "worker" as p3 (pid 43) in the project root.'),
    assistant([toolUse("k1", "process", { action: "stop", id: "p1" }), toolUse("k2", "process", { action: "stop", id: "worker" })]),
    toolResult("k1", "Stopped p1."),
    toolResult("k2", "Stopped p3."),
    turnEnd(),
  ];
  expect(replaySession(events).lostProcesses).toEqual([{ toolUseId: "s2", command: "npm run api", name: null, pid: 42 }]);
});
