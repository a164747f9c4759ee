/**
 * The emulator seen through its API (as the seed's administrator): what the e2e tests change
 * behind Pulumi's back, what they assert on, and whether a stack's objects are still there.
 */
import { isNotFound, type ForgeClient } from "../../provider/client";
import { dynamicFaceOf } from "../../provider/runtime";
import { fixtures } from "../contract/fixtures";
import type { World } from "../contract/world";
import type { StateResource } from "./harness";

export type Rec = Record<string, unknown>;

export class ForgeApi {
  constructor(readonly client: ForgeClient) {}

  /** The record at `path`, or undefined when the forge answers 404. */
  async get<T = Rec>(path: string, params: Rec = {}): Promise<T | undefined> {
    try {
      return (await this.client.request<T>("GET", path, params)).body;
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  async send(method: "POST" | "PUT" | "PATCH" | "DELETE", path: string, params: Rec = {}): Promise<Rec> {
    return (await this.client.request<Rec>(method, path, params)).body;
  }

  list(path: string, params: Rec = {}): Promise<Rec[]> {
    return this.client.list<Rec>(path, params);
  }

  labels(group: string): Promise<Rec[]> {
    return this.list("/groups/:group/labels", { group, include_ancestor_groups: false });
  }
  async tokenNames(project: string, agentId: unknown): Promise<string[]> {
    return (await this.list("/projects/:project/cluster_agents/:agentId/tokens", { project, agentId }))
      .map((t) => t["name"] as string)
      .sort();
  }
  async urlConfigurations(project: string, agentId: unknown): Promise<Rec[]> {
    return (await this.get<Rec[]>("/projects/:project/cluster_agents/:agentId/url_configurations", { project, agentId })) ?? [];
  }
  async scopeEnabled(project: string): Promise<boolean> {
    return (await this.get("/projects/:project/job_token_scope", { project }))?.["inbound_enabled"] === true;
  }
}

/**
 * The names (sorted) of a state's resources whose object the forge still holds, found with the
 * engine's generic read of their declaration; a setting (its fixture's `setting`) counts until
 * it has the value found before it was managed back. Objects delete only forgets (`forgotten`)
 * are left out: the forge keeps them whatever the stack does.
 */
export async function leftInForge(world: World, resources: StateResource[]): Promise<string[]> {
  const left: string[] = [];
  for (const resource of resources) {
    const fixture = fixtures.find((candidate) => candidate.declaration.name === resource.type);
    // Deleting one only forgets it: the forge keeps it whatever the stack does.
    if (fixture?.forgotten) continue;
    const setting = fixture?.setting;
    const present = setting
      ? await setting.restored(world, resource.outputs).then(
          () => false,
          () => true,
        )
      : (await dynamicFaceOf(resource.type).read(resource.id, resource.outputs)).id !== "";
    if (present) left.push(resource.name);
  }
  return left.sort();
}
