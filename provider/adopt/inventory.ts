/**
 * What no stack of a fleet holds (`forge-drift --unmanaged`, `forge-adopt --unmanaged`): every
 * object of every kind in a scope, found once for the whole fleet by forge-adopt's entries, matched
 * against what the fleet's states hold by kind and import id, and each one left read by its import
 * id (a listing is a hint). It only reads: GET requests, no write to the forge or to a stack.
 *
 * Objects are matched by kind (a type token of either face names the declaration) and import id,
 * with a group or project compared by the forge's id, so `acme:17`, `1:17` and `ACME:17` are one
 * label. What it finds, apart:
 * - unmanaged: an object (or, for a setting kind, a setting that differs from the forge's
 *   defaults) that no stack holds;
 * - the forge's own: what the forge made by itself (its entry's `forgeOwn`, or a setting a program
 *   would declare nothing of): never mixed with what a person made;
 * - possibly held: what a stack whose state could not be read, or whose run was under way, may
 *   hold; the verdict is withheld, never "unmanaged";
 * - ignored: what a rule of the ignore file allows outside code;
 * - held twice: every import id that two resources of the fleet hold, whatever the scope.
 */
import { routes } from "../../api/routes";
import type { ForgeClient } from "../client";
import { isNotFound } from "../client";
import type { AnyDeclaration, State, WireRecord } from "../engine/declaration";
import { formatId, parseId } from "../engine/ids";
import { ResourceOperations } from "../engine/operations";
import type { OperationContext } from "../engine/declaration";
import { declarations, type DeclarationKey } from "../resources";
import { parseTypeToken, pluginToken as pluginTokenOf } from "../type-tokens";
import type { AdoptEntry, AdoptScope } from "../adopt-entry/entry";
import { sharingListings } from "../adopt-entry/find";
import { inTurns } from "../engine/in-turns";
import { ruleMatches, type IgnoreRule } from "./ignore";
import {
  entriesInOrder,
  placeName,
  programInputs,
  refusedHere,
  scopePlaces,
  slug,
  type AdoptScopeInput,
  type Place,
  type ScopeIndex,
  type Skipped,
} from "./read";
import { adoptEntries } from "./entries";

/** One object a resource of a stack holds (provider/holdings: a rotating resource holds its two credentials). */
export interface HeldResource {
  /** A type token of either face (`forge:index:GroupLabel`, `pulumi-nodejs:dynamic/forge:GroupLabel`). */
  type: string;
  /** The object's kind, where it is not the token's (a rotating resource's credential is a `ClusterAgentToken`). */
  kind?: string;
  /** The import id of the object. */
  id: string;
  /** The resource that holds it. */
  urn: string;
}

/** A stack of the fleet as the inventory sees it. */
export interface FleetMember {
  /** How reports name it: `<project>/<stack>`. */
  label: string;
  /**
   * `read`: its state is `resources`. `partial`: it holds `resources` and may hold more (a run held
   * its lock when it was read and may be making objects now; or a killed run left creates pending).
   * `unread`: its state could not be read: it may hold anything.
   */
  status: "read" | "partial" | "unread";
  /** What its resources hold on the forge listed. */
  resources: HeldResource[];
  /** What it may hold there, and why (a resource whose forge may be this one, a pending import): no verdict on those objects. */
  possibly?: (HeldResource & { why: string })[];
}

/** A resource of the fleet that holds an object. */
export interface Holder {
  /** The stack's label. */
  stack: string;
  /** The resource's logical name. */
  resource: string;
  /** The id its state records (as the stack spells it). */
  id: string;
  type: string;
}

/** An object of the forge that the inventory reports. */
export interface FoundObject {
  key: DeclarationKey;
  /** The resource's name (`GroupLabel`). */
  kind: string;
  scope: AdoptScope;
  /** The group's or project's full path; the token's user's username for `user`; empty for the instance. */
  path: string;
  importId: string;
  /** The state fields of its import id, to read it again (forge-adopt --unmanaged). */
  idState: State;
  /** The object's own name: its name, title, username, message, slug, else its import id. */
  name: string;
  /** The logical name forge-adopt gives it (`acme-label-tmp-triage`), unique in the report. */
  resourceName: string;
  /** A setting (of a group, a project, the instance) rather than an object. */
  setting: boolean;
  /** When the forge says it was made. */
  createdAt?: string;
  /** Who made it, where the forge says (a username; `user <id>` when it cannot be named). */
  createdBy?: string;
}

