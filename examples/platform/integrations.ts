/**
 * The group's integrations: three of the sixteen, of three shapes. Each is one resource per
 * integration slug; deleting one (or `pulumi destroy`) disables the integration on the forge and
 * resets its settings. Credentials are write-only: the forge never returns them, the state keeps
 * them encrypted.
 */
import * as pulumi from "@pulumi/pulumi";
import * as forge from "pulumi-forge";

const config = new pulumi.Config();
const group = config.get("group") ?? "acme";

/**
 * The team's chat: a webhook (a secret: the address carries its token), per-event switches, and
 * a second webhook that receives only the pipeline events.
 */
const chatNotifications = new forge.GroupIntegrationChatWebhook("acme-chat", {
  group,
  webhook: config.getSecret("chatWebhook") ?? "https://chat.example.com/hooks/acme-platform",
  branchesToBeNotified: "default_and_protected",
  notifyOnlyBrokenPipelines: true,
  pipelineEvents: true,
  pipelineChannel: config.getSecret("chatPipelineWebhook") ?? "https://chat.example.com/hooks/acme-pipelines",
  noteEvents: false,
});

/** The changes of each push to the default and protected branches, by e-mail. */
const pushEmails = new forge.GroupIntegrationEmailsOnPush("acme-push-emails", {
  group,
  recipients: "platform-team@example.com release-managers@example.com",
  branchesToBeNotified: "default_and_protected",
  disableDiffs: false,
});

/**
 * Pipeline and job traces to the monitoring service. Its API key is stack config, set as a
 * secret: `pulumi config set --secret monitoringApiKey <key>` (the demo sets one). Without it,
 * a placeholder that the emulator accepts.
 */
const monitoring = new forge.GroupIntegrationMonitoring("acme-monitoring", {
  group,
  apiKey: config.getSecret("monitoringApiKey") ?? pulumi.secret("placeholder-monitoring-api-key"),
  vendorSite: "eu",
  vendorEnv: "production",
  vendorService: "acme-platform",
  vendorTags: "team:platform\ncost-center:engineering",
  archiveTraceEvents: true,
});

/** The slugs of the integrations the program keeps active (credentials stay out of the outputs). */
export const groupIntegrations = pulumi.all([chatNotifications.slug, pushEmails.slug, monitoring.slug]);
