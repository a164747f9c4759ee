import type { AnyDeclaration, State } from "./declaration";

const SEPARATOR = ":";

/** The Pulumi id (and import id) of a resource: its id parts joined with `:`. */
export function formatId(declaration: AnyDeclaration, state: State): string {
  return declaration.idParts
    .map((part) => {
      const value = state[part];
      if (value === undefined || value === null || value === "") {
        throw new Error(`${declaration.name}: cannot form the id, field "${part}" is empty`);
      }
      return String(value);
    })
    .join(SEPARATOR);
}

/** The import id format of a declaration, for docs and error messages, e.g. `<group>:<labelId>`. */
export function idFormat(declaration: AnyDeclaration): string {
  return declaration.idParts.map((part) => `<${part}>`).join(SEPARATOR);
}

/**
 * Splits an id into its state fields. A part that is all digits becomes a number when the
 * field's schema accepts one, so that `42:7` matches a program that says `group: 42`.
 */
export function parseId(declaration: AnyDeclaration, id: string): State {
  const parts = id.split(SEPARATOR);
  if (parts.length !== declaration.idParts.length || parts.some((part) => part === "")) {
    throw new Error(`${declaration.name}: id "${id}" does not have the form ${idFormat(declaration)}`);
  }
  const state: State = {};
  declaration.idParts.forEach((field, index) => {
    const raw = parts[index] as string;
    state[field] = /^\d+$/.test(raw) && acceptsNumber(declaration, field) ? Number(raw) : raw;
  });
  return state;
}

function acceptsNumber(declaration: AnyDeclaration, field: string): boolean {
  const schema = declaration.inputs.shape[field] ?? declaration.outputs.shape[field];
  return schema === undefined || schema.safeParse(1).success;
}