export interface Inventory {
  /** The places listed, in program order. */
  places: Place[];
  /** Objects and settings no stack holds, and no ignore rule allows. */
  unmanaged: FoundObject[];
  /** What the forge made by itself, with why. */
  forgeOwn: (FoundObject & { why: string })[];
  /** What no stack that was read holds, and a stack that could not be read (or was mid-run) may: the stacks' labels. */
  possiblyHeld: (FoundObject & { by: string[] })[];
  /** What an ignore rule allows outside code: the first rule that matched (its index). */
  ignored: (FoundObject & { rule: number })[];
  /** How many objects each rule of the ignore file matched, by its index. */
  ruleMatches: number[];
  /** Import ids that two or more resources of the fleet hold. */
  heldTwice: { kind: string; importId: string; holders: Holder[] }[];
  /** Kinds a place could not be listed for (a tier without the feature, a role too low). */
  skipped: Skipped[];
  counts: {
    /** Objects the listings showed. */
    listed: number;
    /** Of those, held by a stack. */
    held: number;
    /** Listed but gone when read by import id (deleted since, or never there): not reported. */
    gone: number;
  };
}

export interface InventoryOptions {
  /** The ignore file's rules. */
  ignore?: readonly IgnoreRule[];
  /** Listings and reads at once (default 4); the client still paces on the forge's RateLimit-* answers. */
  concurrency?: number;
  /** Where the reads' warnings go (masked by the caller); default stderr. */
  log?: (message: string) => void;
}

/** A candidate found by an entry in a place, before it is read. */
interface Candidate {
  key: DeclarationKey;
  entry: AdoptEntry;
  place: Place;
  idState: State;
  importId: string;
  canonical: string;
}

/**
 * Takes the inventory of a scope against a fleet's states: the scope is listed first, then
 * `fleet` gives the states (read after the listing, so that an object a run made before the
 * listing is in its stack's state, or the stack's lock says a run is under way). Throws when a
 * group or project named in the scope does not exist.
 */
