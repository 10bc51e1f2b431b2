// Images the user hands us: what they are by their bytes, their dimensions from their headers, and
// the API's limits checked before anything is sent.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { IMAGE_LIMITS, checkImage, imageSize, manyImagesProblem, sniffImage } from "../../src/model/images.ts";
import { loadImageFile } from "../../src/workspace/image-file.ts";
import { gifHeader, jpegHeader, makePng, webpHeader } from "../support/images.ts";

const dir = () => mkdtempSync(join(tmpdir(), "khaelor-img-"));

describe("magic bytes", () => {
  test("each format is known by its bytes, whatever its name", () => {
    expect(sniffImage(makePng(3, 2))).toBe("image/png");
    expect(sniffImage(jpegHeader(10, 20))).toBe("image/jpeg");
    expect(sniffImage(gifHeader(5, 6))).toBe("image/gif");
    expect(sniffImage(webpHeader(7, 8))).toBe("image/webp");
    expect(sniffImage(Buffer.from("<html>not a png</html>"))).toBeNull();
    expect(sniffImage(Buffer.from("RIFF....WAVEfmt "))).toBeNull();
    expect(sniffImage(Buffer.alloc(0))).toBeNull();
  });

  test("dimensions come from each format's header", () => {
    expect(imageSize(makePng(640, 480), "image/png")).toEqual({ width: 640, height: 480 });
    expect(imageSize(jpegHeader(1920, 1080), "image/jpeg")).toEqual({ width: 1920, height: 1080 });
    expect(imageSize(gifHeader(33, 44), "image/gif")).toEqual({ width: 33, height: 44 });
    expect(imageSize(webpHeader(9000, 12), "image/webp")).toEqual({ width: 9000, height: 12 });
    // A header cut short is no answer, not a crash.
    expect(imageSize(makePng(4, 4).subarray(0, 18), "image/png")).toBeNull();
  });
});

describe("the API's limits", () => {
  test("an image over 8000 px a side is refused, saying that nothing here can scale it", () => {
    const r = checkImage("wide.gif", gifHeader(8001, 10));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.notImage).toBe(false);
    expect(r.reason).toContain("8001×10 pixels");
    expect(r.reason).toContain("cannot scale");
    expect(checkImage("ok.gif", gifHeader(8000, 8000)).ok).toBe(true);
  });

  test("the size cap is the API's 5 MB of base64: a file past 3.75 MB is refused before it is read whole", () => {
    const d = dir();
    const big = join(d, "big.png");
    // A real PNG header, then padding up to one byte over the cap.
    const png = makePng(2, 2);
    writeFileSync(big, Buffer.concat([png, Buffer.alloc(IMAGE_LIMITS.maxBytes + 1 - png.length)]));
    const r = loadImageFile(big);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.notImage).toBe(false);
      expect(r.reason).toContain("big.png is 3.8 MB");
      expect(r.reason).toContain("cannot scale or recompress");
    }
    expect(Math.ceil(IMAGE_LIMITS.maxBytes / 3) * 4).toBe(IMAGE_LIMITS.maxBase64Chars);
  });

  test("more than 20 images in a request take none over 2000 px", () => {
    const small = { name: "s.png", mediaType: "image/png" as const, bytes: Buffer.alloc(1), width: 100, height: 100 };
    const large = { ...small, name: "l.png", width: 2500, height: 100 };
    expect(manyImagesProblem([large])).toBeNull();
    expect(manyImagesProblem(Array(21).fill(small))).toBeNull();
    expect(manyImagesProblem([...Array(20).fill(small), large])).toContain("l.png is 2500×100 pixels");
  });
});

describe("loading a file", () => {
  test("a real image loads with its type from its bytes; a misnamed text file and a missing file are not images", () => {
    const d = dir();
    writeFileSync(join(d, "shot.png"), makePng(64, 32));
    writeFileSync(join(d, "photo.webp"), makePng(5, 5)); // a PNG named .webp: sent as the PNG it is
    writeFileSync(join(d, "fake.png"), "<!doctype html><title>saved page</title>");
    const shot = loadImageFile(join(d, "shot.png"));
    expect(shot.ok && shot.image).toMatchObject({ name: "shot.png", mediaType: "image/png", width: 64, height: 32 });
    const renamed = loadImageFile(join(d, "photo.webp"));
    expect(renamed.ok && renamed.image.mediaType).toBe("image/png");
    for (const name of ["fake.png", "missing.png"]) {
      const r = loadImageFile(join(d, name));
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.notImage).toBe(true);
    }
  });

  test("a FIFO or a link to /dev/zero named .png is refused without blocking", () => {
    const d = dir();
    execFileSync("mkfifo", [join(d, "pipe.png")]);
    symlinkSync("/dev/zero", join(d, "zero.png"));
    for (const name of ["pipe.png", "zero.png"]) {
      const r = loadImageFile(join(d, name));
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.reason).toContain("not a regular file");
    }
  });
});
