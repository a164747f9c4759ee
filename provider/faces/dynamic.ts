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
import { PartialCreateError, type LifeCycleStep } from "../engine/outcomes";

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

/** The operations of one type as a dynamic provider's methods, one per step of the life cycle
 *  (what the serialized provider calls). */
export type DynamicOperations = { [Step in LifeCycleStep]: NonNullable<dynamic.ResourceProvider<State>[Step]> };

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
    diff: (id, olds, news) => operations.diff(id, engineBag(olds), engineBag(news)),
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
