/** The API's access levels (the numeric values are the wire format). */
export const AccessLevel = {
  NoAccess: 0,
  MinimalAccess: 5,
  Guest: 10,
  Planner: 15,
  Reporter: 20,
  Developer: 30,
  Maintainer: 40,
  Owner: 50,
  /** Only valid as a deploy access level of protected environments. */
  Admin: 60,
} as const;

const ROLE_NAMES: Record<number, string> = {
  0: "No access",
  5: "Minimal access",
  10: "Guest",
  15: "Planner",
  20: "Reporter",
  30: "Developer",
  40: "Maintainer",
  50: "Owner",
  60: "Admin",
};

/** Human name of a role, for messages and CLI output. */
export function roleName(level: number): string {
  return ROLE_NAMES[level] ?? `Level ${level}`;
}
