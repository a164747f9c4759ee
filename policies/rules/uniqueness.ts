/**
 * One object per identity: the forge holds one label of a name in a group, one agent of a name in
 * a project, one setting of a kind per project... Two resources of a program that name the same
 * object would fail at the second create (after the first one is made), or, for settings, fight
 * over one value on every `up`. The schema sees one resource at a time; this sees the program.
 * What identifies an object is each declaration's `identity`.
 */
import { hasIdentity, type AnyDeclaration, type Identity } from "../../provider/engine/declaration";
import { declarations } from "../../provider/resources";
import { stackPolicy, type StackResource } from "../lib/define";
import { byName, fieldKey } from "../lib/identity";

/** The declarations judged here: those with an identity, except where a limit of one per the
 *  same fields says it in its own words (one cleanup policy per group). */
const identified = (Object.values(declarations) as AnyDeclaration[]).filter((declaration) => {
  const identity = declaration.identity;
  if (!hasIdentity(identity)) return false;
  const sameFields = (per: string[]) => per.length === identity.fields.length && per.every((field) => identity.fields.includes(field));
  return !(declaration.limits ?? []).some((limit) => limit.max === 1 && !limit.counts && sameFields(limit.per));
});

export const oneResourcePerObject = stackPolicy({
  name: "one-resource-per-object",
  description:
    "Two resources of a program do not name the same object of the forge (a label's name in a group, an agent's name in a project, a project's setting, a group's integration of a slug...).",
  enforcementLevel: "mandatory",
  resources: identified,
  check({ resources, report }) {
    const byObject = new Map<string, { identity: Identity; members: StackResource[] }>();
    for (const member of byName(resources)) {
      const declaration = identified.find((candidate) => member.resource.type.endsWith(`:${candidate.name}`))!;
      const identity = declaration.identity as Identity;
      // Only known values are judged (at preview, or not given: not judged).
      const keys = identity.fields.map((field) => {
        const value = member.props[field];
        return value === undefined ? undefined : fieldKey(declaration, member, field, identity.ignoreCase?.includes(field));
      });
      if (!keys.every((key) => key !== undefined && key.standIn === undefined)) continue;
      const key = `${declaration.name}|${keys.map((entry) => entry!.key).join("|")}`;
      const entry = byObject.get(key) ?? { identity, members: [] };
      entry.members.push(member);
      byObject.set(key, entry);
    }
    for (const { identity, members } of byObject.values()) {
      const [first, ...extra] = members;
      for (const member of extra) {
        report(
          `${member.subject} declares ${identity.describe(member.props)}, which ${first!.subject} already declares; the forge holds one. ` +
            `Keep one of the two resources.`,
          member.resource.urn,
        );
      }
    }
  },
});
