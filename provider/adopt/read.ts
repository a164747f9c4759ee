/**
 * Reading a scope of the forge into resources to declare: each entry finds the objects, each
 * object is read by its import id through its declaration (the read the `import` option does),
 * and its inputs are trimmed to what a program writes. Only GET requests are sent.
 */
import { isDeepStrictEqual } from "node:util";
import { z } from "zod";
import { routes } from "../../api/routes";
import { settledListing } from "../engine/shared-listings";
import { ForgeApiError, isNotFound, type ForgeClient } from "../client";
import { sameValue, unwrapped } from "../engine/compare";
import { inputKeys, resetValue, type AnyDeclaration, type State } from "../engine/declaration";
import { formatId } from "../engine/ids";
import { InheritedObjectError } from "../engine/inherited";
import { ResourceOperations } from "../engine/operations";
import { getPath, withPath } from "../engine/paths";
import { declarations, type DeclarationKey } from "../resources";
import { adoptEntries } from "./entries";
import { sharingListings } from "../adopt-entry/find";
import type { AdoptEntry, AdoptFile, AdoptScope } from "../adopt-entry/entry";
import { camel } from "./escape";

/** What to adopt: groups (with their subgroups and projects), projects, and the instance's own objects. */
const adoptScopeSchema = z.object({
  /** Full paths of groups: each with every subgroup and project below it. */
  groups: z.array(z.string().min(1)).default([]),
  /** Full paths of projects. */
  projects: z.array(z.string().min(1)).default([]),
  /** The instance-level objects an administrator owns (broadcast messages, clusters, features). */
  instance: z.boolean().default(false),
  /** The personal snippets of the token's user (whoever the token belongs to, administrator or not). */
  snippets: z.boolean().default(false),
});
export type AdoptScopeInput = z.input<typeof adoptScopeSchema>;

/** A group or project of a scope, or the instance, or the token's user's own objects, where entries find objects. */
export interface Place {
  scope: AdoptScope;
  /** The group's or project's full path; the token's user's username for `user`; empty for the instance. */
  path: string;
}

/** The forge's ids of the groups and projects a scope's resolution saw, by full path in lower case. */
export interface ScopeIndex {
  groups: Map<string, number>;
  projects: Map<string, number>;
}

/** A value the program reads from the stack config instead of holding it. */
/** An input whose value the program reads from a file beside it (written by `--out`). */
export interface FileValue {
  kind: "file";
  /** Relative to the program's directory, with `/`. */
  path: string;
}

export interface SecretValue {
  kind: "secret";
  /** The stack config key. */
  key: string;
  /** The input's path (`clientKey`, `platformVendorAttributes.token`). */
  path: string;
  /** True when the forge never returns it (write-only). */
  writeOnly: boolean;
  /** Where else the value is: the Terraform state's attribute that holds it (`kubernetes_token of gitlab_instance_cluster.main`). */
  source?: string;
}

/** A value with what it names, written as a comment after it (`targetProjectId: 2, // acme/api`). */
export interface CommentedValue {
  kind: "commented";
  value: unknown;
  comment: string;
}

/** An input that is another resource's output. */
export interface ReferenceValue {
  kind: "reference";
  /** The target's logical name, and its output. */
  target: string;
  output: string;
}

/** One object of the forge, as it will be declared. */
export interface AdoptedResource {
  key: DeclarationKey;
  declaration: AnyDeclaration;
  scope: AdoptScope;
  /** The group's or project's full path; the token's user's username for `user`; empty for the instance. */
  path: string;
  importId: string;
  /** The Pulumi logical name, unique in the program. */
  name: string;
  /** Inputs as a program writes them: plain values, {@link SecretValue}s, {@link ReferenceValue}s,
   *  {@link CommentedValue}s. */
  inputs: State;
  /** True when another resource refers to this one (it needs a variable). */
  referenced: boolean;
  /** Files its inputs name, to write beside the program (a group's avatar). */
  files?: AdoptFile[];
  /** Where the object was named, when not found on the forge by forge-adopt itself: the address
   *  of the Terraform resource it replaces (`gitlab_group_label.bug["bug"]`). */
  origin?: string;
}

/** A place or type the generator could not read, with the forge's answer. */
export interface Skipped {
  what: string;
  reason: string;
  /** True for an object left out by forge-adopt itself (a file with no place to go), not refused by the forge. */
  left?: boolean;
}

