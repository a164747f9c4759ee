import { z } from "zod";
import { defineResource, type ResourceDeclaration } from "../engine/declaration";
import { durationMs, parentFields, searchListing, secretOutput } from "../engine/rotation";
import { show, valueRule } from "../fields";

/** The shortest `rotateAfter`: a shorter one would rotate on nearly every run. */
const SHORTEST_ROTATION_MS = 60_000;
/** The longest `rotateAfter`, ten years: a longer one is no schedule, and past the dates a clock can
 *  name (about 273,790 years) the due time cannot be computed at all, so every `up` would fail
 *  after making a credential whose value is then lost. Without `rotateAfter`, only a change rotates. */
const LONGEST_ROTATION_MS = 3650 * 86_400_000;

/** `rotateAfter`: a duration such as `720h`. */
const rotateAfter = z
  .string()
  .check(
    valueRule({
      format: "duration",
      rule: "a duration from a minute to ten years in days, hours, minutes and seconds (720h, 30d, 1h30m)",
      holds: (value) => {
        const ms = durationMs(value);
        return ms !== undefined && ms >= SHORTEST_ROTATION_MS && ms <= LONGEST_ROTATION_MS;
      },
      message: (value) =>
        (durationMs(value) ?? 0) > LONGEST_ROTATION_MS
          ? `${show(value)} is longer than ten years (3650d): no rotation would ever be due. Leave rotateAfter out to rotate only on a change of keepers.`
          : `${show(value)} is not a duration of at least a minute. Write days, hours, minutes and seconds, such as "720h", "30d" or "1h30m".`,
    }),
  )
  .describe(
    "How long the current credential serves before the next `up` rotates it, counted from its creation on the forge's clock: `720h`, `30d`, `1h30m`. " +
      "Without it, only a change of `keepers` (or of the credential's inputs) rotates.",
  );

/** `keepers`: values whose change rotates. */
const keepers = z
  .record(z.string(), z.string(), {
    error: (issue) => `${show(issue.input)} is not a map of strings. Give values that name the rotation, such as { quarter: "2026-Q4" }.`,
  })
  .describe('Any values that, when one changes, rotate at the next `up` (`{ quarter: "2026-Q4" }`). Not sent to the forge.');

/** The schedule's inputs, beside the credential's own. */
const scheduleInputs = { rotateAfter: rotateAfter.optional(), keepers: keepers.optional() };

type SecretShape<S extends string> = { [K in S as `current${Capitalize<K>}` | `previous${Capitalize<K>}`]: z.ZodOptional<z.ZodString> };

/**
 * The rotating kind of a credential kind (ClusterAgentToken, ErrorTrackingClientKey): the
 * credential's inputs but `leaves` (its own trigger of a replacement), a schedule (`rotateAfter`,
 * `keepers`), and two slots, `current` and `previous`, whose secret values are outputs of their
 * own (`currentToken`, `previousToken`) so that nothing else of a slot is masked. engine/rotation.ts
 * runs it; docs/guides/rotation.md says what users see.
 */
export function rotating<I extends z.ZodRawShape, O extends z.ZodRawShape, S extends keyof O & string, L extends keyof I & string = never>(
  of: ResourceDeclaration<z.ZodObject<I>, z.ZodObject<O>>,
  spec: { name: string; summary: string; noun: string; secrets: readonly S[]; leaves?: readonly L[]; notes: string[] },
) {
  const declared = [...(of.secretOutputs ?? [])].sort();
  if (JSON.stringify(declared) !== JSON.stringify([...spec.secrets].sort()))
    throw new Error(`${spec.name}: its secrets must be ${of.name}'s (${declared.join(", ")})`);
  const noun = spec.noun;
  const parent = parentFields(of);
  const visible = of.outputs.omit(Object.fromEntries(spec.secrets.map((key) => [key, true])) as never).extend({
    /** When it was made, on the forge's clock. */
    createdAt: z.string().describe(`When the ${noun} was made, on the forge's clock.`),
    /** When the forge answered its create, on the clock of its answers: the rotation's age starts here. */
    issuedAt: z
      .string()
      .optional()
      .describe(
        `When the forge answered the create of the ${noun}, on the clock its answers carry (their Date header): its age counts from here, against the same clock.`,
      ),
  }) as unknown as z.ZodObject<Omit<O, S> & { createdAt: z.ZodString; issuedAt: z.ZodOptional<z.ZodString> }>;
  const secretShape = Object.fromEntries(
    spec.secrets.flatMap((secret) => [
      [
        secretOutput("current", secret),
        z.string().optional().describe(`The current ${noun}'s \`${secret}\` (secret): what consumers use now.`),
      ],
      [
        secretOutput("previous", secret),
        z
          .string()
          .optional()
          .describe(
            `The previous ${noun}'s \`${secret}\` (secret): still valid until the next rotation, for consumers that have not switched yet.`,
          ),
      ],
    ]),
  ) as SecretShape<S>;
  const inputs = of.inputs
    .omit(Object.fromEntries((spec.leaves ?? []).map((key) => [key, true])) as never)
    .extend(scheduleInputs) as unknown as z.ZodObject<Omit<I, L> & typeof scheduleInputs>;
  const outputs = z.object({
    current: visible
      .optional()
      .describe(
        `The ${noun} in use: its id, its creation time and the rest of what the forge shows (its secret value is \`${secretOutput("current", spec.secrets[0]!)}\`).`,
      ),
    previous: visible
      .optional()
      .describe(`The ${noun} before it, still valid: consumers switch from it to \`current\` before the next rotation revokes it.`),
    ...secretShape,
    rotationDueAt: z
      .string()
      .optional()
      .describe(
        "When the current credential is due for rotation, on the forge's clock (`rotateAfter` after its issue); the first `up` after it rotates.",
      ),
  });
  const wire = of.recordId === undefined ? "id" : typeof of.recordId === "string" ? "id" : of.recordId.wire;
  const idOutput = typeof of.recordId === "string" ? of.recordId : of.recordId?.output;
  return defineResource({
    name: spec.name,
    summary: spec.summary,
    inputs,
    outputs,
    idParts: parent,
    identity: of.identity,
    ...(of.limits ? { limits: of.limits } : {}),
    create: of.create,
    // The current credential, in its parent's listing (what forge-recover reads).
    read: {
      list: searchListing(of),
      where: (record, state) => {
        const current = state["current"] as Record<string, unknown> | undefined;
        return idOutput !== undefined && current !== undefined && String(record[wire]) === String(current[idOutput]);
      },
    },
    replaceOn: parent,
    secretOutputs: spec.secrets.flatMap((secret) => [secretOutput("current", secret), secretOutput("previous", secret)]),
    // Dropping an input rotates (a new credential without it); dropping the schedule only stops it.
    resets: Object.fromEntries(
      Object.entries(inputs.shape)
        .filter(([key, schema]) => !parent.includes(key) && (schema as z.ZodType).safeParse(undefined).success)
        .map(([key]) => [key, () => undefined]),
    ),
    ...(of.normalize ? { normalize: of.normalize } : {}),
    rotation: { of, noun },
    notes: spec.notes,
  });
}
