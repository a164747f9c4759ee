import { STORAGE_MOVE_KINDS } from "../../../spec";
import { AVAILABILITY } from "../../../spec/editions";
import { gated, ok, paged, routesOf, type Route } from "../../core/routes";
import { type MoveKind, type RepositoryStorageMoves } from "./model";

const route = routesOf<RepositoryStorageMoves>();

/** Group moves need Premium; project and snippet moves exist in every tier (Document 1). */
const availabilityOf = (kind: MoveKind) => (kind === "group" ? AVAILABILITY.groupStorageMoves : AVAILABILITY.projectStorageMoves);

/**
 * Per kind: the bulk POST of Document 2 (202 `{"message":"202 Accepted"}`, api-semantics.md),
 * and the service's reads of moves the spec does not show (a listing, newest first, and one move).
 */
function kindRoutes(kind: MoveKind): Route<RepositoryStorageMoves>[] {
  const moves = `/${kind}_repository_storage_moves`;
  return [
    route("POST", moves, (r, model) => {
      model.scheduleAll(r.actor, kind, r.input);
      return { status: 202, body: { message: "202 Accepted" } };
    }),
    route("GET", moves, (r, model) => paged(model.list(r.actor, kind))),
    route("GET", `${moves}/:moveId`, (r, model) => ok(model.get(r.actor, kind, r.params.moveId))),
  ].map((entry) => gated(availabilityOf(kind), entry));
}

export const storageMoveRoutes = STORAGE_MOVE_KINDS.flatMap(kindRoutes);
