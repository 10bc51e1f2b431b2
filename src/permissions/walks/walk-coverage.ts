// Whether a command's directory walk (./command-walks.ts) reaches a path a Read rule denies or asks
// about. The walk's starts may all be allowed (`grep -r TOKEN .`) while a folder inside them is
// not; this compares the walk's reach with each rule's own pattern, as path segments, so deciding
// stays string work: nothing is listed for rules (only a glob the shell will expand is expanded, as
// before). Secret-bearing files are the exception, below.
//
// Per mode: a read-only command whose walk reaches a denied path asks in default, acceptEdits and
// plan (plan runs read-only commands and asks about their reads like the others), and is denied in
// bypassPermissions, which asks nobody and still honours deny rules for what read-only commands
// read. Commands outside the read-only set (cp -r, tar, zip, rsync, ag) ask; bypass runs them as it
// runs every such command, and plan refuses them before this is consulted. A start that is itself
// denied (`cp secrets/key.txt /tmp`) is denied like reading it; a move only asks.
//
// Secret-bearing files (what sensitiveReason flags: .env*, *.pem, id_rsa, ~/.ssh, ...) ask like an
// ask rule for contents walks, in every mode but bypass, but only where such files conventionally
// live and only when one is really there to be read: see secretsReached(). That is the one place
// here that lists a folder (the walk's start, once).
import { statSync } from "node:fs";
import { basename, dirname, isAbsolute, relative, resolve } from "node:path";
import type { LeaveOutTarget, RootSpelling, Walk } from "./types.ts";
import { depthSegments, globSegments, hasWildcard, mayIntersect, matchesName, nameGlobCovers, namesMayMatch, pathSegments, type Segment } from "../paths/glob-segments.ts";
import { isInside, realPath, SECRET_NAME_GLOBS, secretNameReason, secretPlaces } from "../paths/path-facts.ts";
import { anchorPattern, caseInsensitive } from "../rules/path-pattern.ts";
import { ruleLocation, type JudgeContext } from "../paths/decide-path.ts";
import { RuleSet, ruleSource, type CompiledRule } from "../rules/rule-set.ts";
import { expandGlob, globDirectory, globReach } from "../shell/shell-globs.ts";
import type { ShellWord } from "../shell/shell-words.ts";
import { spellBelow } from "./walk-args.ts";
import { gitLeftOut, secretEntries, type SecretEntry } from "./walk-secrets.ts";
import type { Decision } from "../types.ts";

type Start =
  | { kind: "path"; real: string; spelling: RootSpelling }
  | { kind: "glob"; word: ShellWord; base: string };

/**
 * A rule's pattern as segments: `covers`, every path it matches (and what is inside them);
 * `lists`, the folders whose every entry it matches, which is what listing a folder reveals
 * (`secrets/` for `secrets/**`, as `ls secrets` is denied while `ls` beside a denied `.env` is not).
 * With the literal folder it is anchored below and, when it names a single name below that, the name.
 */
type Shape = { rule: CompiledRule; covers: Segment[]; lists: Segment[][]; base: string | null; tail: string[]; name: string | null };

type Reach = { how: "direct" | "walk" | "glob" | "links"; start: Start; shape: Shape };

const fold = (p: string) => (caseInsensitive ? p.toLowerCase() : p);
const inside = (p: string, dir: string) => isInside(fold(p), fold(dir));
const matches = (shape: Shape, abs: string) => (shape.rule.matchPath as (p: string) => boolean)(abs);

/**
 * The decision for a walk that reaches a denied or asked-about path, or null when it reaches none.
 * `readOnly`: the command is in the read-only set (decides what bypass does).
 */
