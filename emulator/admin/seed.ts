import { AccessLevel } from "../../spec";
import type { Core } from "../core/core";
import type { GroupRecord, Membership, ProjectRecord, UserRecord } from "../core/records";
import { type EmulatorState, emptyState } from "../registry";

/** Fixed creation time of seeded records, so that seeded answers are reproducible. */
const SEED_TIME = "2024-01-01T00:00:00.000Z";

/** The token of a seeded user: `forge-<username>-token`. */
export const seedToken = (username: string): string => `forge-${username}-token`;

/** Seeded users in id order, with their role in `acme` (none for root and nomad). */
const SEED_USERS: { username: string; name: string; admin: boolean; acmeLevel?: number }[] = [
  { username: "root", name: "Administrator", admin: true },
  { username: "olivia", name: "Olivia Owner", admin: false, acmeLevel: AccessLevel.Owner },
  { username: "max", name: "Max Maintainer", admin: false, acmeLevel: AccessLevel.Maintainer },
  { username: "dev", name: "Dev Developer", admin: false, acmeLevel: AccessLevel.Developer },
  { username: "rita", name: "Rita Reporter", admin: false, acmeLevel: AccessLevel.Reporter },
  { username: "gus", name: "Gus Guest", admin: false, acmeLevel: AccessLevel.Guest },
  { username: "nomad", name: "Nomad Outsider", admin: false },
];

/**
 * The fixed seed of docs/contracts.md: users root (administrator), olivia, max, dev, rita, gus
 * (Owner to Guest of `acme`) and nomad (no membership); groups `acme` and `acme/platform`;
 * projects `acme/web`, `acme/api`, `acme/platform/deployer`. Everything is private, so that
 * nomad and anonymous callers see 404s. `acme/web` is shared with `acme/platform` (Developer)
 * so that project-level protected environments have an assignable group.
 */
export function seedState(): EmulatorState {
  const state = emptyState();
  const users: UserRecord[] = SEED_USERS.map((seed, index) => ({
    id: index + 1,
    username: seed.username,
    name: seed.name,
    email: `${seed.username}@example.com`,
    state: "active",
    admin: seed.admin,
    token: seedToken(seed.username),
    created_at: SEED_TIME,
  }));
  const acmeMembers: Membership[] = SEED_USERS.flatMap((seed, index) =>
    seed.acmeLevel === undefined ? [] : [{ user_id: index + 1, access_level: seed.acmeLevel }],
  );
  const group = (id: number, name: string, path: string, parentId: number | null, members: Membership[]): GroupRecord => ({
    id,
    name,
    path,
    description: "",
    visibility: "private",
    parent_id: parentId,
    created_at: SEED_TIME,
    members,
  });
  const project = (id: number, name: string, path: string, namespaceId: number): ProjectRecord => ({
    id,
    name,
    path,
    description: null,
    namespace_id: namespaceId,
    visibility: "private",
    default_branch: "main",
    topics: [],
    created_at: SEED_TIME,
    last_activity_at: SEED_TIME,
    members: [],
    shared_with_groups: [],
  });
  state.users = users;
  state.groups = [group(1, "Acme", "acme", null, acmeMembers), group(2, "Platform", "platform", 1, [])];
  const web = project(1, "Web", "web", 1);
  web.shared_with_groups = [{ group_id: 2, group_access_level: AccessLevel.Developer }];
  state.projects = [web, project(2, "API", "api", 1), project(3, "Deployer", "deployer", 2)];
  state.sequences = { user: users.length, group: 2, project: 3 };
  return state;
}

/** The JSON of `GET /__emulator/seed`: users with tokens, groups and projects with members. */
export interface SeedInfo {
  users: { id: number; username: string; token: string; admin: boolean }[];
  groups: { id: number; full_path: string; parent_id: number | null; members: Membership[] }[];
  projects: {
    id: number;
    path_with_namespace: string;
    namespace_id: number;
    members: Membership[];
    shared_with_groups: { group_id: number; group_access_level: number }[];
  }[];
}

/** Describes the seeded users, groups and projects as they are in `store` now. */
export function seedInfo(store: Core): SeedInfo {
  const seededUsernames = new Set(SEED_USERS.map((u) => u.username));
  return {
    users: store.users
      .all()
      .filter((u) => seededUsernames.has(u.username))
      .map((u) => ({ id: u.id, username: u.username, token: u.token, admin: u.admin })),
    groups: store.groups.all().map((g) => ({
      id: g.id,
      full_path: store.groups.fullPath(g),
      parent_id: g.parent_id,
      members: g.members.map((m) => ({ ...m })),
    })),
    projects: store.projects.all().map((p) => ({
      id: p.id,
      path_with_namespace: store.projects.pathWithNamespace(p),
      namespace_id: p.namespace_id,
      members: p.members.map((m) => ({ ...m })),
      shared_with_groups: p.shared_with_groups.map((s) => ({ ...s })),
    })),
  };
}
