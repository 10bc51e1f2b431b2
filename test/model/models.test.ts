import { describe, expect, test } from "bun:test";
import Anthropic from "@anthropic-ai/sdk";
import { DEFAULT_MODEL, KNOWN_MODELS, costUsd, deprecationNotice, maxTokensFor, modelInfo } from "../../src/model/models.ts";
import type { Usage } from "../../src/model/types.ts";

const usage = (u: Partial<Usage>): Usage => ({ input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, ...u });

describe("models", () => {
  test("the default is a Sonnet the SDK knows", () => {
    const known: Anthropic.Model = DEFAULT_MODEL;
    expect(known).toMatch(/^claude-sonnet-/);
    expect(modelInfo(DEFAULT_MODEL)?.price).not.toBeNull();
  });

  test("cost adds input, output, cache writes and cache reads at their own rates", () => {
    // Sonnet 5.5: $2 in, $10 out, $2.50 cache write, $0.10 cache read per MTok.
    const cost = costUsd("claude-sonnet-5-5", usage({ input_tokens: 1_000_000, output_tokens: 100_000, cache_creation_input_tokens: 200_000, cache_read_input_tokens: 2_000_000 }));
    expect(cost).toBeCloseTo(2 + 1 + 0.5 + 0.2, 10);
  });

  test("a long prompt moves the whole request to the model's long-prompt rates", () => {
    const short = costUsd("claude-haiku-5-5", usage({ input_tokens: 100_000, output_tokens: 1000 }));
    const long = costUsd("claude-haiku-5-5", usage({ input_tokens: 100_001, output_tokens: 1000 }));
    expect(short).toBeCloseTo(0.1 * 0.1 + 0.0005, 10);
    expect(long).toBeCloseTo(100_001 * 0.5e-6 + 1000 * 2.5e-6, 10);
  });

  test("an unknown model, or one without a trusted price, costs null rather than a guess", () => {
    expect(costUsd("claude-imaginary-9", usage({ input_tokens: 10 }))).toBeNull();
    expect(costUsd("claude-fable-5-2", usage({ input_tokens: 10 }))).toBeNull();
  });

  test("max_tokens stays within the model's output cap and is conservative for unknown models", () => {
    for (const m of KNOWN_MODELS) expect(maxTokensFor(m)).toBeLessThanOrEqual(modelInfo(m)!.maxOutputTokens);
    expect(maxTokensFor("claude-sonnet-5-5")).toBe(32_000);
    expect(maxTokensFor("some-other-model")).toBe(8192);
    expect(modelInfo("claude-haiku-4-5-20251001")?.name).toBe("claude-haiku-4-5");
  });

  test("deprecated models carry a notice naming the date and a replacement", () => {
    expect(deprecationNotice("claude-sonnet-4-5")).toContain("2026-11-30");
    expect(deprecationNotice("claude-sonnet-4-5")).toContain(DEFAULT_MODEL);
    expect(deprecationNotice(DEFAULT_MODEL)).toBeNull();
  });
});
