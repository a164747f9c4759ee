/**
 * The one answer to "which objects of which forge does this stack hold, and is its state known
 * in full", from one exported state (`pulumi stack export`, with or without `--show-secrets`).
 * Every tool that reads states asks it, and nothing else: forge-drift (one stack, a fleet from
 * exports, `--unmanaged`), forge-adopt `--stacks-file`, forge-recover and the rotation check.
 *
 * - **What a resource holds**: the object of its import id, and what its declaration says it
 *   holds besides: a rotating resource (`rotation`) holds its `current` and `previous`
 *   credentials, each an object of the credential's kind, not the parent its id names.
 * - **What holds nothing**: a resource read with `get` (Pulumi YAML's `get:`, `Resource.get`:
 *   `external` in the state) reads an object it does not manage; components, providers and the
 *   stack hold nothing; lookups are not in a state at all.
 * - **On which forge**: the forge the resource recorded when it was last made or read
 *   (`__forge`, engine/bookkeeping.ts), else the connection its own provider recorded (an explicit
 *   `pulumi:providers:forge`, or the default provider's stack config), never the stack's config
 *   file or this process's environment. A state that says neither (a provider configured by
 *   FORGE_BASE_URL, before resources recorded their forge) leaves the forge unknown.
 * - **Known in full**: a state with pending operations (a killed run: creates whose object is
 *   unknown, imports, updates, deletes) may hold what its resources do not show. Whether a run
 *   holds the stack's lock is not in a state: the reader checks it (cli/fleet-state.ts).
 *
 * Pure: no request, no CLI. Forges are compared by forge-address.ts.
 */
import { declarations } from "../resources";
import type { AnyDeclaration, State } from "../engine/declaration";
import { FORGE_KEY } from "../engine/bookkeeping";
import { RotatingState } from "../engine/rotation";
import { parseTypeToken, type Face } from "../type-tokens";
import { holdsSecret } from "./state-values";

/** A resource as `pulumi stack export` writes it: the fields read here. */
export interface ExportedResource {
  urn: string;
  type: string;
  id?: string;
  custom?: boolean;
  /** Read with `get`, not managed. */
  external?: boolean;
  /** Pending deletion (a replacement that did not finish). */
  delete?: boolean;
  /** `<provider urn>::<provider id>`, for a custom resource. */
  provider?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  /** The `ignoreChanges` option of the resource's last registration. */
  ignoreChanges?: string[];
}

/** An exported state's deployment. */
export interface ExportedDeployment {
  resources?: ExportedResource[];
  pending_operations?: { type?: string; resource?: ExportedResource }[];
}

/** One object of the forge a resource holds (or may hold): its kind and import id. */
export interface HeldObject {
  /** The declaration's name (`ClusterAgentToken`). */
  kind: string;
  importId: string;
  /** How the resource holds it: the object of its id, or a rotating resource's credential. */
  as: "itself" | "current" | "previous";
}

/** The forge a resource talks to: its base URL and where that was read, or why it is not known. */
export type ResourceForge = { url: string; from: "resource" | "provider" } | { url?: undefined; why: string };

/** A forge resource of the state. */
export interface Holding {
  urn: string;
  /** Its logical name. */
  name: string;
  type: string;
  /** The declaration's name (`GroupLabel`). */
  kind: string;
  face: Face;
  id: string;
  /** `manages`: it made or imported its objects; `reads`: read with `get`, it holds nothing. */
  role: "manages" | "reads";
  /** The objects it holds (none for `reads`). */
  objects: HeldObject[];
  forge: ResourceForge;
  /** Its provider's URN, and what that provider recorded (secrets as the export gives them). */
  provider?: { urn: string; config: Record<string, unknown> };
  /** Pending deletion: a replacement that did not finish. */
  pendingDelete: boolean;
  ignoreChanges: string[];
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
}

/** What a killed run left pending. */
export interface PendingOperation {
  /** `creating`, `importing`, `updating`, `deleting`, `reading`, or what a later engine writes. */
  type: string;
  urn: string;
  name: string;
  /** The declaration's name for a forge resource; undefined for another provider's. */
  kind?: string;
  face?: Face;
  /** The operation's id, else the id the state's resource of the same URN has: the engine writes it into only some operations. */
  id?: string;
  /** What the operation may hold: an import's object, the object an update or delete touched. Empty for a create (its object is unknown). */
  objects: HeldObject[];
  forge: ResourceForge;
  /** Its provider's URN and recorded settings, as for a {@link Holding}. */
  provider?: { urn: string; config: Record<string, unknown> };
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
}

/** What one stack's state holds. */
export interface StackHoldings {
  /** Its forge resources, both faces, in the state's order: what they hold, and where. */
  resources: Holding[];
  /** Its pending operations (any provider's). */
  pending: PendingOperation[];
  /** Why the state may hold more than its resources show, one line each; empty when it is known in full (as far as a state can say: the lock is the reader's). */
  notInFull: string[];
}

/** A resource's logical name (the URN's last part). */
export function nameOf(urn: string): string {
  return urn.slice(urn.lastIndexOf("::") + 2);
}

const byName = new Map(
  Object.values(declarations).map((declaration) => [(declaration as AnyDeclaration).name, declaration as AnyDeclaration]),
);

/** The declaration a type token of either face names; undefined for any other type. */
export function declarationOfType(type: string): AnyDeclaration | undefined {
  const token = parseTypeToken(type);
  return token ? byName.get(token.name) : undefined;
}

