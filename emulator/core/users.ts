import { Collection } from "./collection";
import type { UserRecord } from "./records";
import type { Database } from "./state";

/** Lookups and serialization of users. */
export class Users {
  private readonly records: Collection<UserRecord>;

  constructor(private readonly database: Database) {
    this.records = new Collection(database, "users");
  }

  /** Every user, in id order. */
  all(): UserRecord[] {
    return this.records.all();
  }

  byToken(token: string): UserRecord | undefined {
    return this.records.find((user) => user.token === token && user.state === "active");
  }

  byId(id: number): UserRecord | undefined {
    return this.records.byId(id);
  }

  byUsername(username: string): UserRecord | undefined {
    const wanted = username.toLowerCase();
    return this.records.find((user) => user.username.toLowerCase() === wanted);
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
