// Event ids are the ids hosts name messages by (stream-json's `uuid`, --resume-session-at): they
// must be UUIDs, and they still sort by creation time within a process (log order is id order).
import { expect, test } from "bun:test";
import { newEventId } from "../../src/events/id.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test("an event id is a version-7 UUID", () => {
  for (let i = 0; i < 50; i++) expect(newEventId()).toMatch(UUID);
});

test("ids made in one millisecond, and across milliseconds, sort in the order they were made", () => {
  const ids = [...Array.from({ length: 5000 }, () => newEventId(1_700_000_000_000)), newEventId(1_700_000_000_001), newEventId(1_700_000_000_002)];
  expect([...ids].sort()).toEqual(ids);
  expect(new Set(ids).size).toBe(ids.length);
});