export function takeInventory(
  client: ForgeClient,
  scope: AdoptScopeInput,
  fleet: () => Promise<readonly FleetMember[]>,
  options: InventoryOptions = {},
): Promise<Inventory> {
  return sharingListings(client, async () => {
    const concurrency = options.concurrency ?? 4;
    const rules = options.ignore ?? [];
    const { places, index } = await scopePlaces(client, scope);
    const ids = new ForgeIds(client, index);

    // Every kind of every place, listed once for the fleet.
    const skipped: Skipped[] = [];
    const tasks = places.flatMap((place) =>
      entriesInOrder()
        .filter(({ entry }) => entry.scope === place.scope)
        .map(({ key, entry }) => ({ key, entry, place })),
    );
    const listed = await inTurns(tasks, concurrency, async ({ key, entry, place }) => {
      try {
        return (await entry.find({ path: place.path, client })).map((idState) => ({ key, entry, place, idState }));
      } catch (error) {
        if (!refusedHere(error)) throw error;
        skipped.push({ what: `${declarationOf(key).name} in ${placeName(place)}`, reason: error.message });
        return [];
      }
    });
    const candidates: Candidate[] = [];
    const seen = new Set<string>();
    for (const found of listed.flat()) {
      const declaration = declarationOf(found.key);
      const importId = formatId(declaration, found.idState);
      const canonical = await ids.canonical(declaration, found.idState);
      // Two places that list one object (a group and its subgroup's listings): once.
      if (seen.has(canonical)) continue;
      seen.add(canonical);
      candidates.push({ ...found, importId, canonical });
    }

    // What the fleet holds, by the same key; and what a stack may hold (no verdict on those).
    const members = await fleet();
    const holders = new Map<string, Holder[]>();
    const maybe = new Map<string, Set<string>>();
    const canonicalOf = async (resource: HeldResource): Promise<{ canonical: string; kind: string } | undefined> => {
      const kind = resource.kind ?? parseTypeToken(resource.type)?.name;
      const key = kind === undefined ? undefined : keyOfName(kind);
      if (!key) return undefined;
      try {
        return { canonical: await ids.canonical(declarationOf(key), parseId(declarationOf(key), resource.id)), kind: kind! };
      } catch {
        return undefined; // an id no object of the kind has: it holds nothing here
      }
    };
    for (const member of members) {
      if (member.status === "unread") continue;
      for (const resource of member.resources) {
        const found = await canonicalOf(resource);
        if (!found) continue;
        const holder = {
          stack: member.label,
          resource: resource.urn.slice(resource.urn.lastIndexOf("::") + 2),
          id: resource.id,
          type: resource.kind ? pluginTokenOf(resource.kind) : resource.type,
        };
        holders.set(found.canonical, [...(holders.get(found.canonical) ?? []), holder]);
      }
      for (const resource of member.possibly ?? []) {
        const found = await canonicalOf(resource);
        if (found) maybe.set(found.canonical, new Set([...(maybe.get(found.canonical) ?? []), member.label]));
      }
    }
    const heldTwice = [...holders.values()]
      .filter((held) => held.length > 1)
      .map((held) => ({ kind: parseTypeToken(held[0]!.type)!.name, importId: held[0]!.id, holders: held }))
      .sort((a, b) => a.kind.localeCompare(b.kind) || a.importId.localeCompare(b.importId));
    // Stacks that may hold anything their state does not show.
    const unsure = members.filter((member) => member.status !== "read").map((member) => member.label);
    const mayHold = (canonical: string) => [...new Set([...unsure, ...(maybe.get(canonical) ?? [])])];

    const ruleMatchCounts = rules.map(() => 0);
    const firstRule = (subject: Parameters<typeof ruleMatches>[1]): number | undefined => {
      let first: number | undefined;
      rules.forEach((rule, index) => {
        if (ruleMatches(rule, subject) !== true) return;
        ruleMatchCounts[index]! += 1;
        first ??= index;
      });
      return first;
    };

    const reader = new Reader(client, options.log);
    const unheld = candidates.filter((candidate) => !holders.has(candidate.canonical));
    const inventory: Inventory = {
      places,
      unmanaged: [],
      forgeOwn: [],
      possiblyHeld: [],
      ignored: [],
      ruleMatches: ruleMatchCounts,
      heldTwice,
      skipped,
      counts: { listed: candidates.length, held: candidates.length - unheld.length, gone: 0 },
    };
    const outcomes = await inTurns(unheld, concurrency, async (candidate) => {
      const subject = { kind: declarationOf(candidate.key).name, scope: candidate.place.scope, path: candidate.place.path };
      // A rule that names no name pattern decides before the read, unless a stack may hold the object: nothing to verify.
      const early =
        mayHold(candidate.canonical).length === 0 && rules.some((rule) => !rule.name && ruleMatches(rule, subject))
          ? firstRule(subject)
          : undefined;
      if (early !== undefined) return { candidate, rule: early, object: undefined };
      try {
        return { candidate, ...(await reader.inspect(candidate)) };
      } catch (error) {
        if (!refusedHere(error)) throw error;
        skipped.push({
          what: `${declarationOf(candidate.key).name} ${candidate.importId} in ${placeName(candidate.place)}`,
          reason: error.message,
        });
        return { candidate, refused: true as const };
      }
    });
    for (const outcome of outcomes) {
      const { candidate } = outcome;
      if ("refused" in outcome) continue;
      if ("gone" in outcome) {
        inventory.counts.gone += 1;
        continue;
      }
      if (outcome.object === undefined) {
        inventory.ignored.push({ ...placeholder(candidate), rule: outcome.rule! });
        continue;
      }
      const object = outcome.object;
      // What a stack may hold gets no verdict: not the forge's own, not ignored, not unmanaged.
      const by = mayHold(candidate.canonical);
      if (by.length > 0) {
        inventory.possiblyHeld.push({ ...object, by });
        continue;
      }
      if (outcome.why !== undefined) {
        inventory.forgeOwn.push({ ...object, why: outcome.why });
        continue;
      }
      const rule = firstRule({ kind: object.kind, scope: object.scope, path: object.path, name: object.name });
      if (rule !== undefined) inventory.ignored.push({ ...object, rule });
      else inventory.unmanaged.push(object);
    }
    uniqueNames([...inventory.unmanaged, ...inventory.possiblyHeld, ...inventory.forgeOwn, ...inventory.ignored]);
    return inventory;
  });
}

