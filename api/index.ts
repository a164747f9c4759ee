/**
 * The spec's constants: the values the API's reference fixes (roles, colour names, themes, tiers,
 * name patterns). Provider, policies and emulator all import them from here, so that the
 * library and its emulator cannot disagree about what the API accepts. Nothing but constants
 * and pure functions over them lives here; the emulator imports nothing else from the provider.
 */
export { AccessLevel, roleName } from "./access-levels";
export { CSS_COLORS, colorAsHex, isLabelColor } from "./css-colors";

/** The API's limits: active tokens per cluster agent. */
export const AGENT_TOKENS_MAX_ACTIVE = 2;
/** A receptive agent has at most one URL configuration. */
export const AGENT_URL_CONFIGURATIONS_MAX = 1;
/** The API's limits: one virtual registry cleanup policy per top-level group. */
export const CLEANUP_POLICIES_PER_GROUP = 1;
/** An installation has one primary Geo site. */
export const GEO_PRIMARY_SITES_MAX = 1;

/** The HTTP methods the API uses. */
export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** Themes of banner broadcast messages; `indigo` is the default. */
export const BROADCAST_THEMES = [
  "indigo",
  "light-indigo",
  "blue",
  "light-blue",
  "green",
  "light-green",
  "red",
  "light-red",
  "dark",
  "light",
] as const;

/** Kinds of broadcast messages (`banner` is the default). */
export const BROADCAST_TYPES = ["banner", "notification"] as const;

/** A broadcast message's `font` ("foreground color hex code"): `#RGB` or `#RRGGBB`, no colour names. */
export const BROADCAST_FONT = /^#(?:[0-9A-Fa-f]{3}){1,2}$/;

/** Roles a broadcast message may target (Guest to Owner). */
export const BROADCAST_TARGET_LEVELS = [10, 15, 20, 30, 40, 50] as const;

/** Deployment tiers: the names of group-level protected environments. */
export const DEPLOYMENT_TIERS = ["production", "staging", "testing", "development", "other"] as const;

/** Roles that may be given deploy rights or approvals: 30 Developer, 40 Maintainer, 60 Administrator. */
export const DEPLOY_ACCESS_LEVELS = [30, 40, 60] as const;

/** Cluster agent names are DNS labels: lower-case letters, digits and `-`, not at either end. */
export const AGENT_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
/** The longest cluster agent name. */
export const AGENT_NAME_MAX = 63;

/**
 * A receptive agent's URL. The API reference says only "agent URL"; the forge reaches the agent over
 * gRPC, so the service takes `grpc://` (plain) or `grpcs://` (TLS) with a host, and nothing
 * around it.
 */
export function isAgentUrl(value: string): boolean {
  if (value.trim() !== value) return false;
  try {
    const url = new URL(value);
    return (url.protocol === "grpc:" || url.protocol === "grpcs:") && url.hostname !== "";
  } catch {
    return false;
  }
}

/** The longest agent token name and description. */
export const AGENT_TOKEN_NAME_MAX = 255;
export const AGENT_TOKEN_DESCRIPTION_MAX = 1024;

/** The repository kinds of storage moves: each has `POST /<kind>_repository_storage_moves`. */
export const STORAGE_MOVE_KINDS = ["project", "snippet", "group"] as const;

/** How the forge authenticates to an instance cluster's API; `rbac` is the default. */
export const CLUSTER_AUTHORIZATION_TYPES = ["rbac", "abac", "unknown_authorization"] as const;

/** An instance cluster's API URL: http or https with a host (the service refuses other schemes). */
export function isClusterApiUrl(url: string): boolean {
  return /^https?:\/\/[^\s/]+/.test(url);
}

/** The access levels of a project membership: 0 No access to 50 Owner. */
export const PROJECT_MEMBER_ACCESS_LEVELS = [0, 5, 10, 15, 20, 30, 40, 50] as const;

/** Snippet visibilities; `internal` does not exist on the hosted multi-tenant offering. */
export const SNIPPET_VISIBILITIES = ["private", "internal", "public"] as const;

/** The capacities a Geo site gets when none are given (POST /geo_sites). */
export const GEO_CAPACITY_DEFAULTS = {
  files_max_capacity: 10,
  repos_max_capacity: 25,
  verification_max_capacity: 100,
  container_repositories_max_capacity: 10,
} as const;

/** A real calendar date written `YYYY-MM-DD` (no 30 February): the forge answers 400 "is invalid" otherwise. */
export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
}
