import { z } from "zod";
import { AccessLevel, DEPLOYMENT_TIERS } from "../../../api";
import type { Collection } from "../../core/collection";
import type { Core } from "../../core/core";
import { ApiError, conflict, recordNotFound, unprocessable } from "../../core/errors";
import type { Actor, GroupRecord, ProjectRecord } from "../../core/records";
import { paramEnum, paramInteger, paramString, validate } from "../../core/validation";
import {
  type AccessRuleRecord,
  accessRuleListParams,
  applyElementChanges,
  checkEntityKeys,
  createElements,
  describeElement,
} from "./access-rules";

/**
 * Managing protected environments needs Maintainer, at project and at group level (the spec
 * names no role for the operations themselves; Maintainer is what the service asks).
 */
const PROTECTED_ENVIRONMENT_LEVEL = AccessLevel.Maintainer;

/** Whether a protected environment belongs to a project or to a group. */
export type ProtectionScope = "project" | "group";

/** A stored protected environment with its nested elements. */
export interface ProtectedEnvironmentRecord {
  id: number;
  scope: ProtectionScope;
  /** Project id or group id, depending on `scope`. */
  owner_id: number;
  name: string;
  required_approval_count: number;
  deploy_access_levels: AccessRuleRecord[];
  approval_rules: AccessRuleRecord[];
}

/**
 * Request bodies. The spec lists `required_approval_count` only for the group-level PUT, but it
 * is a field of every protected environment, and the service takes it at either level on create
 * and update (its newer releases declare it there; older ones drop it rather than refuse the
 * request): the emulator takes it everywhere.
 */
const createParams = (level: ProtectionScope) =>
  z.object({
    name: level === "group" ? paramEnum(DEPLOYMENT_TIERS) : paramString(),
    deploy_access_levels: accessRuleListParams(level),
    approval_rules: accessRuleListParams(level).optional(),
    required_approval_count: paramInteger().optional(),
  });
const updateParams = (level: ProtectionScope) =>
  z.object({
    deploy_access_levels: accessRuleListParams(level).optional(),
    approval_rules: accessRuleListParams(level).optional(),
    required_approval_count: paramInteger().optional(),
  });
const PARAMS = {
  create: { project: createParams("project"), group: createParams("group") },
  update: { project: updateParams("project"), group: updateParams("group") },
};

/** A model error of a record: its field (update answers) and its full message (create answers). */
interface RecordProblem {
  field: string;
  label: string;
  message: string;
}

type Params = Record<string, unknown>;
type Owner = { scope: "project"; project: ProjectRecord } | { scope: "group"; group: GroupRecord };

/** Protected environments of projects (free-text names) and groups (tiers). */
export class ProtectedEnvironments {
  constructor(
    private readonly core: Core,
    private readonly environments: Collection<ProtectedEnvironmentRecord>,
  ) {}

  list(actor: Actor, scope: ProtectionScope, ownerRef: string): Record<string, unknown>[] {
    const owner = this.requireOwner(actor, scope, ownerRef);
    return this.recordsOf(owner).map((record) => this.serialize(record, "full"));
  }

  get(actor: Actor, scope: ProtectionScope, ownerRef: string, name: string): Record<string, unknown> {
    return this.serialize(this.find(this.requireOwner(actor, scope, ownerRef), name), "full");
  }

  /**
   * Protects `name`. At project level no environment needs to exist yet: the service lets a
   * name be protected before its first deployment, so the emulator has no environment model.
   */
  create(actor: Actor, scope: ProtectionScope, ownerRef: string, params: Params): Record<string, unknown> {
    const owner = this.requireOwner(actor, scope, ownerRef);
    const input = validate(PARAMS.create[scope], params);
    checkEntityKeys("deploy_access_levels", input.deploy_access_levels, "create");
    checkEntityKeys("approval_rules", input.approval_rules ?? [], "create");
    if (!input.name.trim()) throw unprocessable(["Name can't be blank"]);
    if (this.recordsOf(owner).some((record) => record.name === input.name)) {
      throw conflict(`Protected environment '${input.name}' already exists`);
    }
    const record: ProtectedEnvironmentRecord = {
      id: this.core.nextId("protected_environment"),
      scope,
      owner_id: owner.scope === "project" ? owner.project.id : owner.group.id,
      name: input.name,
      required_approval_count: input.required_approval_count ?? 0,
      deploy_access_levels: createElements(input.deploy_access_levels, this.idSource("deploy_access_level"), false),
      approval_rules: createElements(input.approval_rules ?? [], this.idSource("approval_rule"), true),
    };
    const problems = this.recordProblems(owner, record);
    if (problems.length > 0) throw unprocessable(problems.map((p) => `${p.label} ${p.message}`));
    this.environments.insert(record);
    return this.serialize(record, "full");
  }

