import { routes } from "../../../api/routes";
import { created, noContent, ok, paged, routesOf } from "../../core/routes";
import type { Snippets } from "./model";

const route = routesOf<Snippets>();

/**
 * Personal snippets: the three listings (own, public without a token, all), read, raw content of
 * the first file and of one file at a ref (`:filePath` URL-encoded, `/` as `%2F`), create,
 * update with per-file actions, delete.
 */
export const snippetRoutes = [
  route(routes.snippets.list, (r, snippets) => paged(snippets.own(r.actor, r.input))),
  route(routes.snippets.listPublic, (r, snippets) => paged(snippets.public(r.input))),
  route(routes.snippets.listAll, (r, snippets) => paged(snippets.all(r.actor, r.input))),
  route(routes.snippets.get, (r, snippets) => ok(snippets.get(r.actor, r.params.snippetId))),
  route(routes.snippets.raw, (r, snippets) => ok(snippets.raw(r.actor, r.params.snippetId))),
  route(routes.snippets.fileRaw, (r, snippets) => ok(snippets.fileRaw(r.actor, r.params.snippetId, r.params.ref, r.params.filePath))),
  route(routes.snippets.create, (r, snippets) => created(snippets.create(r.actor, r.input))),
  route(routes.snippets.update, (r, snippets) => ok(snippets.update(r.actor, r.params.snippetId, r.input))),
  route(routes.snippets.delete, (r, snippets) => {
    snippets.delete(r.actor, r.params.snippetId);
    return noContent();
  }),
];
