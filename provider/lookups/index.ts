/** The lookups: their functions (exported under their names by `npm run generate`) and registry. */
export * from "../generated/lookups";
export { lookupDeclarations } from "./registry";
export type { ForgeFile, ForgeRecord, Lookup, LookupDeclaration, LookupResult } from "./lookup";
