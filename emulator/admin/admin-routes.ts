import type { IncomingHttpHeaders } from "node:http";
import { z } from "zod";
import type { EmulatorContext } from "../context";
import { OFFERINGS, TIERS } from "../../api/editions";
import { ApiError, forbidden, routeNotFound, thingNotFound } from "../core/errors";
import { VISIBILITIES, type UserRecord } from "../core/records";
import { paramBoolean, paramEnum, paramInteger, paramString, validate } from "../core/validation";
import type { Store } from "../registry";
import { headerToken } from "../http/auth";
import type { ApiResponse } from "../http/types";
import { NAMESPACE_PATH } from "../../api/names";
import { checkNamespacePath, makeGroup as makeGroupIn, makeProject as makeProjectIn, refuseProjectClashes } from "../core/lifecycle";
import { projectSettingsOf, writeProjectSettings } from "../core/project-settings";
import { seedInfo, seedState } from "./seed";

/** Path prefix of the admin endpoints (outside /api/v4; an administrator's token, same site only). */
export const ADMIN_PREFIX = "/__emulator";

const ADMIN_ONLY = "the emulator's admin endpoints take an administrator's token (PRIVATE-TOKEN header)";

/**
 * Who may call the admin endpoints, checked before the request's body is read: only requests for
 * the emulator itself (a `Host` that is not one of its own names is 403: a DNS-rebinding page
 * sends its own host name there), from no other site (an `Origin` not one of its own, or a
 * browser's `Sec-Fetch-Site: cross-site`, is 403: a web page must not reset or seed a developer's
 * emulator), with an active administrator's token in a header (401 without a known token, 403
 * for another user). A token in the query is not taken: it would ride on a link and stay in logs.
 * `own` comes from the socket the server was reached on and its base URL, never from the request.
 */
export function authorizeAdminRequest(
  context: EmulatorContext,
  headers: IncomingHttpHeaders,
  own: { origins: readonly string[]; hosts: readonly string[] },
): void {
  const host = headers.host?.toLowerCase();
  if (host !== undefined && !own.hosts.includes(host)) {
    throw forbidden("the emulator's admin endpoints answer only requests for the emulator's own address");
  }
  const origin = headers.origin?.toLowerCase();
  if (headers["sec-fetch-site"] === "cross-site" || (origin !== undefined && !own.origins.includes(origin))) {
    throw forbidden("the emulator's admin endpoints refuse cross-site requests");
  }
  const token = headerToken(headers);
  const user = token === undefined ? undefined : context.store.users.byToken(token);
  if (!user) throw new ApiError(401, { message: `401 Unauthorized - ${ADMIN_ONLY}` });
  if (!user.admin) throw forbidden(ADMIN_ONLY);
}

const settingsParams = z.object({
  job_token_scope_enforced: paramBoolean().optional(),
  member_promotion_management: paramBoolean().optional(),
  labels_archive: paramBoolean().optional(),
  storage_move_ms: paramInteger()
    .pipe(z.number().min(0, { error: "does not have a valid value" }))
    .optional(),
  storage_move_error: paramString().optional(),
  tier: paramEnum(TIERS).optional(),
  offering: paramEnum(OFFERINGS).optional(),
  version: paramString()
    .pipe(z.string().regex(/^\d+\.\d+\.\d+$/, { error: "is invalid" }))
    .optional(),
});
const date = paramString()
  .pipe(z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: "is invalid" }))
  .nullable();
/** Out-of-band changes of a project: a new path (the old one redirects), a visibility, and the
 *  state the listings filter on (archived, topics, features, who starred it). */
const projectChangeParams = z.object({
  path: paramString().optional(),
  visibility: paramEnum(VISIBILITIES).optional(),
  archived: paramBoolean().optional(),
  marked_for_deletion_on: date.optional(),
  topics: z.array(paramString()).optional(),
  issues_enabled: paramBoolean().optional(),
  merge_requests_enabled: paramBoolean().optional(),
  starred_by: z.array(paramInteger()).optional(),
});
/** Out-of-band changes of a group: a visibility (public groups are readable anonymously), the
 *  state `GET /groups` filters on, and custom attributes. */
