/**
 * Group integrations: the API's table of group integrations, transcribed once. The provider builds one resource per
 * slug from it (inputs, write-only secrets, resets), the emulator its model of
 * `/groups/:id/integrations/<slug>`, the contract suite a row per slug, the policy pack its
 * checks, and the reference pages their field descriptions. Parameters are listed by wire name
 * (snake_case), as the spec names them; the library's inputs are their camelCase forms.
 *
 * Where the spec gives no default, the default here is the real service's (api-semantics.md):
 * its event switches' column defaults, `false` for other switches, and no value (null) for text.
 */

/** One body parameter of an integration's set-up (`PUT /groups/:id/integrations/<slug>`). */
export interface IntegrationParameter {
  type: "string" | "boolean";
  /** R in Every set-up must send it. */
  required?: true;
  /** What the forge holds when the parameter is not given (and after a DELETE). */
  default?: string | boolean;
  /** The values a string parameter accepts. */
  values?: readonly string[];
  /**
   * A credential: `write-only` ones are accepted and never returned (GET leaves them out), kept
   * in state encrypted; `readable` ones are returned but kept in state encrypted (the chat
   * webhook's per-event webhook overrides: a webhook address carries its own token).
   */
  secret?: "write-only" | "readable";
  /** A per-event switch: returned beside the record's other event flags, not in `properties`. */
  event?: true;
  /** A rule on the text beyond its type. */
  format?: "url" | "recipients" | "key-value-lines" | "branch-list";
  /** Deprecated by the spec, with what it says. */
  deprecated?: string;
  /** What it is, for the docs. */
  doc: string;
}

export interface IntegrationKind {
  /** The path segment: `/groups/:id/integrations/<slug>`. */
  slug: string;
  /** The record's `title`. */
  title: string;
  /** What it connects, for the docs. */
  summary: string;
  parameters: Readonly<Record<string, IntegrationParameter>>;
  /** Extra notes of the spec (set-up requirements on the other side). */
  notes?: readonly string[];
}

/** The chat webhook's `branches_to_be_notified` and the e-mails-on-push one share their values. */
export const NOTIFIED_BRANCHES = ["all", "default", "protected", "default_and_protected"] as const;

const url = (doc: string, required?: true) => ({ type: "string", format: "url", doc, ...(required ? { required } : {}) }) as const;
const text = (doc: string, required?: true) => ({ type: "string", doc, ...(required ? { required } : {}) }) as const;
const credential = (doc: string) => ({ type: "string", required: true, secret: "write-only", doc }) as const;
const flag = (doc: string, value = false) => ({ type: "boolean", default: value, doc }) as const;
/** A per-event switch, with the real service's default for that event. */
const eventSwitch = (doc: string, value: boolean) => ({ type: "boolean", event: true, default: value, doc }) as const;
const sslVerification = { type: "boolean", default: true, doc: "Verify the server's TLS certificate (default true)." } as const;

/** The three issue-tracker shapes (`new_issue_url`, `issues_url`, `project_url`). */
const trackerUrls = {
  new_issue_url: url("Address of the page that creates an issue.", true),
  issues_url: url("Address of an issue; `:id` in it stands for the issue's id.", true),
  project_url: url("Address of the project in the tracker.", true),
} as const;

/** The code-event switches a CI integration takes. */
const ciEvents = {
  push_events: eventSwitch("Trigger on pushes (default true).", true),
  merge_requests_events: eventSwitch("Trigger on merge request events (default true).", true),
  tag_push_events: eventSwitch("Trigger on tag pushes (default true).", true),
} as const;

/**
 * The chat webhook's per-event pairs: a switch and the webhook that receives that
 * event instead of `webhook`. Defaults of the switches are the service's column defaults.
 */
export const CHAT_WEBHOOK_EVENT_PAIRS = [
  { switch: "confidential_issues_events", override: "confidential_issue_channel", event: "confidential issue events", default: true },
  { switch: "confidential_note_events", override: "confidential_note_channel", event: "confidential note events", default: true },
  { switch: "deployment_events", override: "deployment_channel", event: "deployment events", default: false },
  {
    switch: "group_confidential_mentions_events",
    override: "group_confidential_mentions_channel",
    event: "group mentions in confidential places",
    default: false,
  },
  { switch: "group_mentions_events", override: "group_mentions_channel", event: "group mentions in public places", default: false },
  { switch: "issues_events", override: "issue_channel", event: "issue events", default: true },
  { switch: "merge_requests_events", override: "merge_request_channel", event: "merge request events", default: true },
  { switch: "note_events", override: "note_channel", event: "comments", default: true },
  { switch: "pipeline_events", override: "pipeline_channel", event: "pipeline events", default: false },
  { switch: "push_events", override: "push_channel", event: "pushes", default: true },
  { switch: "tag_push_events", override: "tag_push_channel", event: "tag pushes", default: true },
  { switch: "wiki_page_events", override: "wiki_page_channel", event: "wiki page events", default: true },
] as const;