export interface Adoption {
  /** In program order: the instance's, then each group's and project's by path. */
  resources: AdoptedResource[];
  skipped: Skipped[];
  /** What a program made from a Terraform state says of it (`forge-adopt --from-terraform`). */
  terraform?: TerraformNotes;
}

/** Something the program's header says of one Terraform resource. */
export interface Notice {
  /** The Terraform resource's address. */
  what: string;
  text: string;
}

export interface TerraformNotes {
  /** The state file as the command named it. */
  file: string;
  /** What the state holds that cannot move to the forge's program, with what to do. */
  cannotMove: Notice[];
  /** Anything else to know of one resource (an attribute no forge resource manages). */
  notes: Notice[];
}

/** One object to read by its import id (forge-adopt --from-terraform and --unmanaged name them, not `find`). */
export interface AdoptTarget {
  key: DeclarationKey;
  scope: AdoptScope;
  /** The group's or project's full path; empty for the instance. */
  path: string;
  /** The state fields of its import id (`{ group: "acme", labelId: 7 }`). */
  idState: State;
  /** Where it was named: a Terraform resource's address; none for an object found on the forge. */
  origin?: string;
}

/** Every entry in the order of `declarations`, which also orders a scope's resources (a
 *  reference's target comes before the resources that refer to it). */
export function entriesInOrder(): { key: DeclarationKey; entry: AdoptEntry }[] {
  return (Object.keys(declarations) as DeclarationKey[]).flatMap((key) => {
    const entry = adoptEntries[key];
    return entry && "find" in entry ? [{ key, entry }] : [];
  });
}

/**
 * The places of a scope, in program order (the instance, the token's user, then groups and
 * projects by path), and the ids of the groups and projects its resolution saw. Throws when a
 * group or project named in it does not exist.
 */
export async function scopePlaces(client: ForgeClient, scopeInput: AdoptScopeInput): Promise<{ places: Place[]; index: ScopeIndex }> {
  const scope = adoptScopeSchema.parse(scopeInput);
  const { groups, projects, index } = await resolveScope(client, scope.groups, scope.projects);
  const places: Place[] = [
    ...(scope.instance ? [{ scope: "instance" as const, path: "" }] : []),
    ...(scope.snippets
      ? [{ scope: "user" as const, path: String((await client.request<Record<string, unknown>>(routes.user.get)).body["username"]) }]
      : []),
    ...groups.map((path) => ({ scope: "group" as const, path })),
    ...projects.map((path) => ({ scope: "project" as const, path })),
  ];
  return { places, index };
}

/** How a place is named in messages: `acme/web`, `the instance`, `the token's user olivia`. */
export function placeName(place: Place): string {
  return place.scope === "instance" ? "the instance" : place.scope === "user" ? `the token's user ${place.path}` : place.path;
}

/** True for a refusal that means "not here" for one kind in one place: a tier or offering without the feature, a role that cannot read it. */
export function refusedHere(error: unknown): error is ForgeApiError {
  return error instanceof ForgeApiError && (error.status === 403 || error.status === 404);
}

/** Reads the scope. Throws when a group or project named in it does not exist. */
export function readForge(client: ForgeClient, scopeInput: AdoptScopeInput): Promise<Adoption> {
  // Entries of one place that read the same listing (a group's integrations) read it once.
  return sharingListings(client, async () => {
    const { places } = await scopePlaces(client, scopeInput);
    const found: Found[] = [];
    const skipped: Skipped[] = [];
    for (const place of places) {
      for (const { key, entry } of entriesInOrder().filter(({ entry }) => entry.scope === place.scope)) {
        const declaration = declarations[key] as AnyDeclaration;
        try {
          found.push(...(await readPlace(client, key, entry, place)));
        } catch (error) {
          // A tier or offering without the feature, or a role that cannot read it: say so, go on.
          if (refusedHere(error)) {
            skipped.push({ what: `${declaration.name} in ${placeName(place)}`, reason: error.message });
            continue;
          }
          throw error;
        }
      }
    }
    return { resources: named(found), skipped };
  });
}

/** The objects of one entry in one place, read by their import ids. */
async function readPlace(
  client: ForgeClient,
  key: DeclarationKey,
  entry: AdoptEntry,
  place: { scope: AdoptScope; path: string },
): Promise<Found[]> {
  const found: Found[] = [];
  for (const idState of await entry.find({ path: place.path, client })) {
    const item = await readObject(client, key, entry, place, idState);
    if (typeof item === "object") found.push(item);
  }
  return found;
}

