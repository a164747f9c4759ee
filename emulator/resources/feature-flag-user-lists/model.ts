import { z } from "zod";
import { AccessLevel } from "../../../api";
import type { Collection } from "../../core/collection";
import type { Core } from "../../core/core";
import { ApiError, recordNotFound } from "../../core/errors";
import type { Actor } from "../../core/records";
import { paramString } from "../../core/validation";

/** Feature flag user lists need Developer, for reads and writes alike (the API's roles). */
const USER_LIST_LEVEL = AccessLevel.Developer;

/** A stored user list. `iid` numbers the lists of one project; paths use it, not `id`. */
export interface UserListRecord {
  id: number;
  iid: number;
  project_id: number;
  name: string;
  user_xids: string;
  created_at: string;
  updated_at: string;
}

interface ProjectPath {
  project: string;
}

const createParams = z.object({ name: paramString(), user_xids: paramString() });
const updateParams = z.object({ name: paramString().optional(), user_xids: paramString().optional() });
const listParams = z.object({ search: paramString().optional() });

/**
 * This endpoint reports everything under `message`, parameter errors included
 * (api-semantics.md: `{"message":"name is missing"}`, `{"message":["Name has already been taken"]}`).
 */
function parse<S extends z.ZodType>(schema: S, input: Record<string, unknown>): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const messages = result.error.issues.map((issue) => `${issue.path.join(".")} ${issue.message}`.trim());
  throw new ApiError(400, { message: [...new Set(messages)].join(", ") });
}

/**
 * The stored form of external user ids: trimmed, blanks dropped, order kept (the service keeps
 * the list as given). A list with no id is refused.
 */
function normaliseUserXids(text: string): string {
  const ids = text
    .split(",")
    .map((id) => id.trim())
    .filter((id) => id !== "");
  if (ids.length === 0) throw new ApiError(400, { message: ["User xids can't be blank"] });
  return ids.join(",");
}

/** Feature flag user lists of a project, addressed by iid. */
export class FeatureFlagUserLists {
  constructor(
    private readonly core: Core,
    private readonly lists: Collection<UserListRecord>,
  ) {}

  list(actor: Actor, path: ProjectPath, input: Record<string, unknown>): Record<string, unknown>[] {
    const project = this.core.permissions.requireProject(actor, path.project, USER_LIST_LEVEL);
    const search = parse(listParams, input).search?.toLowerCase();
    return this.lists
      .list((list) => list.project_id === project.id && (!search || list.name.toLowerCase().includes(search)))
      .map(serialize);
  }

  get(actor: Actor, path: ProjectPath, iid: string): Record<string, unknown> {
    return serialize(this.require(actor, path, iid));
  }

  create(actor: Actor, path: ProjectPath, input: Record<string, unknown>): Record<string, unknown> {
    const project = this.core.permissions.requireProject(actor, path.project, USER_LIST_LEVEL);
    const { name, user_xids } = parse(createParams, input);
    this.checkName(project.id, name);
    const now = this.core.clock.iso();
    const iid = Math.max(0, ...this.lists.list((list) => list.project_id === project.id).map((list) => list.iid)) + 1;
    const record: UserListRecord = {
      id: this.core.nextId("feature_flag_user_list"),
      iid,
      project_id: project.id,
      name: name.trim(),
      user_xids: normaliseUserXids(user_xids),
      created_at: now,
      updated_at: now,
    };
    return serialize(this.lists.insert(record));
  }

  update(actor: Actor, path: ProjectPath, iid: string, input: Record<string, unknown>): Record<string, unknown> {
    const record = this.require(actor, path, iid);
    const { name, user_xids } = parse(updateParams, input);
    if (name !== undefined) {
      this.checkName(record.project_id, name, record.id);
      record.name = name.trim();
    }
    if (user_xids !== undefined) record.user_xids = normaliseUserXids(user_xids);
    record.updated_at = this.core.clock.iso();
    return serialize(record);
  }

  delete(actor: Actor, path: ProjectPath, iid: string): void {
    this.lists.remove(this.require(actor, path, iid));
  }

  /** `:iid` is the list's internal id, as an integer or a string of digits; an `id` finds nothing. */
  private require(actor: Actor, path: ProjectPath, iid: string): UserListRecord {
    const project = this.core.permissions.requireProject(actor, path.project, USER_LIST_LEVEL);
    const record = this.lists.find((list) => list.project_id === project.id && String(list.iid) === iid.trim());
    if (!record) throw recordNotFound();
    return record;
  }

  private checkName(projectId: number, name: string, except?: number): void {
    if (name.trim() === "") throw new ApiError(400, { message: ["Name can't be blank"] });
    const taken = this.lists.find((list) => list.project_id === projectId && list.name === name.trim() && list.id !== except);
    if (taken) throw new ApiError(400, { message: ["Name has already been taken"] });
  }
}

function serialize(record: UserListRecord): Record<string, unknown> {
  return { ...record };
}