type Pair = (typeof CHAT_WEBHOOK_EVENT_PAIRS)[number];

const chatWebhookPairs = Object.fromEntries(
  CHAT_WEBHOOK_EVENT_PAIRS.flatMap((pair) => [
    [pair.switch, eventSwitch(`Notify of ${pair.event} (default ${pair.default}).`, pair.default)],
    [
      pair.override,
      { type: "string", format: "url", secret: "readable", doc: `Webhook that receives ${pair.event} instead of \`webhook\`.` },
    ],
  ]),
) as { readonly [P in Pair as P["switch"]]: ReturnType<typeof eventSwitch> } & {
  readonly [P in Pair as P["override"]]: {
    readonly type: "string";
    readonly format: "url";
    readonly secret: "readable";
    readonly doc: string;
  };
};

/** The API's table of group integrations, in its order. */
export const INTEGRATIONS = {
  "task-tracker": {
    slug: "task-tracker",
    title: "Task tracker",
    summary: "Links commits to tasks in a task tracker and comments on them.",
    parameters: {
      api_key: credential("User API token; comments are attributed to that user."),
      restrict_to_branch: { type: "string", format: "branch-list", doc: "Comma-separated branches to take commits from; blank means all." },
    },
  },
  "ticketing-suite": {
    slug: "ticketing-suite",
    title: "Ticketing suite",
    summary: "Connects the group to a ticketing suite.",
    parameters: {
      token: credential("Token of the ticketing suite."),
      subdomain: text("Subdomain of the ticketing suite's site."),
    },
  },
  "ci-server-a": {
    slug: "ci-server-a",
    title: "CI server A",
    summary: "Triggers builds of a CI server (plan builds) on pushes.",
    parameters: {
      vendor_url: url("Root URL of the CI server.", true),
      enable_ssl_verification: sslVerification,
      build_key: text("Key of the build plan.", true),
      username: text("User of the CI server with access to the plan.", true),
      password: credential("Password of that user."),
    },
    notes: ["The CI server needs automatic revision labeling and a repository trigger."],
  },
  "bug-tracker": {
    slug: "bug-tracker",
    title: "Bug tracker",
    summary: "Uses an external bug tracker for the group's projects.",
    parameters: { ...trackerUrls },
  },
  "ci-pipeline-service": {
    slug: "ci-pipeline-service",
    title: "CI pipeline service",
    summary: "Triggers pipelines of a hosted CI pipeline service.",
    parameters: {
      token: credential("Token of the pipeline service."),
      project_url: url("Address of the pipeline in the service.", true),
      enable_ssl_verification: {
        type: "boolean",
        default: true,
        deprecated: "no effect; verification is always on",
        doc: "Deprecated by the forge: no effect, verification is always on. Only true is accepted.",
      },
      ...ciEvents,
    },
  },
  "team-chat-a": {
    slug: "team-chat-a",
    title: "Team chat A",
    summary: "Posts pushes to a room of a team chat.",
    parameters: {
      token: credential("API token of the chat."),
      subdomain: text("Subdomain of the chat's site."),
      room: text("Id part of the room's URL."),
    },
  },
  "work-tracker": {
    slug: "work-tracker",
    title: "Work tracker",
    summary: "Uses an external work tracker for the group's projects.",
    parameters: {
      issues_url: trackerUrls.issues_url,
      project_url: trackerUrls.project_url,
    },
  },
  "wiki-workspace": {
    slug: "wiki-workspace",
    title: "Wiki workspace",
    summary: "Links the group to a wiki workspace.",
    parameters: { vendor_url: url("Address of the workspace.", true) },
  },
  monitoring: {
    slug: "monitoring",
    title: "Monitoring",
    summary: "Sends pipeline and job traces to a monitoring service.",
    parameters: {
      api_key: credential("API key of the monitoring service."),
      api_url: url("Full address of the service's site (advanced; overrides `vendor_site`)."),
      vendor_env: text("Environment tag of the traces."),
      vendor_service: text("Service tag of the traces."),
      vendor_site: text("The service's site (region) to send to."),
      vendor_tags: { type: "string", format: "key-value-lines", doc: "Custom tags, one `key:value` per line." },
      archive_trace_events: flag("Send job logs too (default false)."),
    },
  },
  "test-generator": {
    slug: "test-generator",
    title: "Test generator",
    summary: "Connects a service that writes unit tests for merge requests.",
    parameters: {
      vendor_license_key: credential("Licence key of the service."),
      vendor_access_token_name: text("Name of the access token the service uses.", true),
      vendor_access_token_secret: credential("Secret of that access token."),
    },
  },
  "chat-webhook": {
    slug: "chat-webhook",
    title: "Chat webhook",
    summary: "Posts notifications to a chat through a webhook, with per-event switches and webhook overrides.",
    parameters: {
      webhook: { type: "string", required: true, secret: "write-only", format: "url", doc: "The chat's incoming webhook." },
      branches_to_be_notified: {
        type: "string",
        values: NOTIFIED_BRANCHES,
        default: "default",
        doc: "Branches to notify of (default `default`).",
      },
      notify_only_broken_pipelines: flag("Notify only of broken pipelines (default true).", true),
      ...chatWebhookPairs,
    },
  },
  "ci-server-b": {
    slug: "ci-server-b",
    title: "CI server B",
    summary: "Triggers builds of a self-hosted CI server.",
    parameters: {
      token: credential("Token of the CI server."),
      vendor_url: url("Address of the CI server.", true),
      enable_ssl_verification: sslVerification,
      ...ciEvents,
    },
  },
  "workflow-management": {
    slug: "workflow-management",
    title: "Workflow management",
    summary: "Uses an external workflow management tool as the group's issue tracker.",
    parameters: {
      new_issue_url: trackerUrls.new_issue_url,
      project_url: trackerUrls.project_url,
      issues_url: trackerUrls.issues_url,
    },
  },
  "custom-issue-tracker": {
    slug: "custom-issue-tracker",
    title: "Custom issue tracker",
    summary: "Uses a custom issue tracker for the group's projects.",
    parameters: { ...trackerUrls },
  },
  "emails-on-push": {
    slug: "emails-on-push",
    title: "Emails on push",
    summary: "E-mails the changes of each push to a list of recipients.",
    parameters: {
      recipients: { type: "string", required: true, format: "recipients", doc: "E-mail addresses, separated by whitespace." },
      disable_diffs: flag("Leave code diffs out of the e-mails (default false)."),
      send_from_committer_email: flag("Send from the committer's address when its domain is the instance's (default false)."),
      push_events: eventSwitch("E-mail on pushes (default true).", true),
      tag_push_events: eventSwitch("E-mail on tag pushes (default true).", true),
      branches_to_be_notified: {
        type: "string",
        values: NOTIFIED_BRANCHES,
        default: "all",
        doc: "Branches to notify of (default `all`); tag pushes always notify.",
      },
    },
  },
  "external-wiki": {
    slug: "external-wiki",
    title: "External wiki",
    summary: "Links the group's projects to an external wiki.",
    parameters: { external_wiki_url: url("Address of the external wiki.", true) },
  },
} as const satisfies Record<string, IntegrationKind>;