export function judgeWalk(ctx: JudgeContext, walk: Walk, part: { text: string; cwd: string | null }, readOnly: boolean): Decision | null {
  const starts = startsOf(walk, part.cwd);
  if (starts === "unknowable") {
    if (!readOnly) return null; // the command is asked about (or refused) as an unknown one already
    return ctx.mode === "bypassPermissions"
      ? null
      : { behavior: "ask", reason: `cannot tell which directory \`${part.text}\` goes through`, source: "parse-error" };
  }
  if (starts.length === 0) return null;
  const rules = ctx.rules
    .all()
    .filter((r) => r.parsed.tool === "Read" && r.matchPath && (r.behavior === "deny" || (r.behavior === "ask" && walk.verb !== "list" && ctx.mode !== "bypassPermissions")))
    .sort((a, b) => Number(a.behavior !== "deny") - Number(b.behavior !== "deny"));
  // a listing reveals the entries of the folders it lists, which lie one level above its depth
  const depth = depthSegments(walk.verb === "list" ? walk.depth - 1 : walk.depth);
  const reaches = starts.map((s) => [...(s.kind === "path" ? pathSegments(s.real, caseInsensitive) : globReach(s.word, s.base, caseInsensitive)), ...depth]);
  let found: Decision | null = null;
  find: for (const rule of rules) {
    const shape = shapeOf(rule, ctx);
    // history holds only what git tracks: a rule on untracked files (a gitignored secrets/) is not reached
    if (walk.history && !walk.history.tracked(shape.base, shape.name)) continue;
    for (const [i, start] of starts.entries()) {
      const how = reachOf(walk, shape, start, reaches[i] as Segment[]);
      if (how) {
        found = decisionFor(ctx, walk, part, readOnly, { how, start, shape });
        break find;
      }
    }
  }
  if (found?.behavior === "deny" || ctx.mode === "bypassPermissions") return found;
  const secrets = secretsReached(ctx, walk, part, starts, reaches);
  if (!secrets) return found;
  // both at once, so one answer (or one set of exclusions) settles the command
  if (found) return { ...found, reason: `${found.reason}; it ${secrets.replace(/^would /, "would also ")}` };
  return { behavior: "ask", reason: `\`${part.text}\` ${secrets}`, source: "sensitive-path" };
}

/**
 * Secret-bearing files a contents walk may read, as a phrase for the reason, or null. A walk of a
 * folder inside the project is the targeted search agents run all the time and is let through. A
 * walk that starts at the project root, above it, or outside the project (where .env files, keys
 * and home credentials conventionally live) lists its start folder once (walk-secrets.ts) and asks,
 * as reading one directly asks, only about the secret-bearing files there that it would read: not
 * those its exclusions, whitelist or hidden-file skipping leave out, nor those git ignores (for rg
 * and ag) or does not track (for git grep); and about the credential places below it that exist
 * (~/.ssh, /etc/shadow). A secret file deeper down is not looked for: that is the known limit of
 * bash walks, and the grep tool, which checks every file it searches, leaves such files out. When
 * the start cannot be listed (links followed, too many entries, unreadable), the walk must
 * verifiably leave out every name sensitiveReason flags, as before anything was listed. Key names
 * are left out by file exclusions alone (`--exclude='*.pem'`): a folder named like a key is rare.
 */
function secretsReached(ctx: JudgeContext, walk: Walk, part: { cwd: string | null }, starts: Start[], reaches: Segment[][]): string | null {
  // git's history views print what was committed; a secret file reaches them only by being committed
  if (walk.verb === "list" || walk.verb === "move" || walk.depth < 1 || walk.history) return null;
  for (const [i, start] of starts.entries()) {
    const level = start.kind === "path" ? start.real : realPath(globDirectory(start.word, start.base));
    const scan = secretCandidates(ctx, walk, start, level);
    if (scan === "none") continue;
    // known: the entries it would read; unknown: the names it does not verifiably leave out
    let read = scan.entries === null ? null : scan.entries.filter((e) => !entryLeftOut(walk, e, start));
    if (read !== null && read.length > 0 && walk.gitSkips) {
      const skipped = gitLeftOut(walk, level, read);
      read = read.filter((e) => !skipped.has(e.abs));
    }
    const names = read === null ? SECRET_NAME_GLOBS.filter((g) => !leavesOutName(walk, g)) : [];
    const places = !scan.places
      ? []
      : placeShapes(ctx).filter((shape) => {
          const how = reachOf(walk, shape, start, reaches[i] as Segment[]);
          // a start inside the place was asked about as a plain read
          return how !== null && how !== "direct";
        });
    if (names.length === 0 && (read?.length ?? 0) === 0 && places.length === 0) continue;
    const where = (abs: string) => shown(abs, part.cwd, ctx);
    const what = [...(read ?? []).map((e) => `${where(e.abs)}${e.dir ? "/" : ""}`), ...names, ...places.map((p) => `${where(p.base as string)}${p.tail.length > 0 ? "/" : ""}`)];
    const listed = what.length > 5 ? `${what.slice(0, 4).join(", ")} and ${what.length - 4} more` : what.join(", ");
    const options = [
      ...(read === null ? nameOptions(walk, names) : entryOptions(walk, read)),
      ...places.map((shape) => {
        const target = start.kind === "path" ? leaveOutTarget(shape, start) : null;
        return target && walk.leaveOut ? walk.leaveOut(target) : null;
      }),
    ];
    const hints: string[] = [];
    if (options.every((o) => o !== null)) {
      // find's clauses chain: `-name a -prune -o -name b -prune -o`, all before its tests
      const suffix = " before its tests";
      const git = "the pathspec ";
      let chained = (options as string[]).map((o) => (o.endsWith(suffix) ? o.slice(0, -suffix.length) : o)).join(" ");
      if (options.every((o) => o?.startsWith(git))) chained = `the pathspecs ${(options as string[]).map((o) => o.slice(git.length)).join(" ")}`;
      hints.push(`leave them out (${chained}${options.some((o) => o?.endsWith(suffix)) ? suffix : ""})`);
    }
    if (walk.tool) hints.push(`use the ${walk.tool} tool, which leaves paths that need asking out`);
    const from = start.kind === "path" ? where(level) : `${where(level)}/`;
    const scope = read === null ? ` wherever they are below ${from}` : places.length > 0 ? ` below ${from}` : "";
    return `would ${walk.verb} files that usually hold secrets${scope} (${listed}), which asks like reading one does; ${hints.length > 0 ? hints.join(" or ") : "name only the paths it needs"}`;
  }
  return null;
}