  /** Nested-attribute update; the answer's shape follows the protected environments' rule 5. */
  update(actor: Actor, scope: ProtectionScope, ownerRef: string, name: string, params: Params): Record<string, unknown> {
    const owner = this.requireOwner(actor, scope, ownerRef);
    const record = this.find(owner, name);
    const input = validate(PARAMS.update[scope], params);
    checkEntityKeys("deploy_access_levels", input.deploy_access_levels ?? [], "update");
    checkEntityKeys("approval_rules", input.approval_rules ?? [], "update");
    const next: ProtectedEnvironmentRecord = {
      ...record,
      required_approval_count: input.required_approval_count ?? record.required_approval_count,
      deploy_access_levels: applyElementChanges(
        record.deploy_access_levels,
        input.deploy_access_levels ?? [],
        this.idSource("deploy_access_level"),
        false,
      ),
      approval_rules: applyElementChanges(record.approval_rules, input.approval_rules ?? [], this.idSource("approval_rule"), true),
    };
    const problems = this.recordProblems(owner, next);
    if (problems.length > 0) {
      const byField: Record<string, string[]> = {};
      for (const p of problems) (byField[p.field] ??= []).push(p.message);
      throw new ApiError(400, { message: byField });
    }
    Object.assign(record, next);
    const touchesDeploy = input.deploy_access_levels !== undefined || input.required_approval_count !== undefined;
    const touchesApprovals = input.approval_rules !== undefined;
    const shape = touchesDeploy === touchesApprovals ? "full" : touchesDeploy ? "deploy" : "approvals";
    return this.serialize(record, shape, { updateResponse: true });
  }

  delete(actor: Actor, scope: ProtectionScope, ownerRef: string, name: string): void {
    const record = this.find(this.requireOwner(actor, scope, ownerRef), name);
    this.environments.remove(record);
  }

  private requireOwner(actor: Actor, scope: ProtectionScope, ref: string): Owner {
    const permissions = this.core.permissions;
    return scope === "project"
      ? { scope, project: permissions.requireProject(actor, ref, PROTECTED_ENVIRONMENT_LEVEL) }
      : { scope, group: permissions.requireGroup(actor, ref, PROTECTED_ENVIRONMENT_LEVEL) };
  }

  private recordsOf(owner: Owner): ProtectedEnvironmentRecord[] {
    const ownerId = owner.scope === "project" ? owner.project.id : owner.group.id;
    return this.environments.list((r) => r.scope === owner.scope && r.owner_id === ownerId);
  }

  private find(owner: Owner, name: string): ProtectedEnvironmentRecord {
    const record = this.recordsOf(owner).find((r) => r.name === name);
    if (!record) throw recordNotFound();
    return record;
  }

  private idSource(kind: string): () => number {
    return () => this.core.nextId(kind);
  }

  /**
   * The model's rules on a record as it would be saved: at least one deploy access level, a
   * required_approval_count of 0 or more, required_approvals above 0 (the service's model
   * validations, which the spec leaves out), and the protected environments' rule 3 for each element.
   */
  private recordProblems(owner: Owner, record: ProtectedEnvironmentRecord): RecordProblem[] {
    const problems: RecordProblem[] = [];
    if (record.deploy_access_levels.length === 0) {
      problems.push({ field: "deploy_access_levels", label: "Deploy access levels", message: "is too short (minimum is 1 character)" });
    }
    if (record.required_approval_count < 0) {
      problems.push({ field: "required_approval_count", label: "Required approval count", message: "must be greater than or equal to 0" });
    }
    if (record.approval_rules.some((rule) => (rule.required_approvals ?? 1) <= 0)) {
      problems.push({
        field: "approval_rules.required_approvals",
        label: "Approval rules required approvals",
        message: "must be greater than 0",
      });
    }
    return [...problems, ...this.assignabilityProblems(owner, record)];
  }

