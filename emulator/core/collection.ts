import { recordNotFound } from "./errors";
import type { Database } from "./state";
import { integerPathParam } from "./validation";

/** Records addressed by an integer id (most collections; not the per-project settings). */
interface Identified {
  id: number;
}

const byAscendingId = (a: unknown, b: unknown): number => (a as Identified).id - (b as Identified).id;

/**
 * A view of one collection of the state: the find / insert / remove / list that every model
 * needs. It looks the array up at each call, so that it follows a reset or a loaded state.
 * The access entities extend it with their own lookups.
 */
export class Collection<T> {
  constructor(
    protected readonly database: Database,
    /** The collection's key in the state (and in state files). */
    readonly key: string,
  ) {}

  /** The live array, in insertion order (an absent collection reads as empty). */
  all(): T[] {
    return (this.database.state[this.key] as T[] | undefined) ?? [];
  }

  find(match: (record: T) => boolean): T | undefined {
    return this.all().find(match);
  }

  byId(id: number): T | undefined {
    return this.find((record) => (record as Partial<Identified>).id === id);
  }

  /** The matching records, sorted (by ascending id unless told otherwise). */
  list(match: (record: T) => boolean = () => true, order: (a: T, b: T) => number = byAscendingId): T[] {
    return this.all().filter(match).sort(order);
  }

  /**
   * The record behind an integer path parameter (`:agent_id`, `:token_id`, ...) among those
   * `within` accepts: `<name> is invalid` for a non-integer, `404 Not found` when none matches.
   */
  requirePathId(name: string, value: string, within: (record: T) => boolean = () => true): T {
    const id = integerPathParam(name, value);
    const record = this.find((candidate) => (candidate as Partial<Identified>).id === id && within(candidate));
    if (!record) throw recordNotFound();
    return record;
  }

  insert(record: T): T {
    const records = (this.database.state[this.key] ??= []) as T[];
    records.push(record);
    return record;
  }

  remove(record: T): void {
    this.removeWhere((candidate) => candidate === record);
  }

  removeWhere(match: (record: T) => boolean): void {
    this.database.state[this.key] = this.all().filter((record) => !match(record));
  }
}
