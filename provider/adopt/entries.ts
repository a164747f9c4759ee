/**
 * What `forge-adopt` knows of each resource: where its objects are and what to call them, one
 * entry per key of `declarations`, or an exemption with its reason. Each entry lives beside its
 * declaration (the `adopt` export of its file in provider/resources/); the generated registry
 * gathers them. `test/unit/adopt-coverage.test.ts` fails for a declaration that has neither.
 *
 * An entry is small because the rest comes from the declaration: each object found is read by its
 * import id through the declaration's read (as the `import` option does), its inputs are what that
 * read gives, trimmed to the input schema, without the values a dropped input resets to.
 */
export { adoptEntries } from "../resources";
