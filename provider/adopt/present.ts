/**
 * What an import reads, as a program writes it: an object read by its id alone has the forge's
 * own forms (a feature's actors as `User:4`, no `force` for a feature the forge has no
 * definition of), which an import would take for differences from the program. forge-adopt's
 * presentation of each type turns them into what its programs declare, so an import of what
 * forge-adopt writes matches, on both faces (the engine's `ImportPresenter`).
 */
import type { ForgeClient } from "../client";
import type { State } from "../engine/declaration";
import { adoptEntryByName } from "../resources/by-name";

/** The presentation of every type, over the given client (the composition root gives it to the engine). */
export function importPresenter(clientOf: () => ForgeClient): (typeName: string, inputs: State, props: State) => Promise<State> {
  return async (typeName, inputs, props) => {
    const entry = adoptEntryByName(typeName);
    if (!entry || !("present" in entry) || !entry.present) return inputs;
    return entry.present(inputs, props, { path: String(inputs["group"] ?? inputs["project"] ?? ""), client: clientOf() });
  };
}
