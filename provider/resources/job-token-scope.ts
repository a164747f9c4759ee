import { z } from "zod";
import { defineResource } from "../engine/declaration";
import { normalizers, projectRef, show } from "../fields";
import { defineAdopt, type AdoptEntries } from "../adopt-entry/entry";
import { routes } from "../../api/routes";

/**
 * Whether other projects' CI/CD job tokens need to be on this project's allowlist to reach it.
 * A setting of an existing project: creating it sets the value, deleting it restores the value
 * found before.
 */
export const jobTokenScope = defineResource({
  name: "JobTokenScope",
  summary: "Turns the CI/CD job token allowlist of a project on or off.",
  inputs: z.object({
    /** The project: id or full path. */
    project: projectRef,
    /** true: only allowlisted projects and groups get in; false: every project does (refused when the instance enforces allowlists). */
    enabled: z.boolean(),
  }),
  outputs: z.object({
    /** The forge's inbound setting (may be true by instance-wide enforcement). */
    inboundEnabled: z.boolean(),
    /** Whether this project's job tokens can reach other projects (deprecated, removal planned in release 18.0). */
    outboundEnabled: z.boolean(),
  }),
  idParts: ["project"],
  setting: true,
  create: routes.jobTokenScope.update,
  read: routes.jobTokenScope.get,
  // The PATCH answers 204: the setting is read back.
  update: { route: routes.jobTokenScope.update, readBack: true },
  identity: { fields: ["project"], describe: (state) => `the job token scope of project ${show(state["project"])}` },
  readNames: { enabled: "inbound_enabled" },
  replaceOn: ["project"],
  normalize: { project: normalizers.ref },
  errorHints: [
    {
      status: 400,
      when: (state) => state["enabled"] === false,
      hint: "the instance enforces job token allowlists, so enabled=false is refused: keep enabled=true or ask an administrator to lift the enforcement",
    },
  ],
  notes: [
    "A setting of an existing project: deleting the resource restores the value found when it was created (kept in state as `restore`).",
  ],
});

/** What forge-adopt finds of this file's resources (provider/adopt): where their objects are, what to call them. */
export const adopt: AdoptEntries = {
  jobTokenScope: defineAdopt({
    scope: "project",
    // Every project has one: its setting is what the project shows today.
    find: async ({ path }) => [{ project: path }],
    name: () => "job token scope",
    setting: true,
    // A new project's allowlist is off (every project's job tokens get in).
    forgeOwn: async (inputs) => (inputs["enabled"] === false ? "the allowlist off, as the forge makes a new project" : undefined),
  }),
};

/** This file's declarations, as the generated registry (provider/resources/index.ts) lists them. */
export const registered = { jobTokenScope };
