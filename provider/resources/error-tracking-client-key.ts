import { z } from "zod";
import { defineResource } from "../engine/declaration";
import { normalizers, projectRef, serverId, show } from "../fields";
import { defineAdopt, type AdoptEntries } from "../adopt-entry/entry";
import { list, text } from "../adopt-entry/find";
import { routes } from "../../api/routes";
import { rotating } from "./rotation";

/**
 * A client key of a project's integrated error tracking: SDKs send events to its DSN. The key
 * cannot be changed, only replaced; `rotateOn` is how a program rotates it.
 */
export const errorTrackingClientKey = defineResource({
  name: "ErrorTrackingClientKey",
  summary: "A client key (and its DSN) that error tracking SDKs send a project's events with.",
  inputs: z.object({
    /** The project: id or full path. Changing it replaces the key. */
    project: projectRef,
    /**
     * Any values that, when one changes, rotate the key: a new key is created, then the old one
     * deleted (the forge's rotation order, so the DSN in use works until the program's consumers
     * have the new one). For example `{ quarter: "2026-Q4" }`. Not sent to the forge.
     */
    rotateOn: z
      .record(z.string(), z.string(), {
        error: (issue) =>
          `${show(issue.input)} is not a map of strings. Give values that name the rotation, such as { quarter: "2026-Q4" }.`,
      })
      .optional(),
  }),
  outputs: z.object({
    /** The key's id. */
    keyId: serverId,
    /** Whether the key accepts events. */
    active: z.boolean(),
    /** The public key SDKs authenticate with (secret). */
    publicKey: z.string(),
    /** The data source name to configure SDKs with: `https://<publicKey>@<host>/errortracking/api/v1/projects/<project id>` (secret). */
    dsn: z.string(),
  }),
  recordId: "keyId",
  idParts: ["project", "keyId"],
  // Keys have no name: after a lost answer, any new key of the project is a candidate (reported).
  identity: { none: "keys have no name", search: { list: routes.errorTrackingClientKeys.list, where: () => true } },
  // The create takes no parameters: `rotateOn` stays in the program.
  create: { route: routes.errorTrackingClientKeys.create, sends: "none" },
  // No single-key read in the spec: the key is found in the project's list.
  read: { list: routes.errorTrackingClientKeys.list, where: (record, state) => record["id"] === Number(state["keyId"]) },
  // Answers 200 with the deleted key (api-semantics.md).
  delete: routes.errorTrackingClientKeys.delete,
  replaceOn: "all",
  secretOutputs: ["publicKey", "dsn"],
  readNames: { dsn: "vendor_dsn" },
  normalize: { project: normalizers.ref },
  notes: [
    "Rotation: change a value of `rotateOn`. The new key is created before the old one is deleted, as the forge's rotation steps say; dropping `rotateOn` rotates too.",
    "`publicKey` and `dsn` are secret outputs, kept encrypted in state.",
  ],
});

/**
 * Two client keys of a project, rotated with an overlap: SDKs still sending with the old DSN keep
 * working until the next rotation.
 */
export const rotatingErrorTrackingClientKey = rotating(errorTrackingClientKey, {
  name: "RotatingErrorTrackingClientKey",
  summary:
    "Two error tracking client keys of a project, rotated on a schedule with an overlap: `current` and `previous` both accept events until the next rotation.",
  noun: "key",
  secrets: ["publicKey", "dsn"],
  leaves: ["rotateOn"],
  notes: [
    "A rotation (`rotateAfter` past on the forge's clock, or a change of `keepers`) deletes `previous`, makes a new key and keeps the old `current` as `previous`. A key has no creation time on the forge: its `createdAt` is the forge's clock (its `Date` header) when the forge answered its create.",
    "It deletes only keys it made. A key of the project made after the newest it holds stops the rotation with an error naming its import id (another pipeline's rotation, or a person's), before anything is deleted.",
    "`currentDsn`, `currentPublicKey`, `previousDsn` and `previousPublicKey` are secret outputs, kept encrypted in state. It cannot be imported: forge-adopt declares the keys as ErrorTrackingClientKey.",
  ],
});

/** What forge-adopt finds of this file's resources (provider/adopt): where their objects are, what to call them. */
export const adopt: AdoptEntries = {
  errorTrackingClientKey: defineAdopt({
    scope: "project",
    find: async ({ path, client }) =>
      (await list("listErrorTrackingClientKeys", { project: path }, client)).map((key) => ({ project: path, keyId: key["id"] })),
    name: (inputs) => `error tracking key ${text(inputs["keyId"])}`,
  }),
  rotatingErrorTrackingClientKey: { exempt: "it makes its own keys: forge-adopt declares a project's keys as ErrorTrackingClientKey" },
};

/** This file's declarations, as the generated registry (provider/resources/index.ts) lists them. */
export const registered = { errorTrackingClientKey, rotatingErrorTrackingClientKey };
