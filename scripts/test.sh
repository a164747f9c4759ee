#!/usr/bin/env bash
# The whole test suite (the README's test command, and what CI runs). Arguments go to vitest:
# `--project <layer>` runs one layer of test/layers.ts (npm run test:<layer> does).
# FORGE_SKIP_ENGINE_TESTS=1 leaves out the layers that drive the real Pulumi CLI, and says so.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
if [ "${FORGE_SKIP_ENGINE_TESTS:-}" = "1" ]; then
  echo "test.sh: FORGE_SKIP_ENGINE_TESTS=1: the engine layers (e2e, consumer, cli, gitops) are not run" >&2
fi
if [ "$#" -eq 0 ] && [ "${FORGE_LANGUAGE_TESTS:-}" != "1" ]; then
  echo "test.sh: the optional languages layer (Python and Go programs through their language hosts) is not run: npm run test:languages runs it" >&2
fi
npx vitest run "$@"
