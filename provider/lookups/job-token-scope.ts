import { z } from "zod";
import { projectRef } from "../resources/common";
import { defineLookup } from "./lookup";

const ofProject = z.object({
  /** The project whose allowlist is read: its id or full path. */
  project: projectRef,
});

export const jobTokenScopeLookups = [
  defineLookup({
    name: "listJobTokenScopeProjectAllowlist",
    summary: "The projects on a project's CI/CD job token allowlist (the project itself, always allowed, is not listed).",
    route: "GET /projects/:project/job_token_scope/allowlist",
    args: ofProject,
    many: true,
  }),
  defineLookup({
    name: "listJobTokenScopeGroupAllowlist",
    summary: "The groups on a project's CI/CD job token allowlist.",
    route: "GET /projects/:project/job_token_scope/groups_allowlist",
    args: ofProject,
    many: true,
  }),
] as const;