/** An object an early rule ignored, named without a read. */
function placeholder(candidate: Candidate): FoundObject {
  const kind = declarationOf(candidate.key).name;
  return {
    key: candidate.key,
    kind,
    scope: candidate.place.scope,
    path: candidate.place.path,
    importId: candidate.importId,
    idState: candidate.idState,
    name: candidate.importId,
    resourceName: slug(`${candidate.place.path} ${kind} ${candidate.importId}`),
    setting: candidate.entry.setting === true,
  };
}

/** Each object's logical name once in the report, as forge-adopt numbers repeats (`-2`). */
function uniqueNames(objects: FoundObject[]): void {
  const taken = new Set<string>();
  for (const object of objects) {
    let name = object.resourceName;
    for (let n = 2; taken.has(name); n++) name = `${object.resourceName}-${n}`;
    taken.add(name);
    object.resourceName = name;
  }
}

/** The registry key of a declaration name (`GroupLabel` → `groupLabel`). */
const keysByName = new Map(
  Object.entries(declarations).map(([key, declaration]) => [(declaration as AnyDeclaration).name, key as DeclarationKey]),
);
function keyOfName(name: string): DeclarationKey | undefined {
  return keysByName.get(name);
}

function declarationOf(key: DeclarationKey): AnyDeclaration {
  return declarations[key] as AnyDeclaration;
}

/** The id parts that name a group or a project, which a state may spell by path or by id. */
const PLACE_PARTS = { group: routes.groups.get, project: routes.projects.get } as const;

/**
 * The key two spellings of one object share: the kind, and the id's parts with every group and
 * project as the forge's id. A path the scope's resolution did not see (an old path of a moved
 * project, a group outside the scope) is asked once; one the forge does not know stays a path.
 */
class ForgeIds {
  private readonly asked = new Map<string, Promise<string>>();

  constructor(
    private readonly client: ForgeClient,
    private readonly index: ScopeIndex,
  ) {}

  async canonical(declaration: AnyDeclaration, idState: State): Promise<string> {
    const parts: string[] = [];
    for (const field of declaration.idParts) {
      const value = idState[field];
      parts.push(field in PLACE_PARTS ? await this.placeId(field as keyof typeof PLACE_PARTS, value) : String(value));
    }
    return JSON.stringify([declaration.name, ...parts]);
  }

  private placeId(field: keyof typeof PLACE_PARTS, value: unknown): Promise<string> {
    if (typeof value === "number" || /^\d+$/.test(String(value))) return Promise.resolve(`#${String(value)}`);
    const path = String(value).toLowerCase();
    const known = (field === "group" ? this.index.groups : this.index.projects).get(path);
    if (known !== undefined) return Promise.resolve(`#${known}`);
    const key = `${field} ${path}`;
    let id = this.asked.get(key);
    if (!id) {
      id = this.client.request<Record<string, unknown>>(PLACE_PARTS[field], { [field]: String(value) }).then(
        (response) => (typeof response.body["id"] === "number" ? `#${response.body["id"]}` : path),
        (error: unknown) => {
          if (isNotFound(error)) return path;
          throw error;
        },
      );
      this.asked.set(key, id);
    }
    return id;
  }
}

/** Operations that keep the forge's record of each object they read, by its import id: who made it and when, which the read state leaves out. */
class RecordKeepingOperations extends ResourceOperations {
  readonly records = new Map<string, WireRecord>();

  override async readRecord(ctx: OperationContext, state: State): Promise<WireRecord | undefined> {
    const record = await super.readRecord(ctx, state);
    if (record) {
      try {
        this.records.set(formatId(this.declaration, state), record);
      } catch {
        // a state without its id's parts: not an object's read
      }
    }
    return record;
  }
}

/** Reads candidates by their import ids: one set of operations per kind, so that reads of a kind share its listings. */
class Reader {
  private readonly operations = new Map<DeclarationKey, RecordKeepingOperations>();
  private users: Promise<Map<number, string>> | undefined;

  constructor(
    private readonly client: ForgeClient,
    private readonly log: ((message: string) => void) | undefined,
  ) {}

