import { z } from "zod";
import { parameterError } from "../../core/errors";
import { routes } from "../../../api/routes";
import { created, noContent, ok, paged, type RouteRequest, routesOf } from "../../core/routes";
import { paramString, validate } from "../../core/validation";
import type { Labels } from "./model";

const route = routesOf<Labels>();

/** The deprecated `PUT`/`DELETE /groups/:id/labels` address the label by `label_id` or `name`. */
const deprecatedLabelRef = z.object({ label_id: paramString().optional(), name: paramString().optional() });

function labelRefFromInput(request: RouteRequest<unknown>): string {
  const { label_id, name } = validate(deprecatedLabelRef, request.input);
  if (label_id !== undefined && name !== undefined) throw parameterError("label_id, name are mutually exclusive");
  const ref = label_id ?? name;
  if (ref === undefined) throw parameterError("label_id, name are missing, exactly one parameter must be provided");
  return ref;
}

/** Without the label reference, so that `name` is not taken for a field to change. */
function withoutRef(input: Record<string, unknown>): Record<string, unknown> {
  const { label_id: _id, name: _name, ...rest } = input;
  return rest;
}

/** Group labels, including subscriptions and the deprecated name-addressed forms. */
export const labelRoutes = [
  route(routes.groupLabels.list, (r, labels) => paged(labels.list(r.actor, r.params.group, r.input))),
  route(routes.groupLabels.create, (r, labels) => created(labels.create(r.actor, r.params.group, r.input))),
  route(routes.groupLabels.updateByName, (r, labels) =>
    ok(labels.update(r.actor, r.params.group, labelRefFromInput(r), withoutRef(r.input))),
  ),
  route(routes.groupLabels.deleteByName, (r, labels) => {
    labels.delete(r.actor, r.params.group, labelRefFromInput(r));
    return noContent();
  }),
  route(routes.groupLabels.get, (r, labels) => ok(labels.get(r.actor, r.params.group, r.params.labelId, r.input))),
  route(routes.groupLabels.update, (r, labels) => ok(labels.update(r.actor, r.params.group, r.params.labelId, withoutRef(r.input)))),
  route(routes.groupLabels.delete, (r, labels) => {
    labels.delete(r.actor, r.params.group, r.params.labelId);
    return noContent();
  }),
  ...(["subscribe", "unsubscribe"] as const).map((action) =>
    route(routes.groupLabels[action], (r, labels) => {
      const result = labels.setSubscription(r.actor, r.params.group, r.params.labelId, action === "subscribe");
      // Already in the requested state: 304 Not Modified, no body.
      return result.changed ? created(result.label) : { status: 304 };
    }),
  ),
];