/**
 * What a start may hold of secret-bearing files: "none" for a folder inside the project (only a
 * start that is itself such a file counts there); otherwise the entries found by listing it once
 * (null when it cannot be listed, or links are followed and may lead anywhere), and whether the
 * credential places below it count.
 */
function secretCandidates(ctx: JudgeContext, walk: Walk, start: Start, level: string): "none" | { entries: SecretEntry[] | null; places: boolean } {
  const within = !walk.followsLinks && isInside(level, ctx.root) && level !== ctx.root;
  if (start.kind === "glob") {
    if (within) return "none";
    // what the shell expands is named on the command line: read whatever ignore files say
    const listed = walk.followsLinks ? null : secretEntries(level);
    return { entries: listed && listed.map((e) => ({ ...e, given: true })), places: true };
  }
  const name = basename(start.real);
  const own: SecretEntry[] = secretNameReason(name) ? [{ name, abs: start.real, dir: kindOf(start.real) === "dir", given: true }] : [];
  if (within) return own.length > 0 ? { entries: own, places: false } : "none";
  const listed = walk.followsLinks ? null : secretEntries(level);
  return { entries: listed && [...own, ...listed], places: true };
}

/** Whether the walk verifiably leaves out this entry of its start folder. */
function entryLeftOut(walk: Walk, e: SecretEntry, start: Start): boolean {
  if (e.given) return false;
  if (walk.skipsHidden && e.name.startsWith(".")) return true;
  if (walk.skipNames.some((s) => (e.dir ? s.dirs : s.files) && matchesName(s.glob, e.name, s.ignoreCase))) return true;
  if (start.kind === "path" && walk.skipPaths.some((s) => (!s.dirsOnly || e.dir) && s.test(e.abs, start.spelling))) return true;
  // a whitelist (grep's leading --include, rg's positive -g) that cannot match its name
  return !e.dir && !!walk.onlyNames && !walk.onlyNames.some((o) => matchesName(o.glob, e.name, o.ignoreCase));
}

/** The exclusions, in the command's own form, that leave out secret-bearing names it may meet anywhere. */
function nameOptions(walk: Walk, names: string[]): Array<string | null> {
  // `.env*` leaves out both `.env` and `.env.*`
  const envs = [".env", ".env.*"];
  const leave = envs.every((e) => names.includes(e)) ? [".env*", ...names.filter((n) => !envs.includes(n))] : names;
  return leave.map((name) => walk.leaveOut?.({ name, kind: "file", spelled: null, fromCwd: null }) ?? null);
}

