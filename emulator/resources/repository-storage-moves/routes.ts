import { STORAGE_MOVE_KINDS } from "../../../api";
import { routes } from "../../../api/routes";
import { ok, paged, routesOf, type Route } from "../../core/routes";
import { type MoveKind, type RepositoryStorageMoves } from "./model";

const route = routesOf<RepositoryStorageMoves>();

/**
 * Per kind: the bulk POST (`POST /<kind>_repository_storage_moves`, 202 `{"message":"202 Accepted"}`, api-semantics.md),
 * and the service's reads of moves the spec does not show (a listing, newest first, and one move).
 */
function kindRoutes(kind: MoveKind): Route<RepositoryStorageMoves>[] {
  const moves = routes.repositoryStorageMoves[kind];
  return [
    route(moves.schedule, (r, model) => {
      model.scheduleAll(r.actor, kind, r.input);
      return { status: 202, body: { message: "202 Accepted" } };
    }),
    route(moves.list, (r, model) => paged(model.list(r.actor, kind))),
    route(moves.get, (r, model) => ok(model.get(r.actor, kind, r.params.moveId))),
  ];
}

export const storageMoveRoutes = STORAGE_MOVE_KINDS.flatMap(kindRoutes);