export type IntegrationSlug = keyof typeof INTEGRATIONS;

/** Every set-up also takes this one. */
export const USE_INHERITED_SETTINGS: IntegrationParameter = {
  type: "boolean",
  default: false,
  doc: "Take the settings of the instance-level integration of the same kind (default false).",
};

/**
 * The event flags of every integration record (the API's group integration list entry),
 * with the real service's column defaults; an integration's own switches override them.
 * `vulnerability_events` is the higher-edition one.
 */
export const EVENT_FLAG_DEFAULTS: Readonly<Record<string, boolean>> = {
  commit_events: true,
  push_events: true,
  issues_events: true,
  alert_events: true,
  confidential_issues_events: true,
  merge_requests_events: true,
  tag_push_events: true,
  deployment_events: false,
  note_events: true,
  confidential_note_events: true,
  pipeline_events: false,
  wiki_page_events: true,
  job_events: false,
  comment_on_event_enabled: true,
  vulnerability_events: false,
};

/** `chat-webhook` → `ChatWebhook`: the resource is `GroupIntegration<that>`. */
export function integrationTypeSuffix(slug: string): string {
  return slug
    .split("-")
    .map((part) => `${part[0]?.toUpperCase() ?? ""}${part.slice(1)}`)
    .join("");
}

/** The rule of a `format`, as a predicate on the text (blank text is always allowed: it clears). */
export const INTEGRATION_FORMATS: Readonly<
  Record<NonNullable<IntegrationParameter["format"]>, { rule: string; holds(value: string): boolean }>
> = {
  url: { rule: "an http or https address", holds: (value) => /^https?:\/\/[^\s/]+/i.test(value) },
  recipients: {
    rule: "e-mail addresses separated by whitespace",
    holds: (value) =>
      value
        .trim()
        .split(/\s+/)
        .every((entry) => /^[^\s@]+@[^\s@]+$/.test(entry)),
  },
  "key-value-lines": {
    rule: "one `key:value` per line",
    holds: (value) => value.split(/\r?\n/).every((line) => line.trim() === "" || /^[^:\s][^:]*:.+$/.test(line.trim())),
  },
  "branch-list": {
    rule: "branch names separated by commas",
    holds: (value) => value.split(",").every((entry) => entry.trim() !== "" && !/\s/.test(entry.trim())),
  },
};
