import { Collection } from "./collection";
import type { UserRecord } from "./records";
import type { Database } from "./state";

/** How many projects a user may make when nothing says otherwise: the service's `default_projects_limit`. */
export const DEFAULT_PROJECTS_LIMIT = 100_000;

/** Lookups and serialization of users. */
export class Users extends Collection<UserRecord> {
  constructor(database: Database) {
    super(database, "users");
  }

  byToken(token: string): UserRecord | undefined {
    return this.find((user) => user.token === token && user.state === "active");
  }

  /** The user whose personal namespace has this id. */
  byNamespace(namespaceId: number): UserRecord | undefined {
    return this.find((user) => user.namespace_id === namespaceId);
  }

  byUsername(username: string): UserRecord | undefined {
    const wanted = username.toLowerCase();
    return this.find((user) => user.username.toLowerCase() === wanted);
  }

  /** The short user record embedded in other records (author, user, created_by). */
  basic(user: UserRecord): Record<string, unknown> {
    return {
      id: user.id,
      username: user.username,
      name: user.name,
      state: user.state,
      avatar_url: null,
      web_url: `${this.database.baseUrl}/${user.username}`,
    };
  }

  /** The public profile (`GET /users/:id` for anyone but an administrator). */
  profile(user: UserRecord): Record<string, unknown> {
    return {
      ...this.basic(user),
      created_at: user.created_at,
      bio: "",
      location: "",
      public_email: user.public_email ?? null,
      organization: "",
      job_title: "",
      bot: false,
    };
  }

  /**
   * The record of `GET /user`, and of `GET /users/:id` for an administrator: the profile with the
   * account's own fields. The administrator's fields (`note`, `namespace_id`) are the service's
   * `UserWithAdmin` ones; `is_admin` is in every caller's own record here, as it always was.
   */
  current(user: UserRecord): Record<string, unknown> {
    return {
      ...this.profile(user),
      email: user.email,
      is_admin: user.admin,
      projects_limit: user.projects_limit ?? DEFAULT_PROJECTS_LIMIT,
      can_create_group: user.can_create_group ?? true,
      can_create_project: (user.projects_limit ?? DEFAULT_PROJECTS_LIMIT) > 0,
      external: user.external ?? false,
      two_factor_enabled: false,
      private_profile: false,
      confirmed_at: user.created_at,
      note: user.note ?? null,
      namespace_id: user.namespace_id ?? null,
    };
  }
}
