/**
 * An ancestor's object is not its subgroup's. Where the forge's reads under a group
 * show its ancestors' objects too (`identity.inherited`: a group's labels), an object read through
 * `acme/platform` may be `acme`'s: the forge shows it there, but changes and deletes it only
 * through `acme`, and the identity is unique across the group and its ancestors, so the subgroup
 * cannot have one of its own either. This module says which ancestor holds such an object, and
 * the error that names it by its import id in its own group; operations.ts and recovery.ts ask.
 */
import type { AnyDeclaration, Identity, State, WireRecord } from "./declaration";
import { hasIdentity } from "./declaration";
import { formatId } from "./ids";

/** Where an object lives when it is not the group's own: the ancestor and the object's import id there. */
export interface AncestorHolding {
  /** The ancestor group's full path. */
  group: string;
  importId: string;
}

/** The declaration's `identity.inherited`, when its reads under a group show the ancestors' objects. */
function inheritedOf(declaration: AnyDeclaration): NonNullable<Identity["inherited"]> | undefined {
  return hasIdentity(declaration.identity) ? declaration.identity.inherited : undefined;
}

/** The parameters that keep a read of the declaration to its group's own objects (none for most kinds). */
export function ownOnly(declaration: AnyDeclaration): Record<string, unknown> {
  return inheritedOf(declaration)?.ownOnly ?? {};
}

/**
 * The ancestor of the state's group that holds the object `lookup` finds, looked up in each
 * ancestor through that ancestor's own reads, nearest first; undefined for a kind without
 * ancestors' objects, or when no ancestor holds it. `ancestors` gives a group's ancestors' full
 * paths; `idOf` the import id of a record found in a state.
 */
export async function heldByAncestor(
  declaration: AnyDeclaration,
  state: State,
  ancestors: (group: unknown) => Promise<string[]>,
  lookup: (inAncestor: State) => Promise<WireRecord | undefined>,
  idOf: (inAncestor: State, record: WireRecord) => string,
): Promise<AncestorHolding | undefined> {
  const inherited = inheritedOf(declaration);
  if (!inherited) return undefined;
  for (const group of await ancestors(state[inherited.parent])) {
    const inAncestor = { ...state, [inherited.parent]: group };
    const record = await lookup(inAncestor);
    if (record) return { group, importId: idOf(inAncestor, record) };
  }
  return undefined;
}

/** What met an ancestor's object. */
type InheritedStep = "create" | "import" | "update" | "delete";

/**
 * A create, import, update or delete met an ancestor's object where it expected its group's own:
 * nothing was sent, and the error names the object by its import id in its own group.
 */
export class InheritedObjectError extends Error {
  /** The ancestor's object, by its import id in the ancestor (unknown when the ancestor could not be read). */
  readonly importId: string | undefined;
  constructor(declaration: AnyDeclaration, step: InheritedStep, state: State, holder: AncestorHolding | undefined) {
    const parent = inheritedOf(declaration)?.parent ?? "group";
    const name = declaration.name;
    const here = JSON.stringify(String(state[parent]));
    const there = holder ? `the ancestor ${parent} ${JSON.stringify(holder.group)}` : `an ancestor ${parent}`;
    const id = holder ? JSON.stringify(holder.importId) : "";
    const manage = holder
      ? `import ${id} into a ${name} whose ${parent} is ${JSON.stringify(holder.group)} (the resource option { import: ${id} }; Pulumi YAML: options: import: ${holder.importId}).`
      : `import it into a ${name} of the ${parent} that holds it.`;
    const ownId = stateId(declaration, state);
    super(
      step === "create"
        ? `${name}: ${describe(declaration, state)} cannot be created: it exists in ${there}${holder ? ` as ${id}` : ""}, and the forge keeps it unique across a ${parent} and its ancestors. ` +
            `Nothing was changed. It is not ${parent} ${here}'s: importing it into this resource would not make it so. ` +
            `Give this resource another ${identityWords(declaration)}, or manage the object where it lives: ${manage}`
        : step === "import"
          ? `${name}: cannot import ${JSON.stringify(ownId)}: it is ${there}'s object${holder ? ` (import id ${id})` : ""}, not ${parent} ${here}'s. The forge shows an ancestor's objects ` +
            `through its subgroups, but changes and deletes them only through their own ${parent}. Nothing was imported. To manage it, ${manage}`
          : `${name} ${JSON.stringify(ownId)}: ${parent} ${here} has no such object; this state holds ${there}'s${holder ? ` (import id ${id})` : ""}, which this resource does not own. ` +
            `Nothing was ${step === "delete" ? "deleted" : "changed"}. Run \`pulumi refresh\` to drop it from this stack's state (the object stays as it is). To manage it, ${manage}`,
    );
    this.name = "InheritedObjectError";
    this.importId = holder?.importId;
  }
}

/** The notice of a refresh that drops an ancestor's object from a state: it stays on the forge. */
export function droppedInheritedNotice(declaration: AnyDeclaration, state: State, holder: AncestorHolding): string {
  const parent = inheritedOf(declaration)?.parent ?? "group";
  return (
    `${declaration.name} ${JSON.stringify(stateId(declaration, state))}: ${parent} ${JSON.stringify(String(state[parent]))} has no such object; this state held ` +
    `the ancestor ${parent} ${JSON.stringify(holder.group)}'s (import id ${JSON.stringify(holder.importId)}), which this resource does not own. ` +
    `It is dropped from the state and stays on the forge as it is.`
  );
}

function describe(declaration: AnyDeclaration, state: State): string {
  return hasIdentity(declaration.identity) ? declaration.identity.describe(state) : stateId(declaration, state);
}

/** The identity's fields besides the group, as words: `name`. */
function identityWords(declaration: AnyDeclaration): string {
  const identity = declaration.identity;
  const parent = inheritedOf(declaration)?.parent;
  return hasIdentity(identity) ? identity.fields.filter((field) => field !== parent).join(" and ") : "identity";
}

function stateId(declaration: AnyDeclaration, state: State): string {
  try {
    return formatId(declaration, state);
  } catch {
    return declaration.idParts.map((part) => String(state[part] ?? "")).join(":");
  }
}
