import { z } from "zod";
import { projectRef } from "../fields";
import { defineLookup } from "./lookup";
import { routes } from "../../api/routes";

const userIds = z.array(z.number().int().positive());

export const projectMemberLookups = [
  defineLookup({
    name: "listProjectMembers",
    summary:
      'The members of a project: its direct members, or with `all: true` everyone with access, each once at the highest level they hold through the project, its groups and invited groups, queued promotions included (`membershipState: "awaiting"`).',
    route: routes.projectMembers.list,
    routeBy: { arg: "all", routes: { true: routes.projectMembers.listAll } },
    args: z
      .object({
        /** The project: id or full path. */
        project: projectRef,
        /** Everyone with access, at their effective levels (`GET /projects/:project/members/all`), rather than the direct members only. */
        all: z.boolean().optional(),
        /** Only members whose name, e-mail or username contains this. */
        query: z.string().optional(),
        /** Only these users (ids). */
        userIds: userIds.optional(),
        /** Leave these users out (ids; direct members only). */
        skipUsers: userIds.optional(),
        /** `awaiting` or `active` (with `all: true`; Premium and Ultimate). */
        state: z.enum(["awaiting", "active"]).optional(),
        /** Add `isUsingSeat` to each member. */
        showSeatInfo: z.boolean().optional(),
      })
      .refine((args) => !(args.all === true && args.skipUsers !== undefined), {
        error: "skipUsers applies to the direct members only: drop it, or all",
        path: ["skipUsers"],
      })
      .refine((args) => args.all === true || args.state === undefined, {
        error: "state filters the listing of all members: set all: true",
        path: ["state"],
      }),
    many: true,
  }),
] as const;
