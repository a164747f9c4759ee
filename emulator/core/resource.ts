import { Collection } from "./collection";
import type { Core } from "./core";
import type { Route } from "./routes";
import type { Collections } from "./state";

/** Typed views of a resource's own collections: `{ labels: Collection<LabelRecord> }`. */
export type CollectionViews<C extends Collections> = { [Key in keyof C]: Collection<C[Key][number]> };

/**
 * One resource of the emulator, as `resources/<name>/index.ts` exports it. The registry builds
 * the state from `collections`, the store from `model` and the route table from `routes`.
 */
export interface ResourceDescriptor<Name extends string, C extends Collections, Model> {
  /** The store property the model is reached under (`store.labels`). */
  name: Name;
  /**
   * The state collections the resource owns, empty; their keys are the state file's keys, so
   * renaming one breaks old state files.
   */
  collections: C;
  /** Builds the model from core and typed views of its own collections. */
  model(core: Core, collections: CollectionViews<C>): Model;
  /** The resource's routes (paths relative to /api/v4). */
  routes: readonly Route<Model>[];
}

/** Declares a resource (only to infer its types). */
export function defineResource<const Name extends string, C extends Collections, Model>(
  descriptor: ResourceDescriptor<Name, C, Model>,
): ResourceDescriptor<Name, C, Model> {
  return descriptor;
}

/** The views of a descriptor's collections over the live state. */
export function collectionViews<C extends Collections>(core: Core, collections: C): CollectionViews<C> {
  const views = Object.keys(collections).map((key) => [key, new Collection(core, key)]);
  return Object.fromEntries(views) as CollectionViews<C>;
}
