/**
 * A runbook kept as a snippet: several files, changed as a set. Renaming a file whose content
 * stays the same is a move on the forge; the rest are creates, updates and deletes, computed
 * from what the program last applied. Internal: every signed-in user can read it (keep
 * credentials out; the policy pack checks public snippets).
 */
import * as forge from "pulumi-forge";

export const runbook = new forge.Snippet("on-call-runbook", {
  title: "On-call runbook",
  description: "What to do when the forge pages you.",
  visibility: "internal",
  files: [
    { filePath: "README.md", content: "# On call\n\nStart with `checks/health.sh`, then follow `escalation.md`.\n" },
    { filePath: "checks/health.sh", content: "#!/bin/sh\ncurl -fsS https://forge.example.com/-/readiness\n" },
    { filePath: "escalation.md", content: "1. Page the secondary.\n2. Open an incident.\n" },
  ],
});

export const runbookUrl = runbook.webUrl;