/** The exclusions that leave out these entries, by the name globs they fall under (`.env*`, `*.pem`); none for a start itself. */
function entryOptions(walk: Walk, entries: SecretEntry[]): Array<string | null> {
  const kinds = new Map<string, LeaveOutTarget["kind"]>();
  const options: Array<string | null> = [];
  for (const e of entries) {
    if (e.given) {
      options.push(null);
      continue;
    }
    const glob = e.name === ".env" || e.name.startsWith(".env.") ? ".env*" : (SECRET_NAME_GLOBS.find((g) => matchesName(g, e.name)) ?? e.name);
    const kind = e.dir ? "dir" : "file";
    const had = kinds.get(glob);
    kinds.set(glob, had === undefined || had === kind ? kind : "any");
  }
  for (const [name, kind] of kinds) options.push(walk.leaveOut?.({ name, kind, spelled: null, fromCwd: null }) ?? null);
  return options;
}

/** Whether the walk verifiably reads no file with a name the glob matches. */
function leavesOutName(walk: Walk, glob: string): boolean {
  if (walk.skipsHidden && glob.startsWith(".")) return true;
  if (walk.skipNames.some((s) => s.files && nameGlobCovers(s.glob, glob, s.ignoreCase))) return true;
  return !!walk.onlyNames && !walk.onlyNames.some((o) => namesMayMatch(o.ignoreCase ? o.glob.toLowerCase() : o.glob, o.ignoreCase ? glob.toLowerCase() : glob));
}

let places: { key: string; shapes: Shape[] } | null = null;

/** The credential places that exist (~/.ssh, /etc/shadow, ...), as shapes of ask rules on them. */
function placeShapes(ctx: JudgeContext): Shape[] {
  const existing = secretPlaces(ctx.home).filter((abs) => kindOf(abs) !== "any");
  const key = `${ctx.root}\0${ctx.home}\0${existing.join("\0")}`;
  if (places?.key === key) return places.shapes;
  const set = new RuleSet({ root: ctx.root, home: ctx.home });
  for (const abs of existing) set.add({ rule: `Read(${ruleLocation(ctx, abs)}${kindOf(abs) === "dir" ? "/**" : ""})`, behavior: "ask", scope: "session" });
  places = { key, shapes: set.all().map((rule) => shapeOf(rule, ctx)) };
  return places.shapes;
}

function startsOf(walk: Walk, cwd: string | null): Start[] | "unknowable" {
  const out: Start[] = [];
  for (const root of walk.roots) {
    const { word, dir } = root;
    if (word.dynamic || dir?.dynamic) return "unknowable";
    const anchored = isAbsolute(word.text) || (dir !== undefined && isAbsolute(dir.text));
    if (cwd === null && !anchored) return "unknowable";
    const base = resolve(cwd ?? "/", dir?.text ?? ".");
    const spelling = (real: string, text: string) => ({ text, real, cwd: realPath(base), implicit: !!root.implicit });
    if (word.glob) {
      // what it matches now, each judged where it really is; the pattern itself only when there were too many to look at
      const { matches, complete } = expandGlob(word.pattern, base);
      for (const m of matches) out.push({ kind: "path", real: realPath(m), spelling: spelling(realPath(m), relative(base, m)) });
      if (!complete) out.push({ kind: "glob", word, base });
    } else {
      const real = realPath(resolve(base, word.text));
      out.push({ kind: "path", real, spelling: spelling(real, root.implicit ? "." : word.text) });
    }
  }
  return out;
}

function shapeOf(rule: CompiledRule, ctx: JudgeContext): Shape {
  const { prefix, pattern } = anchorPattern(rule.parsed.specifier as string, { root: ctx.root, home: ctx.home });
  const raw = pattern.split("/").filter((s) => s !== "");
  const any: Segment = { kind: "any" };
  const anchor = prefix === null ? [any] : pathSegments(prefix, caseInsensitive);
  const covers = [...anchor, ...globSegments(pattern, { fold: caseInsensitive, rule: true }), any];
  // a last segment every name matches (`secrets/*`, `secrets/**`) denies every entry of the folder above it
  const last = raw[raw.length - 1];
  const lists = [covers];
  if (last === "*" || last === "**") lists.push([...anchor, ...globSegments(raw.slice(0, -1).join("/"), { fold: caseInsensitive }), any]);
  if (prefix === null) return { rule, covers, lists, base: null, tail: raw, name: nameOf(raw) };
  const literal = raw.findIndex((s) => hasWildcard(s) || s.includes("**"));
  const lit = literal === -1 ? raw : raw.slice(0, literal);
  const base = `${prefix}/${lit.map((s) => s.replace(/\\(.)/g, "$1")).join("/")}`.replace(/(.)\/$/, "$1");
  const tail = raw.slice(lit.length);
  // a rule on one path that is a file (`./.env`) has no entries to list
  if (tail.length === 0 && kindOf(base) !== "dir") lists.length = 0;
  return { rule, covers, lists, base, tail, name: nameOf(tail) };
}

