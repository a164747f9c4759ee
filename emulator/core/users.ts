import { Collection } from "./collection";
import type { UserRecord } from "./records";
import type { Database } from "./state";

/** Lookups and serialization of users. */
export class Users extends Collection<UserRecord> {
  constructor(database: Database) {
    super(database, "users");
  }

  byToken(token: string): UserRecord | undefined {
    return this.find((user) => user.token === token && user.state === "active");
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

  /** The record of `GET /user`. */
  current(user: UserRecord): Record<string, unknown> {
    return {
      ...this.basic(user),
      email: user.email,
      created_at: user.created_at,
      is_admin: user.admin,
      bot: false,
    };
  }
}
