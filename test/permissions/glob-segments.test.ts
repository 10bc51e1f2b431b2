// Whether two path globs can match a common path: the comparison that decides if a walk reaches
// what a rule covers. A "no" must be certain (it lets a command run); a "yes" may be cautious.
import { expect, test } from "bun:test";
import { depthSegments, globSegments, mayIntersect, namesMayMatch, pathSegments } from "../../src/permissions/paths/glob-segments.ts";

const rule = (p: string) => [...globSegments(p, { rule: true }), { kind: "any" as const }];
const walk = (start: string, depth: number) => [...pathSegments(start), ...depthSegments(depth)];

test("a walk reaches a rule's folder when the folder lies within its depth", () => {
  const secrets = rule("/p/secrets/**");
  expect(mayIntersect(walk("/p", Infinity), secrets)).toBe(true);
  expect(mayIntersect(walk("/p", 2), secrets)).toBe(true);
  // secrets/** matches what is inside the folder, one level below it at least
  expect(mayIntersect(walk("/p", 1), secrets)).toBe(false);
  expect(mayIntersect(walk("/p/src", Infinity), secrets)).toBe(false);
  expect(mayIntersect(walk("/", Infinity), secrets)).toBe(true);
  expect(mayIntersect(walk("/p/secrets/deep", 0), secrets)).toBe(true);
});

test("globs on both sides: `**` spans any depth, `*` one segment, literal text must agree", () => {
  expect(mayIntersect(globSegments("/p/*/*.ts"), rule("/p/secrets/**"))).toBe(true);
  expect(mayIntersect(globSegments("/p/src/*.ts"), rule("/p/secrets/**"))).toBe(false);
  expect(mayIntersect(globSegments("/p/*.ts"), rule("/p/*.key"))).toBe(false);
  // a folder named x.key holds y.ts, and a rule on a folder covers what is inside it
  expect(mayIntersect(globSegments("/p/**/*.ts"), rule("/p/**/*.key"))).toBe(true);
  expect(mayIntersect(globSegments("/p/**"), rule("/p/**/*.key"))).toBe(true);
  expect(mayIntersect(globSegments("/p/*"), rule("/p/a/b/**"))).toBe(false);
  // a bare-name rule matches at any depth
  expect(mayIntersect(walk("/anywhere", Infinity), [{ kind: "any" }, ...globSegments(".env", { rule: true }), { kind: "any" }])).toBe(true);
});

test("two name globs may match one name only if their literal beginnings and endings agree", () => {
  expect(namesMayMatch("*.ts", "*.pem")).toBe(false);
  expect(namesMayMatch("sec*", "*rets")).toBe(true);
  expect(namesMayMatch("a*", "b*")).toBe(false);
  expect(namesMayMatch("secrets", "s?crets")).toBe(true);
  expect(namesMayMatch("secrets", "[st]ecrets")).toBe(true);
  expect(namesMayMatch("secrets", "[xy]ecrets")).toBe(false);
  expect(namesMayMatch("\\*x", "*x")).toBe(true);
  expect(namesMayMatch("\\*x", "a*")).toBe(false);
});

test("a segment crossing slashes (`a**b`) is widened to any depth, never narrowed", () => {
  expect(mayIntersect(globSegments("/p/src**"), rule("/p/src/deep/secrets/**"))).toBe(true);
  expect(mayIntersect(globSegments("/p/a/*"), rule("/p/a/b/c/**"))).toBe(false);
});