/** `.env`, `**\/.env`: a rule that denies whatever has one name, at any depth below its base. */
function nameOf(tail: string[]): string | null {
  const rest = tail.slice(tail.findIndex((s) => s !== "**"));
  return tail.some((s) => s !== "**") && rest.length === 1 && !(rest[0] as string).includes("**") ? (rest[0] as string) : null;
}

function reachOf(walk: Walk, shape: Shape, start: Start, reach: Segment[]): Reach["how"] | null {
  // the start itself, or (for a walk) every entry of it, is what the rule covers
  if (start.kind === "path" && (matches(shape, start.real) || (walk.depth >= 1 && matches(shape, `${start.real === "/" ? "" : start.real}/\u0001`)))) return "direct";
  // links can reach the folder under another name, where no exclusion applies
  if (walk.followsLinks && walk.depth >= 1) return "links";
  const targets = walk.verb === "list" ? shape.lists : [shape.covers];
  if (walk.verb === "list" && walk.depth < 1) return null;
  if (!targets.some((t) => mayIntersect(reach, t))) return null;
  if (start.kind === "path" && leftOut(walk, shape, start)) return null;
  return start.kind === "glob" ? "glob" : "walk";
}

type Stop = { abs: string; kind: "dir" | "file" | "any" };

/** The folders a walk from `start` passes through to reach the rule's base, the base last. */
function pathToBase(shape: Shape, start: Extract<Start, { kind: "path" }>): Stop[] {
  const { base } = shape;
  if (base === null || base === start.real || !inside(base, start.real)) return [];
  const stops: Stop[] = [];
  for (let p = base; p !== start.real && p !== dirname(p); p = dirname(p)) stops.unshift({ abs: p, kind: "dir" });
  const last = stops[stops.length - 1] as Stop;
  if (matches(shape, base)) last.kind = kindOf(base);
  return stops;
}

function kindOf(abs: string): Stop["kind"] {
  try {
    return statSync(abs).isDirectory() ? "dir" : "file";
  } catch {
    return "any";
  }
}

/** Whether the command verifiably leaves out everything the rule covers below this start. */
function leftOut(walk: Walk, shape: Shape, start: Extract<Start, { kind: "path" }>): boolean {
  const stops = pathToBase(shape, start);
  // names are compared as the rule spells them, case and all: the command compares them with what is on disk
  const skipsName = (name: string, kind: Stop["kind"], exact: boolean) => {
    const fits = walk.skipNames.filter((s) => (exact ? s.glob === name : matchesName(s.glob, name, s.ignoreCase)));
    const dirs = fits.some((s) => s.dirs);
    const files = fits.some((s) => s.files);
    return kind === "dir" ? dirs : kind === "file" ? files : dirs && files;
  };
  const skipsPath = (stop: Stop) => walk.skipPaths.some((s) => (!s.dirsOnly || stop.kind === "dir") && s.test(stop.abs, start.spelling));
  if (stops.some((s) => skipsName(basename(s.abs), s.kind, false) || skipsPath(s))) return true;
  // a rule on what is inside its base: leaving out the base's contents is enough
  const base = shape.base;
  if (base !== null && stops.length > 0 && !matches(shape, base) && skipsPath({ abs: `${base}/\u0001`, kind: "any" })) return true;
  const name = shape.name;
  if (name !== null && skipsName(name, "any", hasWildcard(name))) return true;
  // a rule on one file whose name the walk's whitelist (`rg -g '*.ts'`) cannot match
  if (walk.onlyNames && base !== null && shape.tail.length === 0 && kindOf(base) === "file") {
    const file = basename(base);
    if (!walk.onlyNames.some((o) => namesMayMatch(o.ignoreCase ? o.glob.toLowerCase() : o.glob, o.ignoreCase ? file.toLowerCase() : file))) return true;
  }
  if (!walk.skipsHidden) return false;
  // hidden names are skipped: a dot on the way, a dot-name rule, or a rule whose every match starts with a dot below its base
  const dot = (glob: string | undefined) => glob !== undefined && glob.startsWith(".");
  const baseReached = base !== null && inside(base, start.real);
  return stops.some((s) => basename(s.abs).startsWith(".")) || dot(name ?? undefined) || (baseReached && dot(shape.tail[0]));
}