  /**
   * The protected environments' rule 3. Group level: users must be members of the group with Maintainer or
   * above, groups must be subgroups. Project level: users must have access to the project,
   * groups must have the project shared with them.
   */
  private assignabilityProblems(owner: Owner, record: ProtectedEnvironmentRecord): RecordProblem[] {
    const problems: RecordProblem[] = [];
    const lists = [
      { field: "deploy_access_levels", label: "Deploy access levels", elements: record.deploy_access_levels },
      { field: "approval_rules", label: "Approval rules", elements: record.approval_rules },
    ];
    for (const { field, label, elements } of lists) {
      for (const element of elements) {
        const message = this.elementProblem(owner, element);
        if (message) problems.push({ field, label, message });
      }
    }
    return problems;
  }

  private elementProblem(owner: Owner, element: AccessRuleRecord): string | undefined {
    const { permissions, groups, users } = this.core;
    if (element.user_id !== null) {
      const user = users.byId(element.user_id);
      if (owner.scope === "group") {
        const ok = user && permissions.groupMemberLevel(user.id, owner.group) >= AccessLevel.Maintainer;
        return ok ? undefined : `user ${element.user_id} must be a member of the group with the Maintainer role or above`;
      }
      // Minimal access grants no access to the project's content: Guest is the lowest that counts.
      const ok = user && permissions.projectMemberLevel(user.id, owner.project) >= AccessLevel.Guest;
      return ok ? undefined : `user ${element.user_id} must have access to the project`;
    }
    if (element.group_id !== null) {
      const groupId = element.group_id;
      if (owner.scope === "group") {
        const ok = groups.descendants(owner.group).some((g) => g.id === groupId);
        return ok ? undefined : `group ${groupId} must be a subgroup of the group`;
      }
      const ok = owner.project.shared_with_groups.some((share) => share.group_id === groupId);
      return ok ? undefined : `group ${groupId} must have the project shared with it`;
    }
    return undefined;
  }

  private serialize(
    record: ProtectedEnvironmentRecord,
    shape: "full" | "deploy" | "approvals",
    options: { updateResponse?: boolean } = {},
  ): Record<string, unknown> {
    // group_inheritance_type shows at project level, and at group level only in update answers.
    const withInheritance = record.scope === "project" || options.updateResponse === true;
    const nameOf = {
      user: (id: number) => this.core.users.byId(id)?.name,
      group: (id: number) => this.core.groups.byId(id)?.name,
    };
    const deploy = record.deploy_access_levels.map((e) => ({
      id: e.id,
      // The API types a deploy access level's level as an integer: the service reports the
      // Maintainer level for a user's or a group's entry (approval rules may carry null).
      access_level: e.access_level ?? (e.user_id != null || e.group_id != null ? AccessLevel.Maintainer : null),
      access_level_description: describeElement(e, nameOf),
      user_id: e.user_id,
      group_id: e.group_id,
      ...(withInheritance ? { group_inheritance_type: e.group_inheritance_type } : {}),
    }));
    const approvals = record.approval_rules.map((e) => ({
      id: e.id,
      user_id: e.user_id,
      group_id: e.group_id,
      access_level: e.access_level,
      access_level_description: describeElement(e, nameOf),
      required_approvals: e.required_approvals ?? 1,
      group_inheritance_type: e.group_inheritance_type,
    }));
    if (shape === "approvals") return { name: record.name, approval_rules: approvals };
    const deployShape = {
      name: record.name,
      deploy_access_levels: deploy,
      required_approval_count: record.required_approval_count,
    };
    return shape === "deploy" ? deployShape : { ...deployShape, approval_rules: approvals };
  }
}
