import { z } from "zod";
import { serverId } from "../fields";
import { defineLookup } from "./lookup";
import { routes } from "../../api/routes";

/*
 * Reads of repository storage moves (administrators, self-managed). The spec shows only the
 * bulk POST and `GET /projects?repository_storage=`; the moves listings and single reads are
 * the real service's, which RepositoryStorageMove reads too. Listings come newest first.
 */

const noArgs = z.object({});
const oneMove = z.object({
  /** The move's id (one repository's move; a bulk move makes one per repository). */
  moveId: serverId,
});

export const storageMoveLookups = [
  defineLookup({
    name: "listProjectsOnStorage",
    summary: "The projects whose repositories are on a storage (administrators): what a move from it has left to do.",
    route: routes.projects.list,
    args: z.object({
      /** The storage's name, such as `default`. */
      repositoryStorage: z.string().min(1),
    }),
    many: true,
  }),
  defineLookup({
    name: "listProjectRepositoryStorageMoves",
    summary:
      "Every project repository move (`state`, `source_storage_name`, `destination_storage_name`, `error_message`, `project`), newest first.",
    route: routes.repositoryStorageMoves.project.list,
    args: noArgs,
    many: true,
  }),
  defineLookup({
    name: "getProjectRepositoryStorageMove",
    summary: "One project repository move, by id.",
    route: routes.repositoryStorageMoves.project.get,
    args: oneMove,
    many: false,
  }),
  defineLookup({
    name: "listSnippetRepositoryStorageMoves",
    summary: "Every snippet repository move, newest first.",
    route: routes.repositoryStorageMoves.snippet.list,
    args: noArgs,
    many: true,
  }),
  defineLookup({
    name: "getSnippetRepositoryStorageMove",
    summary: "One snippet repository move, by id.",
    route: routes.repositoryStorageMoves.snippet.get,
    args: oneMove,
    many: false,
  }),
  defineLookup({
    name: "listGroupRepositoryStorageMoves",
    summary: "Every group wiki repository move, newest first (Premium or Ultimate).",
    route: routes.repositoryStorageMoves.group.list,
    args: noArgs,
    many: true,
  }),
  defineLookup({
    name: "getGroupRepositoryStorageMove",
    summary: "One group wiki repository move, by id (Premium or Ultimate).",
    route: routes.repositoryStorageMoves.group.get,
    args: oneMove,
    many: false,
  }),
] as const;