/**
 * The objects a resource of `declaration` with `id` and `outputs` holds: the object of its id,
 * or for a rotating declaration the credentials in its slots (their import ids as their own
 * declaration writes them).
 */
export function objectsHeld(declaration: AnyDeclaration, id: string, outputs: Record<string, unknown>): HeldObject[] {
  if (!declaration.rotation) return id ? [{ kind: declaration.name, importId: id, as: "itself" }] : [];
  const shape = new RotatingState(declaration);
  const state = plainVisible(outputs);
  const held: HeldObject[] = [];
  for (const slot of ["current", "previous"] as const) {
    const credential = shape.held(state, slot);
    if (!credential) continue;
    try {
      held.push({ kind: shape.of.name, importId: shape.single(state, credential).id, as: slot });
    } catch {
      // a slot without its id's parts: nothing to name
    }
  }
  return held;
}

/** Outputs with secret values left out (an export without `--show-secrets` holds them as ciphertext): the ids are never secret. */
function plainVisible(outputs: Record<string, unknown>): State {
  return Object.fromEntries(Object.entries(outputs).filter(([, value]) => !holdsSecret(value)));
}

/** The base URL a provider resource recorded: the plugin's `baseUrl`, the dynamic provider's stack config `forge:baseUrl`. */
export function recordedBaseUrl(config: Record<string, unknown>): string | undefined {
  const value = config["baseUrl"] ?? config["forge:baseUrl"];
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}

/** What one exported state holds (see the module's comment). */
export function holdingsOf(deployment: ExportedDeployment): StackHoldings {
  const listed = deployment.resources ?? [];
  const providers = new Map<string, ExportedResource>();
  for (const resource of listed)
    if (resource.type.startsWith("pulumi:providers:")) providers.set(`${resource.urn}::${resource.id ?? ""}`, resource);
  const providerOf = (reference: string | undefined) => {
    const found = reference === undefined ? undefined : providers.get(reference);
    return found ? { urn: found.urn, config: found.inputs ?? {} } : undefined;
  };
  const forgeOf = (outputs: Record<string, unknown>, provider: Holding["provider"]): ResourceForge => {
    const recorded = outputs[FORGE_KEY];
    if (typeof recorded === "string" && recorded !== "") return { url: recorded, from: "resource" };
    const configured = provider && recordedBaseUrl(provider.config);
    if (configured) return { url: configured, from: "provider" };
    return {
      why: provider
        ? "the state does not record its forge: its provider took the forge's address from the environment of its last run (FORGE_BASE_URL); a `pulumi refresh` of the stack records it"
        : "the state does not record its forge, nor its provider",
    };
  };

  const resources: Holding[] = [];
  for (const resource of listed) {
    const declaration = declarationOfType(resource.type);
    if (!declaration || resource.custom === false || !resource.id) continue;
    const outputs = resource.outputs ?? {};
    const provider = providerOf(resource.provider);
    const role = resource.external ? "reads" : "manages";
    resources.push({
      urn: resource.urn,
      name: nameOf(resource.urn),
      type: resource.type,
      kind: declaration.name,
      face: parseTypeToken(resource.type)!.face,
      id: resource.id,
      role,
      objects: role === "manages" ? objectsHeld(declaration, resource.id, outputs) : [],
      forge: forgeOf(outputs, provider),
      ...(provider ? { provider } : {}),
      pendingDelete: resource.delete === true,
      ignoreChanges: resource.ignoreChanges ?? [],
      inputs: resource.inputs ?? {},
      outputs,
    });
  }

  const pending: PendingOperation[] = [];
  const notInFull: string[] = [];
  for (const operation of deployment.pending_operations ?? []) {
    const resource = operation.resource;
    if (!resource?.urn || !resource.type) continue;
    const type = operation.type ?? "unknown";
    const declaration = declarationOfType(resource.type);
    // The engine writes the id into some pending operations only: the state's resource of the same URN has it.
    const id = resource.id || listed.find((entry) => entry.urn === resource.urn && entry.id)?.id || undefined;
    const outputs = resource.outputs ?? listed.find((entry) => entry.urn === resource.urn)?.outputs ?? {};
    const provider = providerOf(resource.provider);
    const objects = declaration && id && type !== "creating" && type !== "reading" ? objectsHeld(declaration, id, outputs) : [];
    pending.push({
      type,
      urn: resource.urn,
      name: nameOf(resource.urn),
      ...(declaration ? { kind: declaration.name, face: parseTypeToken(resource.type)!.face } : {}),
      ...(id ? { id } : {}),
      objects,
      forge: forgeOf(outputs, provider),
      ...(provider ? { provider } : {}),
      inputs: resource.inputs ?? {},
      outputs,
    });
    notInFull.push(
      `a killed run left ${pendingWords(type)} of ${nameOf(resource.urn)} (${declaration?.name ?? resource.type})${id ? ` ${id}` : ""}`,
    );
  }
  return { resources, pending, notInFull };
}

/** A pending operation's type in words. */
function pendingWords(type: string): string {
  switch (type) {
    case "creating":
      return "a create pending";
    case "importing":
      return "an import pending";
    case "updating":
      return "an update pending";
    case "deleting":
      return "a delete pending";
    case "reading":
      return "a read pending";
    default:
      return `an operation pending (${type})`;
  }
}

/** The objects a state's forge resources hold, each with its holder, whichever face. */
export function heldObjects(holdings: StackHoldings): { object: HeldObject; holder: Holding }[] {
  return holdings.resources.flatMap((holder) => holder.objects.map((object) => ({ object, holder })));
}