/**
 * Reads objects named one by one (`forge-adopt --from-terraform`, `--unmanaged`), as the scopes'
 * are: each by its import id, presented by its entry. An object the forge no longer has, one whose
 * read the forge refuses, one that would declare nothing and a second name for one object are
 * noted, not read.
 */
export async function readTargets(client: ForgeClient, targets: AdoptTarget[]): Promise<Adoption> {
  const found: Found[] = [];
  const skipped: Skipped[] = [];
  const seen = new Map<string, string>();
  for (const target of targets) {
    const declaration = declarations[target.key] as AnyDeclaration;
    const entry = adoptEntries[target.key];
    if (!entry || !("find" in entry)) {
      skipped.push({
        what: target.origin ?? declaration.name,
        reason: `forge-adopt does not adopt ${declaration.name}: ${entry?.exempt ?? "no entry"}`,
        left: true,
      });
      continue;
    }
    const importId = formatId(declaration, target.idState);
    const what = target.origin ?? `${declaration.name} ${importId}`;
    const first = seen.get(`${target.key} ${importId}`);
    if (first !== undefined) {
      skipped.push({ what, reason: `${declaration.name} ${importId} is the object ${first} names too: declared once`, left: true });
      continue;
    }
    seen.set(`${target.key} ${importId}`, what);
    try {
      const item = await readObject(client, target.key, entry, target, target.idState, target.origin);
      const since = target.origin ? "deleted since Terraform last saw it?" : "deleted since it was listed";
      if (item === "gone") skipped.push({ what, reason: `${declaration.name} ${importId} is not on the forge (${since})`, left: true });
      else if (item === "empty")
        skipped.push({
          what,
          reason: `${declaration.name} ${importId} would declare nothing (every value is the forge's default)`,
          left: true,
        });
      else found.push(item);
    } catch (error) {
      if (refusedHere(error)) {
        skipped.push({ what, reason: `${declaration.name} ${importId}: ${error.message}` });
        continue;
      }
      // A state that took an ancestor's object for its group's (a label of `acme` under
      // `acme/platform`): never adopted where it does not live; the reason names its import id.
      if (error instanceof InheritedObjectError) {
        skipped.push({ what, reason: error.message, left: true });
        continue;
      }
      throw error;
    }
  }
  return { resources: named(found), skipped };
}

/** One object read by its import id and presented: "gone" when the forge has it no more, "empty" when its entry keeps nothing of it. */
async function readObject(
  client: ForgeClient,
  key: DeclarationKey,
  entry: AdoptEntry,
  place: { scope: AdoptScope; path: string },
  idState: State,
  origin?: string,
): Promise<Found | "gone" | "empty"> {
  const declaration = declarations[key] as AnyDeclaration;
  const context = { path: place.path, client };
  const operations = new ResourceOperations(declaration, () => client);
  const importId = formatId(declaration, idState);
  const read = await operations.read(importId, {});
  if (read.id === "") return "gone"; // gone since it was listed
  const outputs = read.props as State;
  let inputs = programInputs(declaration, (read.inputs ?? {}) as State);
  if (entry.present) inputs = await entry.present(inputs, outputs, context);
  if (entry.keep && !entry.keep(inputs)) return "empty";
  const files = (await entry.files?.(inputs, outputs, context)) ?? [];
  for (const file of files) {
    inputs = file.read
      ? (replacedAt(inputs, file.input.split("."), { kind: "file", path: file.path } satisfies FileValue) as State)
      : { ...inputs, [file.input]: file.path };
  }
  for (const [path, comment] of Object.entries((await entry.describe?.(inputs, outputs, context)) ?? {})) {
    const value = path.split(".").reduce<unknown>((item, step) => (item as Record<string, unknown> | undefined)?.[step], inputs);
    if (comment !== "" && value !== undefined)
      inputs = replacedAt(inputs, path.split("."), { kind: "commented", value, comment } satisfies CommentedValue) as State;
  }
  return {
    key,
    declaration,
    scope: place.scope,
    path: place.path,
    importId,
    inputs,
    outputs,
    ...(files.length > 0 ? { files } : {}),
    ...(origin ? { origin } : {}),
  };
}

