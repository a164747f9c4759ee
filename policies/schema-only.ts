/**
 * Resources with no limit beyond their input schema, which `forge-input-schema` enforces. Each
 * other resource has its own file in `rules/`; the coverage test fails for a declaration that
 * has neither, so a new resource cannot arrive without a decision about its policies.
 */
export const SCHEMA_ONLY: Readonly<Record<string, string>> = {
  ClusterAgent:
    "Its only rule is the name format (lower-case letters, digits and '-', at most 63 characters), which the schema holds; uniqueness in the project is checked by the forge.",
  GroupLabelSubscription: "Subscribing takes only the group and the label; re-subscribing is harmless (304), so there is nothing to limit.",
  JobTokenScope:
    "A boolean per project; whether the instance enforces allowlists (which refuses enabled=false) cannot be known at preview.",
  JobTokenScopeProjectAllowlistEntry: "A project id on an allowlist; the spec sets no limit on allowlist entries.",
  JobTokenScopeGroupAllowlistEntry: "A group id on an allowlist; the spec sets no limit on allowlist entries.",
};