function decisionFor(ctx: JudgeContext, walk: Walk, part: { text: string; cwd: string | null }, readOnly: boolean, reach: Reach): Decision {
  const { how, start, shape } = reach;
  const denies = shape.rule.behavior === "deny";
  const behavior = how === "direct" ? (denies && walk.verb !== "move" ? "deny" : "ask") : denies && readOnly && ctx.mode === "bypassPermissions" ? "deny" : "ask";
  const where = (abs: string) => shown(abs, part.cwd, ctx);
  const what = describe(shape, start, how, where);
  const act = (target: string, folder: boolean) => (walk.verb === "list" && folder ? `list what is in ${target}` : `${walk.verb} ${target}`);
  const startReal = start.kind === "path" ? start.real : null;
  const phrase =
    how === "direct" && startReal !== null
      ? `would ${act(where(startReal), kindOf(startReal) === "dir")}`
      : how === "glob"
        ? `may match paths in ${what}`
        : how === "links"
          ? `follows symbolic links, so it may reach ${what}`
          : `would ${act(what, what.endsWith("/"))}`;
  const hint =
    how === "direct"
      ? null
      : how === "glob"
        ? "narrow the pattern so it cannot match there, or name the files"
        : how === "links"
          ? [walk.unfollow, walkHint(walk, shape, start, denies)].filter(Boolean).join(", and ")
          : walkHint(walk, shape, start, denies);
  const rule = `${shape.rule.rule} ${denies ? "denies" : "asks about"} (${shape.rule.scope} settings)`;
  return { behavior, reason: `\`${part.text}\` ${phrase}, which ${rule}${hint ? `; ${hint}` : ""}`, source: ruleSource(shape.rule) };
}

function describe(shape: Shape, start: Start, how: Reach["how"], where: (abs: string) => string): string {
  const from = start.kind === "path" ? start.real : null;
  if (shape.base !== null && (from === null || how === "links" || inside(shape.base, from))) {
    return shape.tail.length > 0 || kindOf(shape.base) === "dir" ? `${where(shape.base)}/` : where(shape.base);
  }
  if (shape.name !== null) return `anything named ${shape.name}`;
  return from === null ? "paths it covers" : `paths below ${where(from)}`;
}

function walkHint(walk: Walk, shape: Shape, start: Start, denies: boolean): string {
  const options: string[] = [];
  const target = start.kind === "path" ? leaveOutTarget(shape, start) : null;
  const leave = target && walk.leaveOut ? walk.leaveOut(target) : null;
  if (leave) options.push(`leave it out (${leave})`);
  if (walk.tool) options.push(`use the ${walk.tool} tool, which leaves ${denies ? "denied paths" : "paths that need asking"} out`);
  return options.length > 0 ? options.join(" or ") : "name only the paths it needs";
}

function leaveOutTarget(shape: Shape, start: Extract<Start, { kind: "path" }>): LeaveOutTarget | null {
  // the base itself: the folder the rule names, whatever lies between it and the start
  const stop = pathToBase(shape, start).pop();
  if (stop) return { name: basename(stop.abs), kind: stop.kind, spelled: spellBelow(start.spelling, stop.abs), fromCwd: relative(start.spelling.cwd, stop.abs) };
  return shape.name !== null ? { name: shape.name, kind: "any", spelled: null, fromCwd: null } : null;
}

/** A path as the user would write it from where the command runs (`../secrets` from inside the project). */
function shown(abs: string, cwd: string | null, ctx: { root: string; home: string }): string {
  if (cwd !== null && (inside(abs, cwd) || (inside(abs, ctx.root) && inside(cwd, ctx.root)))) return relative(cwd, abs) || ".";
  if (inside(abs, ctx.home)) return abs === ctx.home ? "~" : `~/${relative(ctx.home, abs)}`;
  return abs;
}
