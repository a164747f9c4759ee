/**
 * The dynamic face: the engine's life cycle as a Pulumi dynamic provider (`pulumi.dynamic`), the
 * face of the TypeScript classes. What only this face has lives here:
 * - every property bag carries the serialized provider (`__provider`); the SDK's dynamic
 *   provider server adds it back to every answer, except to the error of a create that failed
 *   half-way, where this adapter puts it, or the recorded object could not be loaded again;
 * - the `import` resource option reaches the provider as the input `importId` (engine 3.259
 *   cannot import a dynamic resource itself: its import reads with the id alone, and the
 *   provider's code travels in the inputs); states of resources imported that way keep it.
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import type { State } from "../engine/declaration";
import type { ResourceOperations } from "../engine/operations";
import { PartialCreateError } from "../engine/outcomes";

/** The keys of this face in a property bag: never inputs of a declaration. */
export const DYNAMIC_KEYS = ["__provider", "importId"] as const;

const PROVIDER_KEY = "__provider";

/** A property bag without this face's keys: what the engine sees (the CLIs read states of either
 *  face through it too). */
export function engineBag(bag: State | undefined): State {
  const result: State = {};
  for (const [key, value] of Object.entries(bag ?? {})) if (!(DYNAMIC_KEYS as readonly string[]).includes(key)) result[key] = value;
  return result;
}

/** The operations of one type as a dynamic provider's methods (what the serialized provider calls). */
export interface DynamicOperations {
  check(olds: State, news: State): Promise<dynamic.CheckResult>;
  diff(id: string, olds: State, news: State): Promise<dynamic.DiffResult>;
  create(inputs: State): Promise<dynamic.CreateResult>;
  read(id: string, props?: State): Promise<dynamic.ReadResult>;
  update(id: string, olds: State, news: State): Promise<dynamic.UpdateResult>;
  delete(id: string, props: State): Promise<void>;
}

/** The dynamic face of a type's operations. */
export function dynamicOperations(operations: ResourceOperations): DynamicOperations {
  return {
    async check(olds, news) {
      const importId = news["importId"];
      // The `import` option of a resource not in the state yet: its create imports (engine/imports.ts).
      const importing = importId !== undefined && Object.keys(engineBag(olds)).length === 0;
      const checked = await operations.check(engineBag(olds), engineBag(news), { importing });
      // The engine creates with the inputs check returns: the import id must travel on with them.
      return importId === undefined ? checked : { ...checked, inputs: { ...checked.inputs, importId } };
    },
    async diff(id, olds, news) {
      const diff = await operations.diff(id, engineBag(olds), engineBag(news));
      // A resource moved here from the plugin face (an alias of its `forge:index:` type) has no
      // serialized provider among its outputs, and the SDK's dynamic provider reads and deletes
      // with the one found there: an update, which writes to the forge only what differs,
      // records it.
      const movedHere = olds[PROVIDER_KEY] === undefined && news[PROVIDER_KEY] !== undefined;
      return diff.changes === false && movedHere ? { ...diff, changes: true } : diff;
    },
    async create(inputs) {
      const importId = typeof inputs["importId"] === "string" && inputs["importId"] !== "" ? inputs["importId"] : undefined;
      try {
        return await operations.create(engineBag(inputs), importId ? { importId } : {});
      } catch (error) {
        // The recorded object needs its provider, as a created resource's properties have it.
        if (error instanceof PartialCreateError && inputs[PROVIDER_KEY] !== undefined) error.properties = { ...error.properties, [PROVIDER_KEY]: inputs[PROVIDER_KEY] };
        throw error;
      }
    },
    read: (id, props) => operations.read(id, engineBag(props)),
    update: (id, olds, news) => operations.update(id, engineBag(olds), engineBag(news)),
    delete: (id, props) => operations.delete(id, engineBag(props)),
  };
}
