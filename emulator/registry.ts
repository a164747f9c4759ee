import { Core } from "./core/core";
import { collectionViews, type ResourceDescriptor } from "./core/resource";
import { endpointName, type Endpoint } from "../api/routes";
import type { Route, RouteAnswer, RouteRequest } from "./core/routes";
import { type StateData, emptyState as emptyCoreState, parseState as parseCoreState } from "./core/state";
import { access } from "./resources/access";
import { agentTokens } from "./resources/agent-tokens";
import { broadcastMessages } from "./resources/broadcast-messages";
import { cleanupPolicies } from "./resources/cleanup-policies";
import { clusterAgents } from "./resources/cluster-agents";
import { errorTracking } from "./resources/error-tracking";
import { featureFlagUserLists } from "./resources/feature-flag-user-lists";
import { features } from "./resources/features";
import { groupManagement } from "./resources/groups";
import { groupTokens } from "./resources/group-tokens";
import { geoSites } from "./resources/geo-sites";
import { instanceClusters } from "./resources/instance-clusters";
import { integrations } from "./resources/integrations";
import { jobTokenScope } from "./resources/job-token-scope";
import { labels } from "./resources/labels";
import { projectMembers } from "./resources/project-members";
import { protectedEnvironments } from "./resources/protected-environments";
import { repositoryStorageMoves } from "./resources/repository-storage-moves";
import { snippets } from "./resources/snippets";
import { urlConfigurations } from "./resources/url-configurations";
import { outsideSpec } from "./outside-spec";

/*
 * The only list of the emulator's resources. Adding one is a folder under resources/ and a
 * line here; the state, the store and the route table below are derived from this list.
 */
const RESOURCES = [
  access,
  labels,
  broadcastMessages,
  clusterAgents,
  agentTokens,
  urlConfigurations,
  jobTokenScope,
  protectedEnvironments,
  featureFlagUserLists,
  cleanupPolicies,
  errorTracking,
  repositoryStorageMoves,
  instanceClusters,
  features,
  groupManagement,
  groupTokens,
  integrations,
  projectMembers,
  snippets,
  geoSites,
] as const;

type Resource = (typeof RESOURCES)[number];
// Any descriptor, whatever its model: used where the list is walked without the types.
type SomeResource = ResourceDescriptor<string, Record<string, unknown[]>, unknown>;

type UnionToIntersection<U> = (U extends unknown ? (value: U) => void : never) extends (value: infer I) => void ? I : never;

/** Every resource's collections (and outside-spec/'s), as one object type. */
type ResourceCollections = UnionToIntersection<Resource["collections"]> & (typeof outsideSpec)["collections"];

/** The whole state of the emulated instance (the state file's content). */
export type EmulatorState = StateData<ResourceCollections>;

/**
 * The emulated instance without HTTP: core (state, ids, access) plus one model per resource, and
 * the model of the service's endpoints outside the spec.
 */
export type Store = Core & { [R in Resource as R["name"]]: ReturnType<R["model"]> } & {
  [outsideSpec.name]: ReturnType<typeof outsideSpec.model>;
};

/** A route of the table, bound to the store rather than to one model, with what the spec's
 *  route table (api/routes.ts) says of its endpoint. */
export interface StoreRoute extends Pick<Endpoint, "method" | "path" | "anonymous" | "availability" | "base" | "outsideSpec"> {
  /** The entry's name in the table (`groupLabels.create`): the request log names it. */
  name: string;
  handler(request: RouteRequest, store: Store): RouteAnswer;
}

const resources: readonly SomeResource[] = RESOURCES as readonly SomeResource[];

/** Fresh empty collections of every resource. */
function allCollections(): ResourceCollections {
  return Object.assign(
    {},
    ...resources.map((resource) => structuredClone(resource.collections)),
    structuredClone(outsideSpec.collections),
  ) as ResourceCollections;
}

/** A state with nothing in it. */
export function emptyState(): EmulatorState {
  return emptyCoreState(allCollections());
}

/** Parses a persisted state, filling collections added since it was written. */
export function parseState(text: string): EmulatorState {
  return parseCoreState(text, allCollections());
}

/** Builds the store over `state`: core first, then each resource's model over its collections. */
export function createStore(state: EmulatorState = emptyState()): Store {
  const core = new Core(state);
  for (const resource of resources) {
    if (resource.name in core) throw new Error(`resource name ${resource.name} is taken`);
    const model = resource.model(core, collectionViews(core, resource.collections));
    Object.assign(core, { [resource.name]: model });
  }
  const store = core as Store;
  Object.assign(core, { [outsideSpec.name]: outsideSpec.model(core, store.groupManagement) });
  return store;
}

/**
 * Every API route the emulator serves (paths relative to /api/v4, or to the entry's `base`), each
 * handed its own model: the resources' and outside-spec/'s.
 * A route is an entry of the spec's table, whose edition gates and anonymous reads it takes: the
 * emulator serves nothing the API does not have.
 */
export function routeTable(): StoreRoute[] {
  const owners: { name: string; routes: readonly Route<unknown>[] }[] = [
    ...resources,
    outsideSpec as { name: string; routes: readonly Route<unknown>[] },
  ];
  return owners.flatMap((owner) =>
    owner.routes.map(({ endpoint, handler }) => {
      const name = endpointName(endpoint);
      if (name === undefined) throw new Error(`emulator route ${String(endpoint)} (${owner.name}) is not an entry of api/routes.ts`);
      if (owner.name === outsideSpec.name && endpoint.outsideSpec === undefined) {
        throw new Error(`emulator route ${String(endpoint)} is the spec's: outside-spec/ serves only the service's endpoints outside it`);
      }
      return {
        name,
        method: endpoint.method,
        path: endpoint.path,
        ...(endpoint.base ? { base: endpoint.base } : {}),
        ...(endpoint.outsideSpec ? { outsideSpec: endpoint.outsideSpec } : {}),
        ...(endpoint.availability ? { availability: endpoint.availability } : {}),
        ...(endpoint.anonymous ? { anonymous: true as const } : {}),
        handler: (request: RouteRequest, store: Store) => handler(request, (store as unknown as Record<string, unknown>)[owner.name]),
      };
    }),
  );
}
