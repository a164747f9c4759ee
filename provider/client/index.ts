/** HTTP client for the forge REST API: see docs/contracts.md, "HTTP client". Only what other
 *  parts use is exported here; tests of the client's pieces import their modules directly. */
export { ForgeClient, clientFor, closeClients, tokenFingerprint } from "./client";
export type { ListOptions, ListingPage } from "./client";
export { resolveConnection, normalizeBaseUrl } from "./connection";
export type { Transport } from "./connection";
export type { Connection } from "./connection";
export { placeParams, fillPath, encodeQuery } from "./encoding";
export { parseRoute, isPlainObject } from "./route";
export type { Endpoint, RouteParams } from "./route";
export {
  ForgeApiError,
  ForgeConfigError,
  ForgeNetworkError,
  ForgeNotApiError,
  isAnswerLost,
  isNotFound,
  extractServerMessage,
} from "./errors";
export { parseLinkHeader, nextPageUrl } from "./pagination";
export { DEFAULT_RETRY_POLICY, classifyAttempt, retryDelayMs, serverDelayMs } from "./retry";
export type { RetryPolicy } from "./retry";
export { USER_AGENT } from "./version";
export { forgeClockOffset } from "./forge-clock";
