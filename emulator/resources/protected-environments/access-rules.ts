import { z } from "zod";
import { DEPLOY_ACCESS_LEVELS } from "../../../api";
import { parameterError, recordNotFound } from "../../core/errors";
import { paramBoolean, paramInteger, paramIntegerOf, paramName, withoutUnacceptedNulls } from "../../core/validation";

/*
 * The nested elements of protected environments: deploy access levels and approval rules.
 * Each element names exactly one entity (a user, a group or an access level); updates follow
 * nested-attribute rules (id → change, no id → create, id + _destroy → delete).
 */

const ACCESS_LEVEL_DESCRIPTIONS: Record<number, string> = {
  30: "Developers + Maintainers",
  40: "Maintainers",
  60: "Administrators",
};

/** The entity keys an element must name exactly one of (in the service's order). */
const ENTITY_KEYS = ["access_level", "group_id", "user_id"] as const;

/** A stored element; approval rules also carry `required_approvals`. */
export interface AccessRuleRecord {
  id: number;
  user_id: number | null;
  group_id: number | null;
  access_level: number | null;
  group_inheritance_type: 0 | 1;
  required_approvals?: number;
}

/** Whether the elements belong to a project's or a group's protected environment. */
export type ElementLevel = "project" | "group";

/**
 * One element's fields; `group_inheritance_type` only at project level (the protected environments' rule on inheritance). At
 * group level it is not a parameter: the service drops it, and so does the emulator (the request
 * log names it among the ignored parameters).
 */
function accessRuleFields(level: ElementLevel) {
  return z.object({
    id: paramInteger().optional(),
    user_id: paramInteger().optional(),
    group_id: paramInteger().optional(),
    access_level: paramIntegerOf(DEPLOY_ACCESS_LEVELS).optional(),
    ...(level === "project" ? { group_inheritance_type: paramIntegerOf([0, 1]).optional() } : {}),
    required_approvals: paramInteger().optional(),
    _destroy: paramBoolean().optional(),
  });
}

/** A validated element of a request. */
type AccessRuleInput = z.output<ReturnType<typeof accessRuleFields>>;

/**
 * Array parameter of elements at a level; form encoding may deliver it as an object keyed by
 * index, and null fields count as absent (clients echo `user_id: null` from reads).
 */
export function accessRuleListParams(level: ElementLevel) {
  const fields = accessRuleFields(level);
  const element = z.preprocess((value) => withoutUnacceptedNulls(fields, value), fields);
  return z.preprocess(
    (value) => (value !== null && typeof value === "object" && !Array.isArray(value) ? Object.values(value) : value),
    z.array(element, {
      error: (issue) => (issue.input === undefined ? "is missing" : "is invalid"),
    }),
  );
}

/**
 * Checks the exactly-one rule. On update, elements that carry an `id` may name no entity (they
 * change only other fields or are destroyed) but never more than one; on create an `id` changes
 * nothing, so every element must name its entity.
 */
export function checkEntityKeys(listName: string, elements: AccessRuleInput[], operation: "create" | "update"): void {
  const messages: string[] = [];
  elements.forEach((element, index) => {
    const names = (keys: readonly string[]) => keys.map((k) => paramName([listName, index, k])).join(", ");
    const present = ENTITY_KEYS.filter((key) => element[key] !== undefined);
    if (present.length > 1) messages.push(`${names(present)} are mutually exclusive`);
    const changesExisting = operation === "update" && element.id !== undefined;
    if (present.length === 0 && !changesExisting) {
      messages.push(`${names(ENTITY_KEYS)} are missing, exactly one parameter must be provided`);
    }
  });
  if (messages.length > 0) throw parameterError(messages);
}

/**
 * Applies nested-attribute changes to `current` and returns the new list (current is not
 * modified). An unknown element id is `404 Not found`, as for any record lookup.
 */
export function applyElementChanges(
  current: readonly AccessRuleRecord[],
  changes: readonly AccessRuleInput[],
  nextId: () => number,
  isApprovalRule: boolean,
): AccessRuleRecord[] {
  let result = current.map((element) => ({ ...element }));
  for (const change of changes) {
    if (change.id === undefined) {
      result.push(newElement(change, nextId(), isApprovalRule));
      continue;
    }
    const existing = result.find((element) => element.id === change.id);
    if (!existing) throw recordNotFound();
    if (change._destroy) {
      result = result.filter((element) => element !== existing);
      continue;
    }
    if (ENTITY_KEYS.some((key) => change[key] !== undefined)) {
      existing.user_id = change.user_id ?? null;
      existing.group_id = change.group_id ?? null;
      existing.access_level = change.access_level ?? null;
    }
    if (change.group_inheritance_type !== undefined) {
      existing.group_inheritance_type = change.group_inheritance_type as 0 | 1;
    }
    if (isApprovalRule && change.required_approvals !== undefined) {
      existing.required_approvals = change.required_approvals;
    }
  }
  return result;
}

/** Builds the elements of a create request (no ids, no _destroy). */
export function createElements(inputs: readonly AccessRuleInput[], nextId: () => number, isApprovalRule: boolean): AccessRuleRecord[] {
  return inputs.map((input) => newElement(input, nextId(), isApprovalRule));
}

function newElement(input: AccessRuleInput, id: number, isApprovalRule: boolean): AccessRuleRecord {
  const element: AccessRuleRecord = {
    id,
    user_id: input.user_id ?? null,
    group_id: input.group_id ?? null,
    access_level: input.access_level ?? null,
    group_inheritance_type: (input.group_inheritance_type ?? 0) as 0 | 1,
  };
  if (isApprovalRule) element.required_approvals = input.required_approvals ?? 1;
  return element;
}

/**
 * `access_level_description`: the role's description for an access level, otherwise the name
 * of the user or group the element names.
 */
export function describeElement(
  element: AccessRuleRecord,
  nameOf: { user(id: number): string | undefined; group(id: number): string | undefined },
): string {
  if (element.user_id !== null) return nameOf.user(element.user_id) ?? "";
  if (element.group_id !== null) return nameOf.group(element.group_id) ?? "";
  return ACCESS_LEVEL_DESCRIPTIONS[element.access_level ?? 0] ?? "";
}
