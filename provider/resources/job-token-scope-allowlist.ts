import { z } from "zod";
import { defineResource } from "../engine/declaration";
import { normalizers, projectRef, serverId } from "./common";

/** Lets another project's CI/CD job tokens reach this project. */
export const jobTokenScopeProjectAllowlistEntry = defineResource({
  name: "JobTokenScopeProjectAllowlistEntry",
  summary: "Adds a project to a project's CI/CD job token allowlist.",
  inputs: z.object({
    /** The project whose allowlist this is: id or full path. */
    project: projectRef,
    /** The id of the project allowed in. */
    targetProjectId: serverId,
  }),
  outputs: z.object({
    /** The allowed project's full path. */
    targetPathWithNamespace: z.string(),
    /** The allowed project's web address. */
    targetWebUrl: z.string(),
  }),
  idParts: ["project", "targetProjectId"],
  create: "POST /projects/:project/job_token_scope/allowlist",
  // The API has no single-entry read: the entry is found in the (paginated) allowlist.
  read: { list: "GET /projects/:project/job_token_scope/allowlist", where: (record, state) => record["id"] === state["targetProjectId"] },
  delete: "DELETE /projects/:project/job_token_scope/allowlist/:targetProjectId",
  readBack: true,
  replaceOn: "all",
  normalize: { project: normalizers.ref },
  hooks: {
    project: (record) => ({ targetPathWithNamespace: record["path_with_namespace"], targetWebUrl: record["web_url"] }),
  },
});

/** Lets the CI/CD job tokens of a group's projects reach this project. */
export const jobTokenScopeGroupAllowlistEntry = defineResource({
  name: "JobTokenScopeGroupAllowlistEntry",
  summary: "Adds a group to a project's CI/CD job token allowlist.",
  inputs: z.object({
    /** The project whose allowlist this is: id or full path. */
    project: projectRef,
    /** The id of the group allowed in. */
    targetGroupId: serverId,
  }),
  outputs: z.object({
    /** The allowed group's name. */
    targetName: z.string(),
    /** The allowed group's web address. */
    targetWebUrl: z.string(),
  }),
  idParts: ["project", "targetGroupId"],
  create: "POST /projects/:project/job_token_scope/groups_allowlist",
  read: { list: "GET /projects/:project/job_token_scope/groups_allowlist", where: (record, state) => record["id"] === state["targetGroupId"] },
  delete: "DELETE /projects/:project/job_token_scope/groups_allowlist/:targetGroupId",
  readBack: true,
  replaceOn: "all",
  normalize: { project: normalizers.ref },
  hooks: {
    project: (record) => ({ targetName: record["name"], targetWebUrl: record["web_url"] }),
  },
});
