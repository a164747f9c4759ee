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
import { engineState, IMPORT_ID_KEY, PROVIDER_KEY } from "../engine/bookkeeping";

/** The operations of one type as a dynamic provider's methods, one per step of the life cycle
 *  (what the serialized provider calls). */
export type DynamicOperations = { [Step in LifeCycleStep]: NonNullable<dynamic.ResourceProvider<State>[Step]> };

/** The dynamic face of a type's operations. */
export function dynamicOperations(operations: ResourceOperations): DynamicOperations {
  return {
    async check(olds, news) {
      const importId = news[IMPORT_ID_KEY];
      // The `import` option of a resource not in the state yet: its create imports (engine/imports.ts).
      const importing = importId !== undefined && Object.keys(engineState(olds)).length === 0;
      const checked = await operations.check(engineState(olds), engineState(news), { importing });
      // The engine creates with the inputs check returns: the import id must travel on with them.
      return importId === undefined ? checked : { ...checked, inputs: { ...checked.inputs, [IMPORT_ID_KEY]: importId } };
    },
    async diff(id, olds, news) {
      const diff = await operations.diff(id, engineState(olds), engineState(news));
      // A resource moved here from the plugin face (an alias of its `forge:index:` type) has no
      // serialized provider among its outputs, and the SDK's dynamic provider reads and deletes
      // with the one found there: an update, which writes to the forge only what differs,
      // records it.
      const movedHere = olds[PROVIDER_KEY] === undefined && news[PROVIDER_KEY] !== undefined;
      return diff.changes === false && movedHere ? { ...diff, changes: true } : diff;
    },
    async create(inputs) {
      const importId = typeof inputs[IMPORT_ID_KEY] === "string" && inputs[IMPORT_ID_KEY] !== "" ? inputs[IMPORT_ID_KEY] : undefined;
      try {
        return await operations.create(engineState(inputs), importId ? { importId } : {});
      } catch (error) {
        // The recorded object needs its provider, as a created resource's properties have it.
        if (error instanceof PartialCreateError && inputs[PROVIDER_KEY] !== undefined)
          error.properties = { ...error.properties, [PROVIDER_KEY]: inputs[PROVIDER_KEY] };
        throw error;
      }
    },
    read: (id, props) => operations.read(id, engineState(props)),
    update: (id, olds, news) => operations.update(id, engineState(olds), engineState(news)),
    delete: (id, props) => operations.delete(id, engineState(props)),
  };
}