const groupChangeParams = z.object({
  visibility: paramEnum(VISIBILITIES).optional(),
  archived: paramBoolean().optional(),
  marked_for_deletion_on: date.optional(),
  repository_storage: paramString().optional(),
  custom_attributes: z.array(z.object({ key: paramString(), value: paramString() })).optional(),
});
/** `POST /__emulator/groups`: a group made as a person makes one in the UI (the spec has no create). */
const newGroupParams = z.object({
  path: paramString().pipe(z.string().regex(NAMESPACE_PATH, { error: "is invalid" })),
  name: paramString().optional(),
  parent: z.union([paramInteger(), paramString()]).optional(),
  creator: z.union([paramInteger(), paramString()]).optional(),
});
/** `POST /__emulator/projects`: a project made as a person makes one in the UI. */
const newProjectParams = z.object({
  path: paramString().pipe(z.string().regex(NAMESPACE_PATH, { error: "is invalid" })),
  namespace: z.union([paramInteger(), paramString()]),
  name: paramString().optional(),
  creator: z.union([paramInteger(), paramString()]).optional(),
});
const requestsQuery = z.object({ since: paramInteger().optional() });

/** `POST /__emulator/clock`: how far to move the forge's clock on. */
const clockParams = z.object({ advance_ms: paramInteger().pipe(z.number().min(0, { error: "does not have a valid value" })) });

/** The forge's time, and how far ahead of the machine's it runs. */
function clockInfo(clock: Store["clock"]): { now: string; offset_ms: number } {
  return { now: clock.iso(), offset_ms: clock.offset };
}
/** `PUT /__emulator/rate-limit`: a limit of 0 turns it off. */
const rateLimitParams = z.object({
  limit: paramInteger().pipe(z.number().min(0, { error: "does not have a valid value" })),
  window_s: paramInteger()
    .pipe(z.number().min(1, { error: "does not have a valid value" }))
    .optional(),
});

/**
 * Serves the admin endpoints of docs/contracts.md: seed, reset, request log, faults, settings,
 * and out-of-band changes of projects and groups.
 * `subpath` is the path after the prefix, without slashes at either end.
 */
export function handleAdminRequest(
  context: EmulatorContext,
  method: string,
  subpath: string,
  query: Record<string, unknown>,
  body: Record<string, unknown>,
): ApiResponse {
  const { store, log, faults } = context;
  const [kind, ref, ...rest] = subpath.split("/");
  if (method === "PUT" && ref !== undefined && rest.length === 0 && (kind === "projects" || kind === "groups")) {
    const changed = kind === "projects" ? changeProject(store, decode(ref), body) : changeGroup(store, decode(ref), body);
    context.persist();
    return { status: 200, body: changed };
  }
  // An administrator's decision on a promotion rule 4 queued: `POST member_approvals/<project id>/<user id>/approve|reject`.
  if (method === "POST" && kind === "member_approvals" && rest.length === 2 && (rest[1] === "approve" || rest[1] === "reject")) {
    const [projectId, userId] = [Number(ref), Number(rest[0])];
    const decided =
      rest[1] === "approve" ? store.projectMembers.approve(projectId, userId) : store.projectMembers.reject(projectId, userId);
    if (!decided) throw thingNotFound("Member approval");
    context.persist();
    return { status: 204 };
  }
  if (method === "DELETE" && kind === "faults" && ref !== undefined && rest.length === 0) {
    faults.release(Number(ref));
    return { status: 204 };
  }
  switch (`${method} ${subpath}`) {
    case "GET seed":
      return { status: 200, body: seedInfo(store) };
    case "POST reset":
      // Back to the seed: state, ids, settings, faults, rate limit and the request log. The state
      // first: when it cannot be written it is put back and nothing else is cleared.
      store.replaceState(seedState());
      Object.assign(store.state.settings, context.startSettings);
      context.persist();
      faults.clear();
      store.clock.reset();
      log.clear();
      context.rateLimit.reset();
      return { status: 200, body: seedInfo(store) };
    case "POST groups": {
      const made = makeGroup(store, validate(newGroupParams, body));
      context.persist();
      return { status: 201, body: made };
    }
    case "POST projects": {
      const made = makeProject(store, validate(newProjectParams, body));
      context.persist();
      return { status: 201, body: made };
    }
    case "GET requests":
      return { status: 200, body: log.list(validate(requestsQuery, query).since ?? 0) };
    case "GET requests/last":
      return { status: 200, body: log.bounds() };
    case "DELETE requests":
      log.clear();
      return { status: 204 };
    case "GET faults":
      return { status: 200, body: faults.current() };
    case "POST faults":
      return { status: 201, body: faults.add(body) };
    case "DELETE faults":
      faults.clear();
      return { status: 204 };
    case "GET clock":
      return { status: 200, body: clockInfo(store.clock) };
    case "POST clock": {
      const { advance_ms: advanceMs } = validate(clockParams, body);
      store.clock.advance(advanceMs);
      // What runs on its own as time passes catches up now, as it would have by then.
      store.repositoryStorageMoves.advance();
      return { status: 200, body: clockInfo(store.clock) };
    }
    case "GET rate-limit":
      return { status: 200, body: context.rateLimit.current() };
    case "PUT rate-limit": {
      const { limit, window_s: windowSeconds = 60 } = validate(rateLimitParams, body);
      context.rateLimit.set({ limit, windowSeconds });
      return { status: 200, body: context.rateLimit.current() };
    }
    case "GET settings":
      return { status: 200, body: store.state.settings };
    case "PUT settings": {
      const changes = validate(settingsParams, body);
      Object.assign(store.state.settings, Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)));
      context.persist();
      return { status: 200, body: store.state.settings };
    }
    default:
      throw routeNotFound();
  }
}

