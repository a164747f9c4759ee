#!/usr/bin/env bash
# Everything the demo and the tests need, idempotent: Node >= 22, npm packages, the Pulumi CLI,
# and the compiled library. Source it (`. scripts/setup.sh`) so that PATH carries over.
#
# Sourced, the work runs in a child bash under `set -euo pipefail`, and the calling shell takes
# only its exports and the repository root as its directory: its own options stay as they were,
# so a failing command later does not close an interactive terminal, and a failed set-up
# returns 1 instead of exiting the shell.
if [ "${BASH_SOURCE[0]}" != "$0" ] && [ -z "${FORGE_SETUP_EXPORTS:-}" ]; then
  forge_setup_exports="$(mktemp)"
  if FORGE_SETUP_EXPORTS="$forge_setup_exports" bash "${BASH_SOURCE[0]}"; then
    . "$forge_setup_exports"
    rm -f "$forge_setup_exports"
    unset forge_setup_exports
    cd "$FORGE_ROOT" && hash -r
    return 0
  fi
  rm -f "$forge_setup_exports"
  unset forge_setup_exports
  echo "setup.sh: the set-up failed (above); this shell is unchanged" >&2
  return 1
fi
set -euo pipefail
FORGE_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export FORGE_ROOT
cd "$FORGE_ROOT"
. scripts/ensure-node.sh
export npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false

step() { printf '\n==> %s\n' "$*" >&2; }

step "node $(node --version) at $(command -v node)"

# Reinstall packages only when the lock file changed since the last install.
stamp="node_modules/.forge-installed"
if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ] || [ package.json -nt "$stamp" ]; then
  step "npm ci"
  npm ci --no-audit --no-fund --loglevel=error >&2
  touch "$stamp"
fi
# Programs in examples/ and test stacks resolve `pulumi-forge` the way a user's program does.
ln -sfn .. node_modules/pulumi-forge

step "Pulumi CLI"
# PULUMI_VERSION (default 3.259.0, the oldest supported) and PULUMI_YAML_VERSION (default 1.25.0)
# choose the CLI and the YAML language host; the tests read the same variables.
bash scripts/install-pulumi.sh >/dev/null
# Pulumi YAML programs (examples/yaml, the YAML end-to-end tests) need its language host beside the
# CLI: a directory of links per pair of versions (see that script), the one every command here uses.
PULUMI_BIN="$(bash scripts/install-pulumi-yaml.sh | tail -n 1)"
# The tests find the same directory from PULUMI_VERSION and PULUMI_YAML_VERSION
# (test/support/pulumi-paths.ts): nothing else to export, so no stale path outlives a change of version.
export PATH="$PULUMI_BIN:$PATH"
export PULUMI_SKIP_UPDATE_CHECK=true PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true
step "$(pulumi version) at $PULUMI_BIN, pulumi-language-yaml $(cat "$PULUMI_BIN/.pulumi-language-yaml.version")"

step "tsc"
# A clean build: tsc never deletes output whose source is gone, and a stale dist/provider/lookups.js
# once shadowed the lookups/ folder (require resolves the file first). The build takes seconds.
rm -rf dist
# package.json's build: tsc, then the declarations node10 projects read (typesVersions: scripts/node10-types.ts).
npm run --silent build >&2

step "the provider plugin's executable for this machine"
# What the engine layers run (test/support/plugin-under-test.ts); Bun from the npm registry, cached.
# A platform without one runs them on the Node launcher (FORGE_TEST_PLUGIN=node).
bash scripts/plugin-build.sh --host >&2 || echo "setup.sh: no executable of the plugin for this machine: run the tests with FORGE_TEST_PLUGIN=node" >&2

step "SDKs (Python, Go) from the plugin's schema"
bash scripts/gen-sdks.sh >/dev/null

# For the sourcing shell (above): what this run exported, as lines it sources.
if [ -n "${FORGE_SETUP_EXPORTS:-}" ]; then
  for name in FORGE_ROOT PATH npm_config_update_notifier npm_config_fund npm_config_audit \
    PULUMI_SKIP_UPDATE_CHECK PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION; do
    printf 'export %s=%q\n' "$name" "${!name}"
  done >"$FORGE_SETUP_EXPORTS"
fi
