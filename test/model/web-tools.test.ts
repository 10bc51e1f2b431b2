import { describe, expect, test } from "bun:test";
import { costUsd, WEB_SEARCH_USD_PER_CALL } from "../../src/model/models.ts";
import { webToolSpecs, type WebToolRule } from "../../src/model/web-tools.ts";

const deny = (rule: string): WebToolRule => ({ rule, behavior: "deny" });
const allow = (rule: string): WebToolRule => ({ rule, behavior: "allow" });
const ask = (rule: string): WebToolRule => ({ rule, behavior: "ask" });
const names = (rules: WebToolRule[], mode = "default", settings = {}) => webToolSpecs(rules, mode, settings).map((t) => t.name);

describe("web tools under the rules", () => {
  test("offered in every mode unless a rule or the settings say no", () => {
    for (const mode of ["default", "acceptEdits", "plan", "bypassPermissions"]) expect(names([], mode)).toEqual(["web_search", "web_fetch"]);
    expect(names([deny("WebSearch")])).toEqual(["web_fetch"]);
    expect(names([deny("webfetch")])).toEqual(["web_search"]);
    expect(names([deny("WebFetch(*)"), deny("WebSearch")])).toEqual([]);
    expect(names([], "default", { webSearch: false })).toEqual(["web_fetch"]);
    expect(names([], "default", { webFetch: false, webSearch: false })).toEqual([]);
    // Other tools' rules change nothing.
    expect(names([deny("Bash"), allow("Read")])).toEqual(["web_search", "web_fetch"]);
  });

  test("an ask rule keeps the tool out, since no call can be asked about; bypassPermissions asks nothing", () => {
    expect(names([ask("WebSearch")])).toEqual(["web_fetch"]);
    expect(names([ask("WebSearch")], "plan")).toEqual(["web_fetch"]);
    expect(names([ask("WebSearch")], "bypassPermissions")).toEqual(["web_search", "web_fetch"]);
    // A specifier that is not a domain cannot be mapped: a deny of it is taken for the whole tool.
    expect(names([deny("WebFetch(https://example.com/*)")])).toEqual(["web_search"]);
  });

  test("domain rules become the tools' domain lists", () => {
    const [search, fetch] = webToolSpecs([deny("WebFetch(domain:Evil.example)"), deny("WebFetch(domain:*.ads.example)"), ask("WebFetch(domain:slow.example)")], "default");
    expect(search).toEqual({ type: "web_search_20260318", name: "web_search", blocked_domains: ["ads.example", "evil.example", "slow.example"] });
    expect(fetch).toEqual({ type: "web_fetch_20260318", name: "web_fetch", blocked_domains: ["ads.example", "evil.example", "slow.example"], max_content_tokens: 25_000 });
    // Allow rules naming domains limit fetches to them (a denied one is left out); search is not limited.
    const limited = webToolSpecs([allow("WebFetch(domain:docs.python.org)"), allow("WebFetch(domain:bun.sh)"), allow("WebFetch(domain:evil.example)"), deny("WebFetch(domain:evil.example)")], "default");
    expect(limited[0]).toEqual({ type: "web_search_20260318", name: "web_search", blocked_domains: ["evil.example"] });
    expect(limited[1]).toEqual({ type: "web_fetch_20260318", name: "web_fetch", allowed_domains: ["bun.sh", "docs.python.org"], max_content_tokens: 25_000 });
    // A bare allow opens every domain again; allows that are all denied leave nothing to fetch.
    expect(webToolSpecs([allow("WebFetch"), allow("WebFetch(domain:bun.sh)")], "default")[1]).toEqual({ type: "web_fetch_20260318", name: "web_fetch", max_content_tokens: 25_000 });
    expect(names([allow("WebFetch(domain:x.example)"), deny("WebFetch(domain:x.example)")])).toEqual(["web_search"]);
  });

  test("each web search is billed on top of the tokens", () => {
    const usage = { input_tokens: 1000, output_tokens: 100, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
    const tokens = costUsd("claude-sonnet-5-5", usage)!;
    const withSearches = costUsd("claude-sonnet-5-5", { ...usage, server_tool_use: { web_search_requests: 3, web_fetch_requests: 2 } })!;
    expect(withSearches - tokens).toBeCloseTo(3 * WEB_SEARCH_USD_PER_CALL, 10);
  });

  test("the bytes the tools add to every request", () => {
    // Reported in the closing note; a change here is a change in every request's size.
    // Two objects and two commas in the tools array: the same 128 bytes as the array alone.
    expect(JSON.stringify(webToolSpecs([], "default")).length).toBe(128);
  });
});
