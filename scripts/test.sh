#!/usr/bin/env bash
# The whole test suite (the README's test command, and what CI runs).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
npx vitest run "$@"
