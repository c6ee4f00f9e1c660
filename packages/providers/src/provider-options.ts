import type { ModelCatalog } from './catalog/model-catalog.js';

/** Environment variables a provider may read (API keys). */
export type ProviderEnv = Readonly<Record<string, string | undefined>>;

/**
 * Returns the API key for one request: called before every request, so short-lived keys (tokens
 * that expire during a long run) are fetched fresh. A throw or an empty key fails that call as `auth`.
 */
export type ApiKeyFunction = () => string | Promise<string>;

/** How a vendor provider reaches its API. Every field is optional. */
export interface ConnectionOptions {
  /**
   * The API key, or a function called for each request that returns one. Default: the provider's
   * environment variable (`OPENAI_API_KEY`…).
   */
  apiKey?: string | ApiKeyFunction;
  /** Where requests go (an OpenAI-compatible server, a proxy). Default: the vendor's API. */
  baseUrl?: string;
  /** Extra HTTP headers on every request. */
  headers?: Readonly<Record<string, string>>;
  /** Where API keys are looked up. Default: `process.env`. */
  env?: ProviderEnv;
  /** Prices and limits. Default: the built-in catalog. */
  catalog?: ModelCatalog;
  /** Timestamps of finished messages. Default: `Date.now`. */
  now?: () => number;
}

/** Anthropic prompt-caching breakpoints; each is on unless set to false / `none`. */
export interface AnthropicCacheOptions {
  /** A breakpoint after the system prompt. Default true. */
  system?: boolean;
  /** A breakpoint after the last tool definition. Default true. */
  tools?: boolean;
  /** Which message gets a breakpoint. Default `second-to-last`. */
  message?: 'second-to-last' | 'last' | 'none';
  /** Cache lifetime. Default `5m`. */
  ttl?: '5m' | '1h';
}

/** Options of the Anthropic provider. */
export interface AnthropicOptions extends ConnectionOptions {
  /** Prompt caching: `true` (default) for the default breakpoints, `false` for none, or which ones. */
  cache?: boolean | AnthropicCacheOptions;
}
