import { defineResource } from "../../core/resource";
import { Snippets, type SnippetRecord } from "./model";
import { snippetRoutes } from "./routes";

/** Personal snippets with their files (a small repository per snippet). */
export const snippets = defineResource({
  name: "snippets",
  collections: { snippets: [] as SnippetRecord[] },
  model: (core, collections) => new Snippets(core, collections.snippets),
  routes: snippetRoutes,
});
