import { z } from "zod";
import { defineResource, type OperationContext, type State, type WireRecord } from "../engine/declaration";
import { normalizers, projectRef, show } from "../fields";
import { defineAdopt, type AdoptEntries } from "../adopt-entry/entry";
import { one } from "../adopt-entry/find";
import { routes } from "../../api/routes";

const SETTINGS = routes.errorTrackingSettings;

/** The PATCH body of a create over existing settings: `active`, and `integrated` when the program sets it. */
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
    active: z.boolean({
      error: (issue) =>
        `${show(issue.input)} is not true or false. Set active to true to collect errors, false to turn error tracking off.`,
    }),
    /**
     * true: the forge's integrated backend stores the errors. false: the external backend the
     * project already has (configured in the forge's UI; the API cannot configure it). A project
     * without settings can only start with the integrated backend. Left out, a project without
     * settings gets the integrated backend and one with settings keeps its backend.
     */
    integrated: z
      .boolean({
        error: (issue) => `${show(issue.input)} is not true or false. Set integrated to true for the forge's integrated backend.`,
      })
      .optional(),
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
  identity: { fields: ["project"], describe: (state) => `the error tracking settings of project ${show(state["project"])}` },
  create: SETTINGS.set,
  read: SETTINGS.get,
  // `active` is required on every PATCH, whichever field changed.
  update: { route: SETTINGS.update, always: ["active"] },
  // The forge cannot remove the settings: deleting turns error tracking off.
  delete: { route: SETTINGS.update, body: { active: false } },
  replaceOn: ["project"],
  resets: { integrated: true },
  normalize: { project: normalizers.ref },
  hooks: {
    /**
     * PATCH only changes settings that exist, and PUT only configures the integrated backend
     *: settings that exist are PATCHed (which also switches the backend), a project
     * without any gets a PUT, with `integrated` true unless the program says otherwise.
     */
    async create(ctx: OperationContext, state: State): Promise<WireRecord> {
      if (await ctx.readRecord(state)) return ctx.call<WireRecord>(SETTINGS.update, state, patchBody(state));
      return ctx.call<WireRecord>(SETTINGS.set, state, { active: state["active"], integrated: state["integrated"] ?? true });
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

/** What forge-adopt finds of this file's resources (provider/adopt): where their objects are, what to call them. */
export const adopt: AdoptEntries = {
  errorTrackingSettings: defineAdopt({
    scope: "project",
    // A project that never had error tracking has no settings (404).
    find: async ({ path, client }) => ((await one("getErrorTrackingSettings", { project: path }, client)) ? [{ project: path }] : []),
    name: () => "error tracking",
    setting: true,
    // Off is what a project reads as once error tracking was turned off (the resource's delete leaves it so).
    forgeOwn: async (inputs) => (inputs["active"] === false ? "error tracking off, as on a project that never had it" : undefined),
  }),
};

/** This file's declarations, as the generated registry (provider/resources/index.ts) lists them. */
export const registered = { errorTrackingSettings };
