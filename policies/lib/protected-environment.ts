/**
 * The entry rules shared by project- and group-level protected environments (spec document 2,
 * "Protected environments", rule 2): each deploy access level and approval rule names exactly
 * one of a user, a group or a role; roles are 30, 40 or 60; group inheritance is 0 or 1.
 */
import { DEPLOY_ACCESS_LEVELS } from "../../spec";
import { isKnown, isUnknown, orList, show, type Bag } from "./values";

const GRANTEES = ["userId", "groupId", "accessLevel"] as const;
const INHERITANCE_TYPES = [0, 1] as const;

export interface EntryListRule {
  field: "deployAccessLevels" | "approvalRules";
  /** The API needs at least one entry (deploy access levels). */
  required: boolean;
  /** Whether entries may carry groupInheritanceType (not group-level deploy access levels). */
  inheritance: boolean;
}

/** Input paths these checks report in their own words (see ResourceRules.covers). */
export function coveredPaths(field: EntryListRule["field"]): string[] {
  return [field, `${field}[]`, `${field}[].accessLevel`, `${field}[].groupInheritanceType`];
}

export function checkEntries(inputs: Bag, rule: EntryListRule, subject: string, report: (message: string) => void): void {
  const { field } = rule;
  const list = inputs[field];
  if (list === undefined || list === null || isUnknown(list)) {
    if (rule.required && (list === undefined || list === null)) {
      report(`${subject} has no ${field}. Give at least one entry saying who may deploy, such as { accessLevel: 40 }.`);
    }
    return;
  }
  if (!Array.isArray(list)) {
    report(`${subject} has ${field} ${show(list)}, which is not a list. Give a list of entries such as [{ accessLevel: 40 }].`);
    return;
  }
  if (rule.required && list.length === 0) {
    report(`${subject} has an empty ${field} list. Give at least one entry saying who may deploy, such as { accessLevel: 40 }.`);
  }
  list.forEach((entry: unknown, index) => {
    const where = `${subject}: ${field}[${index}]`;
    if (isUnknown(entry)) return;
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
      report(`${where} is ${show(entry)}, not an entry. Write it as an object with one of userId, groupId or accessLevel.`);
      return;
    }
    const bag = entry as Bag;
    const given = GRANTEES.filter((key) => bag[key] !== undefined && bag[key] !== null);
    if (given.length === 0) {
      report(`${where} names nobody. Give exactly one of userId, groupId or accessLevel.`);
    } else if (given.length > 1) {
      report(`${where} names ${orList(given).replace(/ or ([^ ]+)$/, " and $1")} at once. Give exactly one of userId, groupId or accessLevel, and split the others into entries of their own.`);
    }
    const level = bag["accessLevel"];
    if (isKnown(level) && !(DEPLOY_ACCESS_LEVELS as readonly unknown[]).includes(level)) {
      report(`${where} has accessLevel ${show(level)}, which protected environments do not accept. Use ${orList(DEPLOY_ACCESS_LEVELS)} (30 Developer, 40 Maintainer, 60 Administrator).`);
    }
    const inheritance = bag["groupInheritanceType"];
    if (isKnown(inheritance)) {
      if (!rule.inheritance) {
        report(`${where} has groupInheritanceType, which group-level deploy access levels do not take (only project-level ones and approval rules). Remove it.`);
      } else if (!(INHERITANCE_TYPES as readonly unknown[]).includes(inheritance)) {
        report(`${where} has groupInheritanceType ${show(inheritance)}. Use 0 (direct members of the group only) or 1 (members of inherited groups too).`);
      }
    }
  });
}

/** True when the list holds at least one known entry. */
export function hasEntries(value: unknown): boolean {
  return Array.isArray(value) && value.length > 0;
}
