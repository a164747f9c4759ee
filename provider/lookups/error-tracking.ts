import { z } from "zod";
import { projectRef } from "../fields";
import { defineLookup } from "./lookup";
import { routes } from "../../api/routes";

export const errorTrackingLookups = [
  defineLookup({
    name: "listErrorTrackingClientKeys",
    summary:
      "The error tracking client keys of a project, each with its public key and DSN (`vendorDsn`), secret as the resource keeps them: in a program, the answer is a secret output (the plugin's functions, and `.output()` in TypeScript).",
    route: routes.errorTrackingClientKeys.list,
    args: z.object({
      /** The project: its id or full path. */
      project: projectRef,
    }),
    many: true,
    // ErrorTrackingClientKey keeps its public key and DSN secret.
    secretFields: ["publicKey", "vendorDsn"],
  }),
  defineLookup({
    name: "getErrorTrackingSettings",
    summary:
      "A project's error tracking settings (`active`, `integrated`, the external backend's addresses); fails with 404 when the project has none.",
    route: routes.errorTrackingSettings.get,
    args: z.object({
      /** The project: its id or full path. */
      project: projectRef,
    }),
    many: false,
  }),
] as const;