/** A copy of `value` with the item at `steps` (object keys, array indexes) replaced. */
function replacedAt(value: unknown, steps: string[], item: unknown): unknown {
  if (steps.length === 0) return item;
  const [step, ...rest] = steps as [string, ...string[]];
  if (Array.isArray(value)) return value.map((element, index) => (String(index) === step ? replacedAt(element, rest, item) : element));
  const object = value as Record<string, unknown>;
  return { ...object, [step]: replacedAt(object[step], rest, item) };
}

/**
 * Full paths of the groups (with their descendants) and projects in scope, sorted, and the ids of
 * every group and project seen on the way. Descendants are found by path in the listings of every
 * group and project the token sees (the endpoints the emulator and the spec have): one paged
 * listing each, whatever the number of groups asked for.
 */
async function resolveScope(
  client: ForgeClient,
  groupPaths: string[],
  projectPaths: string[],
): Promise<{ groups: string[]; projects: string[]; index: ScopeIndex }> {
  const groups = new Set<string>();
  const projects = new Set<string>();
  const index: ScopeIndex = { groups: new Map(), projects: new Map() };
  const note = (into: Map<string, number>, record: Record<string, unknown>, field: string) => {
    if (typeof record[field] === "string" && typeof record["id"] === "number")
      into.set((record[field] as string).toLowerCase(), record["id"]);
  };
  if (groupPaths.length > 0) {
    const rootRecords = await Promise.all(groupPaths.map((path) => found(client, routes.groups.get, { group: path }, `group ${path}`)));
    const roots = rootRecords.map((record) => String(record["full_path"]));
    // Instance-wide, offset-paginated listings: a project that leaves one between two pages (made
    // private, deleted, moved) shifts one in scope onto a page already read, and it is on no page.
    // Read until two readings agree, as every listing a verdict rests on (docs/ownership.md).
    const byId = (record: Record<string, unknown>) => String(record["id"]);
    const allGroups = await settledListing(
      "the forge's groups",
      () => client.list<Record<string, unknown>>(routes.groups.list, { all_available: true }),
      byId,
    );
    const allProjects = await settledListing(
      "the forge's projects",
      () => client.list<Record<string, unknown>>(routes.projects.list, {}),
      byId,
    );
    const below = (path: string) => roots.some((root) => path === root || path.startsWith(`${root}/`));
    for (const group of [...rootRecords, ...allGroups]) note(index.groups, group, "full_path");
    for (const project of allProjects) note(index.projects, project, "path_with_namespace");
    for (const group of allGroups) if (typeof group["full_path"] === "string" && below(group["full_path"])) groups.add(group["full_path"]);
    for (const root of roots) groups.add(root);
    for (const project of allProjects) {
      const path = project["path_with_namespace"];
      if (typeof path === "string" && roots.some((root) => path.startsWith(`${root}/`))) projects.add(path);
    }
  }
  for (const path of projectPaths) {
    const record = await found(client, routes.projects.get, { project: path }, `project ${path}`);
    note(index.projects, record, "path_with_namespace");
    projects.add(String(record["path_with_namespace"]));
  }
  return { groups: [...groups].sort(), projects: [...projects].sort(), index };
}

/** The record of a group or project the scope names; an error naming it when the forge has none (or the token cannot see it). */
async function found(
  client: ForgeClient,
  route: typeof routes.groups.get | typeof routes.projects.get,
  params: Record<string, unknown>,
  what: string,
): Promise<Record<string, unknown>> {
  try {
    return (await client.request<Record<string, unknown>>(route, params)).body;
  } catch (error) {
    if (isNotFound(error)) throw new Error(`${what} was not found (or the token cannot see it)`);
    throw error;
  }
}

/**
 * The inputs a program writes for what the read gave: only the schema's fields (nested entries
 * lose the server's ids and descriptions), no nulls, and no optional input whose value is the
 * one dropping it resets to (a label that is not archived, a broadcast's default theme), as a
 * person leaves those out. Write-only and secret inputs become stack config reads.
 */
export function programInputs(declaration: AnyDeclaration, read: State): State {
  const inputs: State = {};
  for (const key of inputKeys(declaration)) {
    const value = withoutDefaults(declaration, key, fitted(declaration.inputs.shape[key] as z.ZodType, read[key]));
    if (value === undefined) continue;
    const reset = resetValue(declaration, key, read);
    if (key in (declaration.resets ?? {}) && reset !== undefined && sameValue(declaration, key, value, reset)) continue;
    inputs[key] = value;
  }
  return inputs;
}

