import { z } from "zod";
import { projectRef } from "../fields";
import { defineLookup } from "./lookup";
import { routes } from "../../api/routes";

const ofProject = z.object({
  /** The project whose allowlist is read: its id or full path. */
  project: projectRef,
});

export const jobTokenScopeLookups = [
  defineLookup({
    name: "listJobTokenScopeProjectAllowlist",
    summary: "The projects on a project's CI/CD job token allowlist (the project itself, always allowed, is not listed).",
    route: routes.jobTokenScopeProjectAllowlist.list,
    args: ofProject,
    many: true,
  }),
  defineLookup({
    name: "listJobTokenScopeGroupAllowlist",
    summary: "The groups on a project's CI/CD job token allowlist.",
    route: routes.jobTokenScopeGroupAllowlist.list,
    args: ofProject,
    many: true,
  }),
] as const;
