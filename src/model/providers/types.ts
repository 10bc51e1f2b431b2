// The vocabulary of the providers KHAELOR reaches Claude through: Anthropic's API (or a gateway in
// front of it), Amazon Bedrock, Google Vertex AI and Microsoft Foundry, each through Anthropic's own
// client package. Plain data; the client code is in the provider's own file.
import type Anthropic from "@anthropic-ai/sdk";

export type ProviderKind = "anthropic" | "bedrock" | "vertex" | "foundry";

/** The environment as read (process.env, or a test's own). */
export type Env = Readonly<Record<string, string | undefined>>;

/** The user's own settings the provider reads (a project's file never picks the key). */
export type ProviderSettings = { apiKey?: string | undefined; apiKeyHelper?: string | undefined };

/** What one request needs of a client package: every one of them is the same SDK underneath. */
export type SdkClient = { messages: Pick<Anthropic["messages"], "create"> & Partial<Pick<Anthropic["messages"], "countTokens">> };

/** The variables an error names, per provider: what to set when the credentials or the endpoint are wrong. */
export type ErrorHints = {
  /** "Amazon Bedrock" */
  name: string;
  /** A sentence: where the credentials come from and what to set. */
  credentials: string;
  /** The variable that moves the endpoint. */
  endpointVar: string;
  /** How model ids look there. */
  models: string;
};

/** A provider, ready to send: the client package for the next request and what the errors say. */
export type Connection = {
  kind: ProviderKind;
  baseURL: string;
  /** The client for the next request; `renew` after the server refused the credentials (a key helper runs again). */
  sdk(renew: boolean): Promise<SdkClient>;
  /** True when renewing can help: a refused key is worth one more try with a fresh one. */
  renewable: boolean;
  /** The id this provider is sent for a model name KHAELOR uses. */
  wireModel(model: string): string;
  hints: ErrorHints;
};

/** A setting is missing or wrong: one line naming what to set. The session does not open (exit 2 in print mode). */
export class ProviderConfigError extends Error {
  override name = "ProviderConfigError";
}

export const PROVIDER_NAMES: Record<ProviderKind, string> = {
  anthropic: "Anthropic API",
  bedrock: "Amazon Bedrock",
  vertex: "Google Vertex AI",
  foundry: "Microsoft Foundry",
};
