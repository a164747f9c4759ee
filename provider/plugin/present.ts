/**
 * What `pulumi import` of the plugin face reads, as a program writes it: an object read by its
 * id alone has the forge's own forms (a feature's actors as `User:4`, no `force` for a feature
 * the forge has no definition of), which the engine's diff after the import would take for
 * changes and apply as an update. forge-adopt's presentation of each type turns them into what
 * its programs declare, so an import of what forge-adopt writes changes nothing.
 */
import type { ForgeClient } from "../client";
import type { State } from "../engine/declaration";
import { adoptEntries, declarations, type DeclarationKey } from "../resources";

/** The `presentImport` of {@link forgeProvider}'s options, over the given client. */
export function importPresenter(clientOf: () => ForgeClient): (typeName: string, inputs: State, props: State) => Promise<State> {
  return async (typeName, inputs, props) => {
    const key = (Object.keys(declarations) as DeclarationKey[]).find((candidate) => declarations[candidate].name === typeName);
    const entry = key ? adoptEntries[key] : undefined;
    if (!entry || !("present" in entry) || !entry.present) return inputs;
    return entry.present(inputs, props, { path: String(inputs["group"] ?? inputs["project"] ?? ""), client: clientOf() });
  };
}
