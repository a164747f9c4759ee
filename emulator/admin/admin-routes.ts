import { z } from "zod";
import type { EmulatorContext } from "../context";
import { routeNotFound } from "../core/errors";
import { paramBoolean, paramInteger, validate } from "../core/validation";
import type { ApiResponse } from "../http/types";
import { seedInfo, seedState } from "./seed";

/** Path prefix of the admin endpoints (outside /api/v4, no authentication). */
export const ADMIN_PREFIX = "/__emulator";

const settingsParams = z.object({
  job_token_scope_enforced: paramBoolean().optional(),
  member_promotion_management: paramBoolean().optional(),
  labels_archive: paramBoolean().optional(),
});
const requestsQuery = z.object({ since: paramInteger().optional() });

/**
 * Serves the admin endpoints of docs/contracts.md: seed, reset, request log, faults, settings.
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
  switch (`${method} ${subpath}`) {
    case "GET seed":
      return { status: 200, body: seedInfo(store) };
    case "POST reset":
      // Back to the seed: state, ids, settings, faults and the request log.
      store.replaceState(seedState());
      faults.clear();
      log.clear();
      context.persist();
      return { status: 200, body: seedInfo(store) };
    case "GET requests":
      return { status: 200, body: log.list(validate(requestsQuery, query).since ?? 0) };
    case "DELETE requests":
      log.clear();
      return { status: 204 };
    case "POST faults":
      return { status: 201, body: faults.add(body) };
    case "DELETE faults":
      faults.clear();
      return { status: 204 };
    case "GET settings":
      return { status: 200, body: store.state.settings };
    case "PUT settings": {
      const changes = validate(settingsParams, body);
      for (const [key, value] of Object.entries(changes)) {
        if (value !== undefined) store.state.settings[key as keyof typeof changes] = value;
      }
      context.persist();
      return { status: 200, body: store.state.settings };
    }
    default:
      throw routeNotFound();
  }
}
