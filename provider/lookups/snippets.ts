import { z } from "zod";
import { datetime, serverId } from "../fields";
import { defineLookup } from "./lookup";
import { routes } from "../../api/routes";

export const snippetLookups = [
  defineLookup({
    name: "listSnippets",
    summary:
      'Snippets: the caller\'s own (default), `scope: "public"` every public one, or `scope: "all"` every one the caller can see (administrators: all, with `repositoryStorage`); newest first.',
    route: routes.snippets.list,
    routeBy: { arg: "scope", routes: { own: routes.snippets.list, public: routes.snippets.listPublic, all: routes.snippets.listAll } },
    args: z
      .object({
        /** `own` (default, `GET /snippets`), `public` (`GET /snippets/public`, works without a token) or `all` (`GET /snippets/all`). */
        scope: z.enum(["own", "public", "all"]).optional(),
        /** Only snippets created after this instant (ISO 8601). */
        createdAfter: datetime.optional(),
        /** Only snippets created before this instant (ISO 8601). */
        createdBefore: datetime.optional(),
        /** Only snippets on this repository storage (`scope: "all"`, administrators). */
        repositoryStorage: z.string().min(1).optional(),
      })
      .refine((args) => args.repositoryStorage === undefined || args.scope === "all", {
        error: 'repositoryStorage filters scope "all" only',
        path: ["repositoryStorage"],
      }),
    many: true,
  }),
  defineLookup({
    name: "getSnippetRaw",
    summary: "The raw content of a snippet's first file, as text.",
    route: routes.snippets.raw,
    args: z.object({
      /** The snippet's id. */
      snippetId: serverId,
    }),
    many: false,
    raw: true,
  }),
  defineLookup({
    name: "getSnippetFileRaw",
    summary: "The raw content of one file of a snippet at a branch, tag or commit, as text. Paths with `/` are sent URL-encoded.",
    route: routes.snippets.fileRaw,
    args: z.object({
      /** The snippet's id. */
      snippetId: serverId,
      /** The file's path in the snippet, such as `config/app.yaml`. */
      filePath: z.string().min(1),
      /** A branch, tag or commit: `main` is the branch a snippet's files are written to. */
      ref: z.string().min(1),
    }),
    many: false,
    raw: true,
  }),
] as const;
