import { createHash } from "node:crypto";
import { AccessLevel } from "../../api";
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

/** Namespace ids of the seeded users' personal namespaces come after the seeded groups' (1 and 2): namespaces share one sequence. */
const FIRST_PERSONAL_NAMESPACE = 3;

/**
 * The fixed seed of docs/contracts.md: users root (administrator), olivia, max, dev, rita, gus
 * (Owner to Guest of `acme`) and nomad (no membership), each with a personal namespace (ids 3 to
 * 9, in that order); groups `acme` and `acme/platform`;
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
    namespace_id: FIRST_PERSONAL_NAMESPACE + index,
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
  state.releases = seedReleases();
  state.group_tokens = seedGroupTokens();
  state.sequences = {
    user: users.length,
    group: FIRST_PERSONAL_NAMESPACE + users.length - 1,
    project: 3,
    release: state.releases.length,
    group_token: state.group_tokens.length,
  };
  return state;
}

/** One release per project, a month apart (the spec has no endpoint that makes one). */
function seedReleases(): EmulatorState["releases"] {
  const release = (id: number, projectId: number, tag: string, releasedAt: string) => ({
    id,
    project_id: projectId,
    name: `Release ${tag}`,
    tag_name: tag,
    description: `Changes in ${tag}`,
    created_at: releasedAt,
    released_at: releasedAt,
    author_id: 2,
    commit_sha: createHash("sha1").update(`${projectId}:${tag}`).digest("hex"),
    commit_title: `Prepare ${tag}`,
  });
  return [
    release(1, 1, "v1.0.0", "2024-02-01T00:00:00.000Z"),
    release(2, 2, "v2.0.0", "2024-03-01T00:00:00.000Z"),
    release(3, 3, "v0.1.0", "2024-04-01T00:00:00.000Z"),
  ];
}

/**
 * One token of each kind the group revocation takes, and personal access tokens in each state
 * the credentials inventory filters on (active, expired, revoked; used or never). The plaintext
 * is `forge-seed-<name>`; user ids are the seed's (2 olivia, 3 max, 4 dev, 5 rita, 7 nomad).
 */
function seedGroupTokens(): EmulatorState["group_tokens"] {
  const token = (
    id: number,
    kind: EmulatorState["group_tokens"][number]["kind"],
    name: string,
    fields: Partial<EmulatorState["group_tokens"][number]>,
  ) => ({
    id,
    kind,
    name,
    description: null,
    token: `forge-seed-${name}`,
    user_id: null,
    scopes: ["api"],
    revoked: false,
    created_at: SEED_TIME,
    last_used_at: null,
    expires_at: "2099-01-01",
    ...fields,
  });
  return [
    token(1, "personal", "olivia-laptop", {
      user_id: 2,
      description: "Olivia's laptop",
      created_at: "2024-01-10T09:00:00.000Z",
      last_used_at: "2024-06-01T12:00:00.000Z",
    }),
    token(2, "personal", "max-ci", { user_id: 3, scopes: ["read_api"], created_at: "2024-02-01T09:00:00.000Z", expires_at: "2024-12-31" }),
    token(3, "personal", "dev-old", {
      user_id: 4,
      revoked: true,
      created_at: "2024-03-01T09:00:00.000Z",
      last_used_at: "2024-03-02T09:00:00.000Z",
    }),
    token(4, "personal", "nomad-token", { user_id: 7, created_at: "2024-03-05T09:00:00.000Z" }),
    token(5, "group_access", "acme-bot", {
      group_id: 1,
      access_level: 40,
      created_at: "2024-04-01T09:00:00.000Z",
      last_used_at: "2024-05-01T09:00:00.000Z",
    }),
    token(6, "project_access", "web-deployer", {
      project_id: 1,
      access_level: 30,
      scopes: ["read_repository"],
      created_at: "2024-05-01T09:00:00.000Z",
    }),
    token(7, "group_deploy", "platform-deploy", { group_id: 2, scopes: ["read_registry"], created_at: "2024-05-10T09:00:00.000Z" }),
    token(8, "feed", "rita-feed", { user_id: 5, scopes: [], created_at: "2024-05-20T09:00:00.000Z", expires_at: null }),
  ];
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
