/** HTTP client for the forge REST API: see docs/contracts.md, "HTTP client". */
export { ForgeClient, clientFor, closeClients, tokenFingerprint, DEFAULT_TIMEOUT_MS, MAX_REDIRECTS } from "./client";
export type { ForgeClientOptions, ForgeResponse, ListOptions, RequestOptions } from "./client";
export { resolveConnection, normalizeBaseUrl, BASE_URL_CONFIG_KEY, TOKEN_CONFIG_KEY, BASE_URL_ENV, TOKEN_ENV } from "./connection";
export type { Connection, ConfigSource } from "./connection";
export { placeParams, fillPath, encodeQuery, toFormData, containsBinary } from "./encoding";
export type { PlacedRequest } from "./encoding";
export { HTTP_METHODS, parseRoute, templateParameters, fillTemplate, isPlainObject } from "./route";
export type { HttpMethod, Route, ParsedRoute } from "./route";
export { ForgeApiError, ForgeConfigError, ForgeNetworkError, isNotFound, extractServerMessage, TOKEN_HINT, BASE_URL_HINT } from "./errors";
export { parseLinkHeader, nextPageUrl, MAX_PAGES, PER_PAGE } from "./pagination";
export type { LinkEntry } from "./pagination";
export { DEFAULT_RETRY_POLICY, classifyAttempt, retryDelayMs, serverDelayMs, runWithRetry } from "./retry";
export type { RetryPolicy, RetryVerdict, AttemptOutcome, RawResponse, NetworkFailure } from "./retry";
export { USER_AGENT } from "./version";
