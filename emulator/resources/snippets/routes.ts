import { created, noContent, ok, paged, routesOf } from "../../core/routes";
import type { Snippets } from "./model";

const route = routesOf<Snippets>();
const SNIPPET = "/snippets/:snippetId";

/**
 * Personal snippets: the three listings (own, public without a token, all), read, raw content of
 * the first file and of one file at a ref (`:filePath` URL-encoded, `/` as `%2F`), create,
 * update with per-file actions, delete.
 */
export const snippetRoutes = [
  route("GET", "/snippets", (r, snippets) => paged(snippets.own(r.actor, r.input))),
  route("GET", "/snippets/public", (r, snippets) => paged(snippets.public(r.input))),
  route("GET", "/snippets/all", (r, snippets) => paged(snippets.all(r.actor, r.input))),
  route("GET", SNIPPET, (r, snippets) => ok(snippets.get(r.actor, r.params.snippetId))),
  route("GET", `${SNIPPET}/raw`, (r, snippets) => ok(snippets.raw(r.actor, r.params.snippetId))),
  route("GET", `${SNIPPET}/files/:ref/:filePath/raw`, (r, snippets) =>
    ok(snippets.fileRaw(r.actor, r.params.snippetId, r.params.ref, r.params.filePath)),
  ),
  route("POST", "/snippets", (r, snippets) => created(snippets.create(r.actor, r.input))),
  route("PUT", SNIPPET, (r, snippets) => ok(snippets.update(r.actor, r.params.snippetId, r.input))),
  route("DELETE", SNIPPET, (r, snippets) => {
    snippets.delete(r.actor, r.params.snippetId);
    return noContent();
  }),
];
