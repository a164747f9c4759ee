import { z } from "zod";
import type { AnyDeclaration, State } from "./declaration";

const SEPARATOR = ":";

/**
 * A part as it stands in an id: `%` and `:` percent-encoded, so that any value the API accepts
 * (a scoped label title `team::backend`, an environment name with `:`) survives the round trip.
 * Every other character stays as it is, so ids read as the values they hold.
 */
function escapePart(value: string): string {
  return value.replace(/%/g, "%25").replace(/:/g, "%3A");
}

function unescapePart(part: string): string {
  return part.replace(/%3A/gi, ":").replace(/%25/g, "%");
}

/** The Pulumi id (and import id) of a resource: its id parts joined with `:`. */
export function formatId(declaration: AnyDeclaration, state: State): string {
  return declaration.idParts
    .map((part) => {
      const value = state[part];
      if (value === undefined || value === null || value === "") {
        throw new Error(`${declaration.name}: cannot form the id, field "${part}" is empty`);
      }
      return escapePart(String(value));
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
 *
 * Ids written before parts were escaped may hold a bare `:` in their last part
 * (`acme:team::backend`); the extra pieces belong to that part.
 */
export function parseId(declaration: AnyDeclaration, id: string): State {
  const expected = declaration.idParts.length;
  const pieces = id.split(SEPARATOR);
  const parts = pieces.length > expected ? [...pieces.slice(0, expected - 1), pieces.slice(expected - 1).join(SEPARATOR)] : pieces;
  if (parts.length !== expected || parts.some((part) => part === "")) {
    throw new Error(
      `${declaration.name}: id "${id}" does not have the form ${idFormat(declaration)} (write a ':' or '%' inside a part as %3A or %25)`,
    );
  }
  const state: State = {};
  declaration.idParts.forEach((field, index) => {
    const raw = unescapePart(parts[index] as string);
    state[field] = /^\d+$/.test(raw) && acceptsNumber(declaration, field) ? Number(raw) : raw;
    // A part the declaration fixes (an integration's slug): an id naming another object of the
    // kind is refused rather than read as this one.
    const fixed = declaration.outputs.shape[field];
    if (fixed instanceof z.ZodLiteral && !fixed.safeParse(state[field]).success) {
      throw new Error(
        `${declaration.name} manages the object whose ${field} is ${JSON.stringify(fixed.value)}; the id names ${JSON.stringify(state[field])}: use the resource of that ${field}`,
      );
    }
  });
  return state;
}

function acceptsNumber(declaration: AnyDeclaration, field: string): boolean {
  const schema = declaration.inputs.shape[field] ?? declaration.outputs.shape[field];
  return schema === undefined || schema.safeParse(1).success;
}
