/**
 * Nested collections: list inputs whose elements the API changes one at a time. The changes are
 * computed from the elements' keys and meanings, then written in the declaration's style.
 */
import { isDeepStrictEqual } from "node:util";
import type { NestedCollection, State } from "./declaration";
import { toSnake, toWire } from "./naming";

export type ElementChange =
  | { kind: "create"; element: State }
  | { kind: "update"; element: State; existing: State }
  | { kind: "move"; element: State; existing: State }
  | { kind: "delete"; existing: State };

/** A list as its meaning: order, server ids and defaults are not differences. */
export function collectionMeaning(collection: NestedCollection, value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return (value as State[])
    .map((element) => ({ key: collection.key(element), meaning: collection.meaning(element) }))
    .sort((a, b) => a.key.localeCompare(b.key));
}

/**
 * What turns `current` into `desired`, element by element. Unchanged elements are left out; with
 * `fileActions`, a removed element and an added one that mean the same apart from their key
 * make a move.
 */
export function elementChanges(collection: NestedCollection, current: State[], desired: State[]): ElementChange[] {
  const remaining = new Map(current.map((element) => [collection.key(element), element]));
  const changes: ElementChange[] = [];
  for (const element of desired) {
    const key = collection.key(element);
    const existing = remaining.get(key);
    remaining.delete(key);
    if (!existing) changes.push({ kind: "create", element });
    else if (!isDeepStrictEqual(collection.meaning(element), collection.meaning(existing)))
      changes.push({ kind: "update", element, existing });
  }
  const removed = [...remaining.values()];
  if (collection.style !== "nested-attributes") return pairMoves(collection, collection.style.fileActions.keyField, changes, removed);
  return [...changes, ...removed.map((existing): ElementChange => ({ kind: "delete", existing }))];
}

/** Creates whose content equals a removed element's become moves of it. */
function pairMoves(collection: NestedCollection, keyField: string, changes: ElementChange[], removed: State[]): ElementChange[] {
  const content = (element: State) => collection.meaning({ ...element, [keyField]: undefined });
  const result: ElementChange[] = [];
  for (const change of changes) {
    const from = change.kind === "create" ? removed.findIndex((old) => isDeepStrictEqual(content(old), content(change.element))) : -1;
    if (change.kind === "create" && from >= 0) {
      result.push({ kind: "move", element: change.element, existing: removed[from] as State });
      removed.splice(from, 1);
    } else {
      result.push(change);
    }
  }
  return [...result, ...removed.map((existing): ElementChange => ({ kind: "delete", existing }))];
}

/** The changes as the API takes them, in wire names. */
export function wireChanges(collection: NestedCollection, changes: ElementChange[]): Record<string, unknown>[] {
  if (collection.style === "nested-attributes") {
    return changes.map((change) => {
      if (change.kind === "delete") return { id: change.existing["id"], _destroy: true };
      const element = change.kind === "create" ? change.element : { ...change.element, id: change.existing["id"] };
      return toWire(element) as Record<string, unknown>;
    });
  }
  const { keyField, previousKeyField } = collection.style.fileActions;
  const previous = toSnake(previousKeyField ?? `previous_${toSnake(keyField)}`);
  return changes.map((change) => {
    switch (change.kind) {
      case "delete":
        return { action: "delete", [toSnake(keyField)]: change.existing[keyField] };
      case "move":
        return { action: "move", ...(toWire(change.element) as object), [previous]: change.existing[keyField] };
      default:
        return { action: change.kind, ...(toWire(change.element) as object) };
    }
  });
}
