/**
 * The forge's limits on how many objects of a kind one parent holds (two active tokens per agent,
 * one URL configuration per agent, one cleanup policy per group, one primary Geo site), which no
 * single resource's schema can see: one policy per `limits` entry of the declarations, named as
 * the entry says. The numbers come from `api/`.
 */
import type { AnyDeclaration, ParentLimit } from "../../provider/engine/declaration";
import { ROTATION_HOLDS } from "../../provider/engine/rotation";
import { declarations } from "../../provider/resources";
import { stackPolicy, type StackResource } from "../lib/define";
import { byName, fieldKey } from "../lib/identity";
import type { StackValidationPolicy } from "@pulumi/policy";

/**
 * One limit's policy, over every declaration that has it: a kind and its rotating kind (which
 * holds two of the kind's objects at once, so counts twice) share a parent's limit.
 */
function limitPolicy(limit: ParentLimit, kinds: AnyDeclaration[]): StackValidationPolicy {
  return stackPolicy({
    name: limit.policy,
    description: `${limit.scope.charAt(0).toUpperCase()}${limit.scope.slice(1)} has at most ${limit.max === 1 ? `one ${limit.what.one}` : `${limit.max} ${limit.what.many}`}.`,
    enforcementLevel: "mandatory",
    resources: kinds,
    check({ resources, report }) {
      const groups = new Map<string, { standIn?: string; members: StackResource[] }>();
      for (const member of byName(resources)) {
        if (limit.counts && !limit.counts(member.props)) continue;
        const keys = limit.per.map((field) => fieldKey(member.declaration, member, field));
        // A parent that is neither known nor traceable to one resource: not judged.
        if (!keys.every((key) => key !== undefined)) continue;
        const standIn = keys.find((key) => key?.standIn)?.standIn;
        const key = keys.map((entry) => entry!.key).join("|");
        const group = groups.get(key) ?? { ...(standIn ? { standIn } : {}), members: [] };
        // A rotating resource holds two objects of the kind at once, between its rotations.
        for (let held = member.declaration.rotation ? ROTATION_HOLDS : 1; held > 0; held--) group.members.push(member);
        groups.set(key, group);
      }
      for (const { standIn, members } of groups.values()) {
        const over = members.slice(limit.max);
        over.forEach((member, index) => {
          if (over.indexOf(member) !== index) return;
          // What stays within the limit, less the member itself (a rotating one's first token).
          const kept = [
            ...new Set(
              members
                .slice(0, limit.max)
                .filter((other) => other !== member)
                .map((other) => other.subject),
            ),
          ].join(" and ");
          const holds = member.declaration.rotation ? ` (it holds ${ROTATION_HOLDS}: current and previous)` : "";
          report(
            `${member.subject}${holds} would be number ${limit.max + index + 1} of the ${limit.what.many} of ${standIn ?? limit.parent(member.props)}, besides ${kept}; the forge allows at most ${limit.max}. ${limit.advice}`,
            member.resource.urn,
          );
        });
      }
    },
  });
}

/** Every limit of the declarations, as one policy each (by its name). */
export const limitPolicies: StackValidationPolicy[] = (() => {
  const byPolicy = new Map<string, { limit: ParentLimit; kinds: AnyDeclaration[] }>();
  for (const declaration of Object.values(declarations) as AnyDeclaration[]) {
    for (const limit of declaration.limits ?? []) {
      const entry = byPolicy.get(limit.policy) ?? { limit, kinds: [] };
      entry.kinds.push(declaration);
      byPolicy.set(limit.policy, entry);
    }
  }
  return [...byPolicy.values()].map(({ limit, kinds }) => limitPolicy(limit, kinds));
})();

/** The policy of a limit by its name (`cluster-agent-token-limit`). */
export function limitPolicyNamed(name: string): StackValidationPolicy {
  const policy = limitPolicies.find((candidate) => candidate.name === name);
  if (!policy) throw new Error(`no limit policy named ${name}`);
  return policy;
}
