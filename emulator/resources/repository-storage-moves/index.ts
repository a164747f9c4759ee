import { defineResource } from "../../core/resource";
import { RepositoryStorageMoves, type StorageMoveRecord } from "./model";
import { storageMoveRoutes } from "./routes";

/** Repository storage moves of projects, snippets and groups (administrators, self-managed). */
export const repositoryStorageMoves = defineResource({
  name: "repositoryStorageMoves",
  collections: { repositoryStorageMoves: [] as StorageMoveRecord[] },
  model: (core, collections) => new RepositoryStorageMoves(core, collections.repositoryStorageMoves),
  routes: storageMoveRoutes,
});
