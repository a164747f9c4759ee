/**
 * Keys for what declarations say identifies an object or a parent, as the policy pack reads a
 * program: projects and groups match however they are spelled (id, path, encoded path), names
 * as the forge stores them (trimmed, and lower-cased where the forge ignores case). A value not
 * known at preview is stood for by the one resource it comes from, when there is one.
 */
import type { AnyDeclaration } from "../../provider/engine/declaration";
import { normalizers } from "../../provider/fields";
import type { StackResource } from "./define";
import { isKnown, refKey } from "./values";

export interface FieldKey {
  key: string;
  /** How messages name the value when it is not known yet: `the agentId from ClusterAgent "edge"`. */
  standIn?: string;
}

/** The key of one field of a resource, or undefined when neither its value nor its source is known. */
export function fieldKey(declaration: AnyDeclaration, member: StackResource, field: string, ignoreCase = false): FieldKey | undefined {
  const value = member.props[field];
  if (value !== undefined && isKnown(value)) {
    if (declaration.normalize?.[field] === normalizers.ref) return { key: refKey(value) };
    const text = typeof value === "string" ? value.trim() : JSON.stringify(value);
    return { key: ignoreCase ? text.toLowerCase() : text };
  }
  const sources = member.resource.propertyDependencies?.[field] ?? [];
  const [source] = sources;
  if (sources.length !== 1 || !source) return undefined;
  return { key: `urn:${source.urn}`, standIn: `the ${field} from ${source.type.split(":").pop()} "${source.name}"` };
}

/** Resources ordered by name: the engine hands them over in no fixed order, and messages must not vary. */
export function byName(resources: StackResource[]): StackResource[] {
  return [...resources].sort((a, b) => a.resource.name.localeCompare(b.resource.name) || a.resource.urn.localeCompare(b.resource.urn));
}