  /** The object, and why it is the forge's own; `gone` when the forge no longer has it. */
  async inspect(candidate: Candidate): Promise<{ gone: true } | { object: FoundObject; why?: string; rule?: undefined }> {
    const { key, entry, place, importId } = candidate;
    const operations = this.operationsOf(key);
    const declaration = operations.declaration;
    const read = await operations.read(importId, {});
    const record = operations.records.get(importId);
    operations.records.delete(importId);
    if (read.id === "") return { gone: true };
    const outputs = read.props as State;
    const context = { path: place.path, client: this.client };
    // Presented as forge-adopt would write it, where the verdict needs the inputs.
    let inputs = programInputs(declaration, (read.inputs ?? {}) as State);
    if ((entry.keep || entry.forgeOwn) && entry.present) inputs = await entry.present(inputs, outputs, context);
    const why =
      entry.keep && !entry.keep(inputs)
        ? "every value at the forge's defaults: a program would declare nothing"
        : await entry.forgeOwn?.(inputs, outputs, context);
    const words = entry.name({ ...outputs, ...inputs });
    const object: FoundObject = {
      key,
      kind: declaration.name,
      scope: place.scope,
      path: place.path,
      importId,
      idState: candidate.idState,
      name: ownName(declaration, { ...outputs, ...inputs }, place, importId),
      resourceName: slug(`${place.path} ${words}`) || slug(declaration.name),
      setting: entry.setting === true,
      ...(entry.setting || !record ? {} : await this.provenance(record)),
    };
    return why === undefined ? { object } : { object, why };
  }

  private operationsOf(key: DeclarationKey): RecordKeepingOperations {
    let operations = this.operations.get(key);
    if (!operations) {
      const log = this.log;
      operations = new RecordKeepingOperations(
        declarationOf(key),
        () => this.client,
        log ? (message, level) => log(`${level ? `${level}: ` : ""}${message}`) : undefined,
      );
      this.operations.set(key, operations);
    }
    return operations;
  }

  /** Who made the object and when, where its record says: `created_at`, and `created_by`, `author`, `user` or `created_by_user_id`. */
  private async provenance(record: WireRecord): Promise<{ createdAt?: string; createdBy?: string }> {
    const at = record["created_at"] ?? record["createdAt"];
    const person = [record["created_by"], record["author"], record["user"], record["createdBy"]].find(
      (value) => typeof value === "object" && value !== null,
    ) as Record<string, unknown> | undefined;
    let by = typeof person?.["username"] === "string" ? person["username"] : undefined;
    const id = person?.["id"] ?? record["created_by_user_id"] ?? record["createdByUserId"];
    if (by === undefined && (typeof id === "number" || (typeof id === "string" && /^\d+$/.test(id))))
      by = (await this.usernames()).get(Number(id)) ?? `user ${id}`;
    return { ...(typeof at === "string" ? { createdAt: at } : {}), ...(by !== undefined ? { createdBy: by } : {}) };
  }

  /** The forge's users by id, listed once (an administrator's token sees them all). */
  private usernames(): Promise<Map<number, string>> {
    this.users ??= this.client.list<Record<string, unknown>>(routes.users.list, {}).then(
      (users) =>
        new Map(
          users.flatMap((user) =>
            typeof user["id"] === "number" && typeof user["username"] === "string" ? [[user["id"], user["username"]] as const] : [],
          ),
        ),
      () => new Map(),
    );
    return this.users;
  }
}

/** Fields that hold an object's own name, the first present wins. */
const NAME_FIELDS = ["username", "name", "title", "labelName", "message", "slug", "url", "targetPathWithNamespace", "targetName"];

/** The object's own name: a setting's is its place; else the first name field that is not secret, else its import id. */
function ownName(declaration: AnyDeclaration, state: State, place: Place, importId: string): string {
  const entry = adoptEntries[keyOfName(declaration.name)!] as AdoptEntry;
  if (entry.setting && place.scope !== "instance") return place.path;
  const secret = new Set([...(declaration.secretOutputs ?? []), ...(declaration.writeOnly ?? [])]);
  const field = NAME_FIELDS.find((name) => !secret.has(name) && typeof state[name] === "string" && state[name] !== "");
  return field ? String(state[field]) : importId;
}