function decode(ref: string): string {
  try {
    return decodeURIComponent(ref);
  } catch {
    throw routeNotFound();
  }
}

/** `PUT /__emulator/projects/:id` `{path?, visibility?}`: answers the project's seed-style summary. */
function changeProject(store: Store, ref: string, body: Record<string, unknown>): unknown {
  const project = store.projects.byRef(ref);
  if (!project) throw thingNotFound("Project");
  const changes = validate(projectChangeParams, body);
  if (changes.path !== undefined && changes.path !== project.path) {
    checkNamespacePath(changes.path);
    refuseProjectClashes(store, project.namespace_id, { path: changes.path }, project);
    store.projects.rename(project, changes.path);
  }
  if (changes.visibility !== undefined) project.visibility = changes.visibility;
  const { path: _path, visibility: _visibility, issues_enabled: issues, merge_requests_enabled: mergeRequests, ...state } = changes;
  writeProjectSettings(project, projectSettingsOf({ issues_enabled: issues, merge_requests_enabled: mergeRequests }));
  Object.assign(project, Object.fromEntries(Object.entries(state).filter(([, value]) => value !== undefined)));
  return { id: project.id, path_with_namespace: store.projects.pathWithNamespace(project), visibility: project.visibility };
}

/** The user a `creator` parameter names (an id or a username); root when none is named. */
function creatorOf(store: Store, creator: number | string | undefined): UserRecord {
  const user =
    creator === undefined ? store.users.byId(1) : typeof creator === "number" ? store.users.byId(creator) : store.users.byUsername(creator);
  if (!user) throw thingNotFound("User");
  return user;
}

/**
 * `POST /__emulator/groups` `{path, name?, parent?, creator?}`: a group made out of band, as a
 * person makes one in the UI; its creator (root by default) becomes its Owner, as on the forge.
 */
function makeGroup(store: Store, params: z.output<typeof newGroupParams>): unknown {
  const parent = params.parent === undefined ? undefined : store.groups.byRef(String(params.parent));
  if (params.parent !== undefined && !parent) throw thingNotFound("Group");
  const group = makeGroupIn(store, {
    name: params.name ?? params.path,
    path: params.path,
    parentId: parent?.id ?? null,
    visibility: "private",
    description: "",
    creator: creatorOf(store, params.creator),
  });
  return { id: group.id, full_path: store.groups.fullPath(group) };
}

/**
 * `POST /__emulator/projects` `{path, namespace, name?, creator?}`: a project made out of band in
 * a group. As on the forge, its creator (root by default) is recorded (`creator_id`) and becomes
 * its Owner: a direct membership the forge makes with the project, at the same moment, which
 * nobody asked for through the members API.
 */
function makeProject(store: Store, params: z.output<typeof newProjectParams>): unknown {
  const namespace = store.groups.byRef(String(params.namespace));
  if (!namespace) throw thingNotFound("Namespace");
  const creator = creatorOf(store, params.creator);
  // The path alone is what the admin endpoint is asked for: a clash names only it, though the
  // name defaults to the path and would clash too.
  refuseProjectClashes(store, namespace.id, { path: params.path });
  const project = makeProjectIn(store, {
    name: params.name ?? params.path,
    path: params.path,
    namespaceId: namespace.id,
    visibility: "private",
    description: null,
    creator,
    defaultBranch: "main",
  });
  return { id: project.id, path_with_namespace: store.projects.pathWithNamespace(project), creator_id: creator.id };
}

/** `PUT /__emulator/groups/:id` `{visibility?}`. */
function changeGroup(store: Store, ref: string, body: Record<string, unknown>): unknown {
  const group = store.groups.byRef(ref);
  if (!group) throw thingNotFound("Group");
  const changes = validate(groupChangeParams, body);
  const { visibility: _visibility, ...state } = changes;
  if (changes.visibility !== undefined) group.visibility = changes.visibility;
  Object.assign(group, Object.fromEntries(Object.entries(state).filter(([, value]) => value !== undefined)));
  return { id: group.id, full_path: store.groups.fullPath(group), visibility: group.visibility };
}
