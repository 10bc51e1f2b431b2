// The release manifest (manifest.json beside the binaries, written by `bun run release`): the
// version and, per platform, the file's name, size and sha256. `khaelor update` and the start-up
// check read it from the release URL; it crosses a trust boundary, so it is parsed, not assumed.
import { z } from "zod";
import { RELEASE_TARGETS } from "../platform/target.ts";

const FileEntry = z.strictObject({
  file: z.string().regex(/^[A-Za-z0-9._-]+$/, "a plain file name"),
  size: z.number().int().positive(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/, "64 lowercase hex digits"),
});
const Manifest = z.strictObject({
  name: z.literal("khaelor"),
  version: z.string().regex(/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/, "a version such as 1.2.3"),
  files: z.partialRecord(z.enum(RELEASE_TARGETS), FileEntry),
});
export type ReleaseFile = z.infer<typeof FileEntry>;
export type ReleaseManifest = z.infer<typeof Manifest>;

/** The manifest in `text`, or an error saying what is wrong with it and where it came from. */
export function parseManifest(text: string, from: string): ReleaseManifest {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new Error(`the release manifest at ${from} is not JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  const parsed = Manifest.safeParse(json);
  if (!parsed.success) {
    const what = parsed.error.issues.map((i) => `${i.path.join(".") || "(top)"}: ${i.message}`).join("; ");
    throw new Error(`the release manifest at ${from} is not one KHAELOR reads (${what})`);
  }
  return parsed.data;
}

export function manifestText(m: ReleaseManifest): string {
  return JSON.stringify(Manifest.parse(m), null, 2) + "\n";
}

/**
 * Compares versions as semver orders them (major.minor.patch, then a pre-release sorts before its
 * release; pre-release parts compared numerically when both are numbers). Negative: a is older.
 */
export function compareVersions(a: string, b: string): number {
  const split = (v: string) => {
    const [core = "", pre] = v.split(/-(.*)/s, 2);
    return { core: core.split(".").map(Number), pre: pre === undefined ? null : pre.split(".") };
  };
  const x = split(a);
  const y = split(b);
  for (let i = 0; i < 3; i++) {
    const d = (x.core[i] ?? 0) - (y.core[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  if (x.pre === null || y.pre === null) return x.pre === y.pre ? 0 : x.pre === null ? 1 : -1;
  for (let i = 0; i < Math.max(x.pre.length, y.pre.length); i++) {
    const p = x.pre[i];
    const q = y.pre[i];
    if (p === undefined || q === undefined) return p === undefined ? -1 : 1;
    if (p === q) continue;
    const pn = /^\d+$/.test(p);
    const qn = /^\d+$/.test(q);
    if (pn && qn) return Math.sign(Number(p) - Number(q));
    if (pn !== qn) return pn ? -1 : 1;
    return p < q ? -1 : 1;
  }
  return 0;
}