/** An input without the fields its meaning fills in anyway: an object input's by its
 *  `normalize`, a nested list's elements' by the collection's meaning (`groupInheritanceType: 0`,
 *  `requiredApprovals: 1`). */
function withoutDefaults(declaration: AnyDeclaration, key: string, value: unknown): unknown {
  const normalize = declaration.normalize?.[key];
  if (normalize && value !== null && typeof value === "object" && !Array.isArray(value)) {
    // An object input compared by its meaning: fields the meaning drops (`authorizationType: "rbac"`) go.
    const kept: State = { ...(value as State) };
    for (const field of Object.keys(kept)) {
      const { [field]: _, ...without } = kept;
      if (isDeepStrictEqual(normalize(without), normalize(kept))) delete kept[field];
    }
    return kept;
  }
  const collection = declaration.collections?.[key];
  if (!collection || !Array.isArray(value)) return value;
  return value.map((element: State) => {
    const kept = { ...element };
    for (const field of Object.keys(element)) {
      const { [field]: _, ...without } = kept;
      if (isDeepStrictEqual(collection.meaning(without), collection.meaning(kept)) && collection.key(without) === collection.key(kept))
        delete kept[field];
    }
    return kept;
  });
}

/** A value cut to its schema: object fields it does not declare and nulls left out. */
function fitted(schema: z.ZodType | undefined, value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  const inner = schema ? unwrapped(schema) : undefined;
  if (Array.isArray(value)) {
    const element = inner instanceof z.ZodArray ? (inner.element as z.ZodType) : undefined;
    return value.map((item) => fitted(element, item)).filter((item) => item !== undefined);
  }
  if (typeof value === "object" && inner instanceof z.ZodObject) {
    const result: State = {};
    for (const [field, fieldSchema] of Object.entries(inner.shape)) {
      const item = fitted(fieldSchema as z.ZodType, (value as State)[field]);
      if (item !== undefined) result[field] = item;
    }
    return result;
  }
  return value;
}

/** True when the input at `path` (dotted) may be left out. */
function optionalAt(declaration: AnyDeclaration, path: string): boolean {
  let schema: z.ZodType | undefined = declaration.inputs;
  for (const part of path.split(".")) {
    const object: z.ZodType | undefined = schema ? unwrapped(schema) : undefined;
    schema = object instanceof z.ZodObject ? (object.shape[part] as z.ZodType | undefined) : undefined;
  }
  return schema === undefined || schema.safeParse(undefined).success;
}

/** Names, secrets and references, once every object is known. */
type Found = Omit<AdoptedResource, "name" | "referenced"> & { outputs: State };

function named(found: Found[]): AdoptedResource[] {
  const taken = new Set<string>();
  const resources: AdoptedResource[] = [];
  // Within a place, by declaration order (targets first), then name.
  const order = Object.keys(declarations);
  const items = found.map((item) => {
    const entry = adoptEntries[item.key] as AdoptEntry;
    const words = entry.name({ ...item.outputs, ...item.inputs });
    return { ...item, base: slug(`${item.path} ${words}`) || slug(item.declaration.name) };
  });
  items.sort(
    (a, b) =>
      placeOrder(a) - placeOrder(b) ||
      a.path.localeCompare(b.path) ||
      order.indexOf(a.key) - order.indexOf(b.key) ||
      a.base.localeCompare(b.base) ||
      a.importId.localeCompare(b.importId),
  );
  for (const item of items) {
    let name = item.base;
    for (let n = 2; taken.has(name); n++) name = `${item.base}-${n}`;
    taken.add(name);
    resources.push({
      key: item.key,
      declaration: item.declaration,
      scope: item.scope,
      path: item.path,
      importId: item.importId,
      name,
      inputs: item.inputs,
      referenced: false,
      ...(item.files ? { files: item.files } : {}),
      ...(item.origin ? { origin: item.origin } : {}),
    });
  }
  const configKeys = new Set<string>();
  for (const resource of resources) {
    resource.inputs = withSecrets(resource, configKeys);
    resolveReferences(resource, resources);
  }
  return resources;
}

