/**
 * The declaration vocabulary as the declarations use it: for every option, at every depth (a
 * route's options, the identity's, a limit's, a collection's, the hooks, a field's metadata), the
 * declarations that set it. What docs/architecture.md's vocabulary table is checked against.
 */
import type { z } from "zod";
import { fieldMeta, type AnyDeclaration } from "../../provider/engine/declaration";

/** Option path (`create.readBack`, `identity.takesOver`, `inputs.*.meta.file`) → declaration names using it. */
export function vocabularyUse(declarations: readonly AnyDeclaration[]): Map<string, string[]> {
  const use = new Map<string, Set<string>>();
  const add = (path: string, name: string) => use.set(path, (use.get(path) ?? new Set()).add(name));
  for (const declaration of declarations) {
    const record = declaration as unknown as Record<string, unknown>;
    // A rotating declaration repeats its credential's options (its create, identity, limits): counted once, there.
    const credential = declaration.rotation?.of as unknown as Record<string, unknown> | undefined;
    for (const [key, value] of Object.entries(record)) {
      if (value === undefined || (credential && credential[key] === value)) continue;
      add(key, declaration.name);
      // A bare route (an entry of api/routes.ts) has no options; a route with options has `route`.
      if (["create", "read", "update", "delete"].includes(key) && typeof value === "object" && value !== null && !("method" in value)) {
        for (const option of Object.keys(value))
          if (option !== "route") add(`${key === "read" && "list" in value ? "read(list)" : "route"}.${option}`, declaration.name);
      }
      if (key === "identity" && typeof value === "object" && value !== null) {
        for (const option of Object.keys(value)) add(`identity.${option}`, declaration.name);
        const search = (value as { search?: object }).search;
        if (search) for (const option of Object.keys(search)) add(`identity.search.${option}`, declaration.name);
      }
      if (key === "limits" && Array.isArray(value))
        for (const limit of value) for (const option of Object.keys(limit as object)) add(`limits.${option}`, declaration.name);
      if (key === "collections" && typeof value === "object" && value !== null)
        for (const collection of Object.values(value))
          for (const option of Object.keys(collection as object)) add(`collections.${option}`, declaration.name);
      if (key === "hooks" && typeof value === "object" && value !== null)
        for (const hook of Object.keys(value)) add(`hooks.${hook}`, declaration.name);
      if (key === "errorHints" && Array.isArray(value))
        for (const hint of value) for (const option of Object.keys(hint as object)) add(`errorHints.${option}`, declaration.name);
    }
    for (const side of ["inputs", "outputs"] as const) {
      for (const schema of Object.values(declaration[side].shape as Record<string, z.ZodType>)) {
        for (
          let current: z.ZodType | undefined = schema;
          current;
          current = (current as { _zod?: { def?: { innerType?: z.ZodType } } })._zod?.def?.innerType
        ) {
          const meta = fieldMeta.get(current);
          if (meta) for (const option of Object.keys(meta)) add(`${side}.*.meta.${option}`, declaration.name);
        }
      }
    }
  }
  return new Map([...use].sort(([a], [b]) => a.localeCompare(b)).map(([path, names]) => [path, [...names].sort()]));
}
