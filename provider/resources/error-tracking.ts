import { z } from "zod";
import { defineResource, type OperationContext, type State, type WireRecord } from "../engine/declaration";
import { normalizers, projectRef, serverId, show } from "./common";

const SETTINGS_ROUTE = "/projects/:project/error_tracking/settings";

/** The PATCH body: `active` is required on every PATCH (Document 2), `integrated` only when the program sets it. */
function patchBody(state: State): Record<string, unknown> {
  return { active: state["active"], ...(state["integrated"] === undefined ? {} : { integrated: state["integrated"] }) };
}

/**
 * Whether a project's integrated error tracking is on. The settings belong to the project and
 * outlive the resource: deleting the resource turns error tracking off (`active=false`).
 */
export const errorTrackingSettings = defineResource({
  name: "ErrorTrackingSettings",
  summary: "Turns a project's error tracking on or off and chooses the integrated backend.",
  inputs: z.object({
    /** The project: id or full path. Changing it replaces the resource (the old project's error tracking is turned off). */
    project: projectRef,
    /** true: the project collects errors; false: error tracking is off. */
    active: z.boolean({ error: (issue) => `${show(issue.input)} is not true or false. Set active to true to collect errors, false to turn error tracking off.` }),
    /**
     * true: the forge's integrated backend stores the errors. false: the external backend the
     * project already has (configured in the forge's UI; the API cannot configure it). A project
     * without settings can only start with the integrated backend. Left out, a project without
     * settings gets the integrated backend, one with settings keeps its backend; dropping the
     * input sets the integrated backend back.
     */
    integrated: z.boolean({ error: (issue) => `${show(issue.input)} is not true or false. Set integrated to true for the forge's integrated backend.` }).optional(),
  }),
  outputs: z.object({
    /** The external backend's project name; null with the integrated backend. */
    projectName: z.string().nullable(),
    /** The external backend's web address; null with the integrated backend. */
    vendorExternalUrl: z.string().nullable(),
    /** The external backend's API address; null with the integrated backend. */
    apiUrl: z.string().nullable(),
  }),
  idParts: ["project"],
  create: `PUT ${SETTINGS_ROUTE}`,
  read: `GET ${SETTINGS_ROUTE}`,
  update: `PATCH ${SETTINGS_ROUTE}`,
  replaceOn: ["project"],
  resets: { integrated: true },
  normalize: { project: normalizers.ref },
  hooks: {
    /**
     * PATCH only changes settings that exist, and PUT only configures the integrated backend
     * (Document 2): settings that exist are PATCHed (which also switches the backend), a project
     * without any gets a PUT, with `integrated` true unless the program says otherwise.
     */
    async create(ctx: OperationContext, state: State): Promise<WireRecord> {
      if (await ctx.readRecord(state)) return ctx.call<WireRecord>(`PATCH ${SETTINGS_ROUTE}`, state, patchBody(state));
      return ctx.call<WireRecord>(`PUT ${SETTINGS_ROUTE}`, state, { active: state["active"], integrated: state["integrated"] ?? true });
    },
    /** Every PATCH carries `active`, whichever field changed. */
    async update(ctx: OperationContext, state: State): Promise<WireRecord> {
      return ctx.call<WireRecord>(`PATCH ${SETTINGS_ROUTE}`, state, patchBody(state));
    },
    /** The forge cannot remove the settings: deleting turns error tracking off. */
    async delete(ctx: OperationContext, state: State): Promise<void> {
      await ctx.call(`PATCH ${SETTINGS_ROUTE}`, state, { active: false });
    },
  },
  errorHints: [
    {
      status: 400,
      when: (state) => state["integrated"] === false,
      hint: "a project without error tracking settings can only start with the integrated backend: set integrated to true (or leave it out), or configure the external backend in the forge first",
    },
  ],
  notes: [
    "Deleting the resource turns error tracking off (`active=false`); the settings themselves stay on the project, as the forge has no way to remove them.",
    "Choosing `integrated=false` needs an external backend already configured for the project in the forge's UI.",
  ],
});

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
        error: (issue) => `${show(issue.input)} is not a map of strings. Give values that name the rotation, such as { quarter: "2026-Q4" }.`,
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
  create: "POST /projects/:project/error_tracking/client_keys",
  // No single-key read in the spec: the key is found in the project's list.
  read: { list: "GET /projects/:project/error_tracking/client_keys", where: (record, state) => record["id"] === Number(state["keyId"]) },
  // Answers 200 with the deleted key (api-semantics.md).
  delete: "DELETE /projects/:project/error_tracking/client_keys/:keyId",
  replaceOn: "all",
  secretOutputs: ["publicKey", "dsn"],
  readNames: { dsn: "vendor_dsn" },
  normalize: { project: normalizers.ref },
  hooks: {
    /** The create takes no parameters (Document 2): `rotateOn` stays in the program. */
    create: (ctx: OperationContext, state: State) => ctx.call<WireRecord>("POST /projects/:project/error_tracking/client_keys", state),
  },
  notes: [
    "Rotation: change a value of `rotateOn`. The new key is created before the old one is deleted, as the forge's rotation steps say; dropping `rotateOn` rotates too.",
    "`publicKey` and `dsn` are secret outputs, kept encrypted in state.",
  ],
});
