/**
 * What an instance administrator declares on a forge, as code. Each area lives in a module of
 * its own beside this file; this entry point loads them and exports what they export.
 *
 * Connection: FORGE_BASE_URL and FORGE_TOKEN (an administrator's token) in the environment, or
 * stack config `forge:baseUrl` and `pulumi config set --secret forge:token ...`. Defaults fit the
 * emulator's seed (see docs/emulator.md).
 */
export * from "./cleanup-policy";
export * from "./error-tracking";
export * from "./storage-moves";
export * from "./clusters";
export * from "./features";
export * from "./feature-flag-user-lists";
export * from "./geo-sites";
export * from "./snippets";
