// Images a host sends (an editor over ACP, a stream-json host) are checked as pasted ones are.
import { expect, test } from "bun:test";
import { hostImage } from "../../src/model/images.ts";
import { userContent } from "../../src/modes/stream-json/content.ts";
import { gifHeader, makePng } from "../support/images.ts";

test("an image keeps the type its bytes say; a non-image, bad base64 or one past the limits is left out with the reason", () => {
  const png = makePng(8, 8).toString("base64");
  const r = userContent([
    { type: "image", source: { type: "base64", media_type: "image/gif", data: png } },
    { type: "image", source: { type: "base64", media_type: "image/png", data: Buffer.from("<svg/>").toString("base64") } },
    { type: "image", source: { type: "base64", media_type: "image/gif", data: gifHeader(9000, 10).toString("base64") } },
    { type: "text", text: "what are these?" },
  ]);
  expect(r.content).toEqual([{ type: "image", source: { type: "base64", media_type: "image/png", data: png } }, { type: "text", text: "what are these?" }]);
  expect(r.skipped[0]).toBe("image 2 (not a PNG, JPEG, GIF or WebP image)");
  expect(r.skipped[1]).toContain("image 3 is 9000×10 pixels");
  expect(hostImage("not*base64", "image 1")).toEqual({ skipped: "image 1 (its data is not base64)" });
});
