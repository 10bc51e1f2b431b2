// A full disk under the session's data, in-process: the turn stops saying what was not saved and
// hands the message back (keepInput), nothing is sent to the model, the log stays whole; once
// space is free the same session sends the message and records it. A real full tmpfs (root).
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseEventLine } from "../../src/events/schema.ts";
import { fakeApiFixture } from "../support/fake-api.ts";
import { smallFs } from "../support/small-fs.ts";
import { gitProject, inIsolatedHome, openOn, signal } from "./support.ts";

const fs = smallFs("512k");
const serve = fakeApiFixture();

describe.skipIf(!fs)("a full disk", () => {
  test("the turn gives the message back unsent and says what was not saved; after freeing space the same session sends it", async () => {
    const data = join(fs!.dir, "data");
    mkdirSync(data, { recursive: true });
    await inIsolatedHome(async () => {
      const api = await serve({ turns: [{ content: [{ type: "text", text: "AFTER-FREEING" }] }] });
      // With an Asker, the session speaks to the app: its words say to send the message again.
      const session = await openOn(api, gitProject(), { ask: async () => ({ allow: true }) });
      try {
        fs!.fill();
        // Longer than a page: tmpfs hands out whole pages, so a short line could still fit in the log's last one.
        const message = `remember this ${"y".repeat(4200)} END`;
        const full = await session.runTurn(message, signal());
        expect(full).toMatchObject({ reason: "error", keepInput: true });
        expect(full.notSaved).toContain("the disk is full");
        expect(full.notSaved).toContain("Free some space and send your message again");
        expect(api.requests.filter((q) => q.path.startsWith("/v1/messages"))).toHaveLength(0);

        fs!.free();
        const again = await session.runTurn(message, signal());
        expect(again).toMatchObject({ reason: "finished", lastText: "AFTER-FREEING" });
        expect(again.notSaved).toBeUndefined();
        const lines = readFileSync(session.logPath, "utf8").split("\n").filter(Boolean);
        const events = lines.map((l) => parseEventLine(l));
        // Once, not twice: the message the full disk refused was not kept half-written.
        expect(events.filter((e) => e.type === "user_message").map((e) => (e.type === "user_message" ? e.content : null))).toEqual([message]);
      } finally {
        fs!.free();
        await session.close();
      }
    }, data);
  });
});
