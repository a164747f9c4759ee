import type { Collection } from "./collection";

/** A direct membership of a user in a group or project. */
export interface Membership {
  user_id: number;
  access_level: number;
}

/** Visibility of a group or project. */
export type Visibility = "public" | "internal" | "private";

/**
 * Resolves an `:id` path value of a group or project: digits are an id, anything else a full
 * path (case-insensitive).
 */
export function findByRef<T>(records: Collection<T>, ref: string, fullPath: (record: T) => string): T | undefined {
  if (/^\d+$/.test(ref)) return records.byId(Number(ref));
  const wanted = ref.toLowerCase();
  return records.find((record) => fullPath(record).toLowerCase() === wanted);
}