/** The instance's objects first, then the token's user's, then groups' and projects' by path. */
const placeOrder = (item: { scope: AdoptScope }) => (item.scope === "instance" ? 0 : item.scope === "user" ? 1 : 2);

/**
 * The adoption without the objects whose inputs name files (a group's avatar): for a program
 * written to standard output, where no file can go beside it. Each is noted as not adopted.
 */
export function withoutFiles(adoption: Adoption): Adoption {
  const kept = adoption.resources.filter((resource) => !resource.files);
  const dropped = adoption.resources.filter((resource) => resource.files);
  return {
    ...adoption,
    resources: kept,
    skipped: [
      ...adoption.skipped,
      ...dropped.map((resource) => ({
        what: `${resource.declaration.name} ${resource.name}${resource.origin ? ` (${resource.origin})` : ""}`,
        reason: `its file (${resource.files!.map((file) => file.path).join(", ")}) goes beside the program: pass --out to adopt it`,
        left: true,
      })),
    ],
  };
}

/** The inputs with each secret or write-only one a stack config read, by a key no other resource's read takes. */
function withSecrets(resource: AdoptedResource, configKeys: Set<string>): State {
  const { declaration } = resource;
  const read = resource.inputs;
  let inputs = read;
  const inputSet = new Set(inputKeys(declaration));
  const secretPaths = [
    ...(declaration.secretOutputs ?? []).filter((key) => inputSet.has(key)).map((path) => ({ path, writeOnly: false })),
    ...(declaration.writeOnly ?? []).map((path) => ({ path, writeOnly: true })),
    ...((adoptEntries[resource.key] as AdoptEntry).secretInputs ?? []).map((path) => ({ path, writeOnly: false })),
  ];
  for (const { path, writeOnly } of secretPaths) {
    const present = getPath(read, path) !== undefined;
    const parent = path.includes(".") ? getPath(read, path.slice(0, path.lastIndexOf("."))) : read;
    // A write-only value is needed when the program must hold it: a required one (inside an
    // object the forge shows), or one the input rules ask for (a client key with its certificate).
    const needed = present || (writeOnly && parent !== undefined && (!optionalAt(declaration, path) || askedFor(declaration, path, read)));
    if (!needed) continue;
    // Names are distinct, their camel forms need not be (`a-b2`, `a-b-2`).
    const base = camel(`${resource.name} ${path.slice(path.lastIndexOf(".") + 1)}`);
    let key = base;
    for (let n = 2; configKeys.has(key); n++) key = `${base}${n}`;
    configKeys.add(key);
    const secret: SecretValue = { kind: "secret", key, path, writeOnly };
    inputs = withPath(inputs, path, secret) as State;
  }
  return inputs;
}

/** True when the input rules, given what was read, report `path` missing (a cross-field rule). */
function askedFor(declaration: AnyDeclaration, path: string, read: State): boolean {
  const result = declaration.inputs.safeParse(read);
  return !result.success && result.error.issues.some((issue: z.core.$ZodIssue) => issue.path.join(".") === path);
}

function resolveReferences(resource: AdoptedResource, all: AdoptedResource[]): void {
  const entry = adoptEntries[resource.key] as AdoptEntry;
  for (const [input, targetKey] of Object.entries(entry.references ?? {})) {
    if (!targetKey || resource.inputs[input] === undefined) continue;
    const targetDeclaration = declarations[targetKey as DeclarationKey] as AnyDeclaration;
    let targetId: string;
    try {
      targetId = formatId(targetDeclaration, resource.inputs);
    } catch {
      continue;
    }
    const target = all.find((candidate) => candidate.key === targetKey && candidate.importId === targetId);
    if (!target) continue;
    if (all.indexOf(target) > all.indexOf(resource))
      throw new Error(`forge-adopt: ${resource.declaration.name} refers to ${target.declaration.name}, which is declared after it`);
    target.referenced = true;
    const reference: ReferenceValue = { kind: "reference", target: target.name, output: input };
    resource.inputs[input] = reference;
  }
}

/** The longest name a resource gets from what the forge calls it: a 10 kB label name makes no 10 kB name. */
const NAME_LENGTH = 80;

/** `acme/web agent production` → `acme-web-agent-production`: only ASCII letters, digits and dashes, whatever the text holds. */
export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+/, "")
    .slice(0, NAME_LENGTH)
    .replace(/-+$/, "");
}
