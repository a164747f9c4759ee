import type { GraphQLSchema } from "graphql";
import { z } from "zod";
import type { Core } from "../core/core";
import { ApiError } from "../core/errors";
import type { Actor } from "../core/records";
import { declareParameters } from "../core/validation";

/*
 * `POST /api/graphql`, as far as clients' set-up needs it: the `currentUser` query (who the
 * token is, its personal namespace). The query is parsed and validated by graphql-js against a
 * schema of that one field, so that a client's query in any form (aliases, fragments, variables,
 * `__typename`) is answered as the service would; anything else the service has is not served,
 * and the answer says so in GraphQL's error shape.
 */

const SDL = `
  type Query {
    currentUser: CurrentUser
  }
  type CurrentUser {
    id: ID!
    username: String!
    name: String!
    state: String!
    bot: Boolean!
    publicEmail: String
    webUrl: String!
    avatarUrl: String
    createdAt: String
    groupCount: Int
    namespace: Namespace
  }
  type Namespace {
    id: ID!
    name: String!
    path: String!
    fullPath: String!
  }
`;

/** A GraphQL request's body (the parameters are declared, so none is logged as ignored). */
const REQUEST = z.object({
  query: z.string().optional(),
  variables: z.record(z.string(), z.unknown()).nullable().optional(),
  operationName: z.string().nullable().optional(),
});

/** What the emulator serves of the service's GraphQL API, said in every refusal. */
const SERVED = "the forge emulator's GraphQL endpoint serves the currentUser query only";

let schema: GraphQLSchema | undefined;

/** The service's global ids: `gid://gitlab/User/1`, `gid://gitlab/Namespaces::UserNamespace/3`. */
const globalId = (type: string, id: number) => `gid://gitlab/${type}/${id}`;

/**
 * Answers a GraphQL request: 200 with `data` (and `errors` where a field failed), 200 with
 * `errors` alone for a query the schema refuses (graphql-js's message, then what is served), as
 * GraphQL servers answer; a request without a query string is 422 (the service's controller).
 */
export function answerGraphql(core: Core, actor: Actor, input: Record<string, unknown>): { status: number; body: unknown } {
  // Loaded at the first GraphQL request: an emulator that never gets one does not load graphql-js.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const graphql = require("graphql") as typeof import("graphql");
  schema ??= graphql.buildSchema(SDL);
  declareParameters(Object.keys(REQUEST.shape));
  const parsed = REQUEST.safeParse(input);
  const { query, variables, operationName } = parsed.success ? parsed.data : {};
  if (typeof query !== "string" || query.trim() === "") {
    throw new ApiError(422, { errors: [{ message: "No query string was present" }] });
  }
  const result = graphql.graphqlSync({
    schema,
    source: query,
    rootValue: { currentUser: () => (actor ? currentUser(core, actor) : null) },
    ...(variables ? { variableValues: variables } : {}),
    ...(typeof operationName === "string" ? { operationName } : {}),
  });
  const errors = result.errors?.map((error) => ({ ...error.toJSON(), message: `${error.message} (${SERVED})` }));
  return { status: 200, body: { ...(result.data !== undefined ? { data: result.data } : {}), ...(errors ? { errors } : {}) } };
}

function currentUser(core: Core, user: NonNullable<Actor>): Record<string, unknown> {
  const groupCount = core.groups.all().filter((group) => group.members.some((member) => member.user_id === user.id)).length;
  return {
    id: globalId("User", user.id),
    username: user.username,
    name: user.name,
    state: user.state,
    bot: false,
    publicEmail: user.public_email ?? null,
    webUrl: `${core.baseUrl}/${user.username}`,
    avatarUrl: null,
    createdAt: user.created_at,
    groupCount,
    namespace:
      user.namespace_id === undefined
        ? null
        : { id: globalId("Namespaces::UserNamespace", user.namespace_id), name: user.name, path: user.username, fullPath: user.username },
  };
}
