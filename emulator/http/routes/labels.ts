import { z } from "zod";
import { parameterError } from "../../store/errors";
import { paramString, validate } from "../../store/validation";
import { paginate } from "../pagination";
import type { ApiRequest, RouteDefinition } from "../types";
import { created, noContent, ok, pathParam } from "../types";

const BASE = "/groups/:id/labels";

/** The deprecated `PUT`/`DELETE /groups/:id/labels` address the label by `label_id` or `name`. */
const deprecatedLabelRef = z.object({ label_id: paramString().optional(), name: paramString().optional() });

function labelRefFromParams(request: ApiRequest): string {
  const { label_id, name } = validate(deprecatedLabelRef, request.params);
  if (label_id !== undefined && name !== undefined) throw parameterError("label_id, name are mutually exclusive");
  const ref = label_id ?? name;
  if (ref === undefined) throw parameterError("label_id, name are missing, exactly one parameter must be provided");
  return ref;
}

/** Without the label reference, so that `name` is not taken for a field to change. */
function withoutRef(params: Record<string, unknown>): Record<string, unknown> {
  const { label_id: _id, name: _name, ...rest } = params;
  return rest;
}

/** Group labels, including subscriptions and the deprecated name-addressed forms. */
export const labelRoutes: RouteDefinition[] = [
  {
    method: "GET",
    path: BASE,
    handler: (r, store) => paginate(r, store.labels.list(r.actor, pathParam(r, "id"), r.params)),
  },
  {
    method: "POST",
    path: BASE,
    handler: (r, store) => created(store.labels.create(r.actor, pathParam(r, "id"), r.params)),
  },
  {
    method: "PUT",
    path: BASE,
    handler: (r, store) =>
      ok(store.labels.update(r.actor, pathParam(r, "id"), labelRefFromParams(r), withoutRef(r.params))),
  },
  {
    method: "DELETE",
    path: BASE,
    handler: (r, store) => {
      store.labels.delete(r.actor, pathParam(r, "id"), labelRefFromParams(r));
      return noContent();
    },
  },
  {
    method: "GET",
    path: `${BASE}/:label_id`,
    handler: (r, store) => ok(store.labels.get(r.actor, pathParam(r, "id"), pathParam(r, "label_id"), r.params)),
  },
  {
    method: "PUT",
    path: `${BASE}/:label_id`,
    handler: (r, store) =>
      ok(store.labels.update(r.actor, pathParam(r, "id"), pathParam(r, "label_id"), withoutRef(r.params))),
  },
  {
    method: "DELETE",
    path: `${BASE}/:label_id`,
    handler: (r, store) => {
      store.labels.delete(r.actor, pathParam(r, "id"), pathParam(r, "label_id"));
      return noContent();
    },
  },
  ...(["subscribe", "unsubscribe"] as const).map(
    (action): RouteDefinition => ({
      method: "POST",
      path: `${BASE}/:label_id/${action}`,
      handler: (r, store) => {
        const subscribe = action === "subscribe";
        const result = store.labels.setSubscription(r.actor, pathParam(r, "id"), pathParam(r, "label_id"), subscribe);
        // Already in the requested state: 304 Not Modified, no body.
        return result.changed ? created(result.label) : { status: 304 };
      },
    }),
  ),
];
