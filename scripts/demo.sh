#!/usr/bin/env bash
# The README's main command: declares the example platform (examples/platform) against a local
# forge emulator with the real Pulumi CLI, checks that a refresh finds no drift, and shows the
# result. Idempotent: the emulator's state and the Pulumi backend persist under
# ~/.cache/forge-pulumi/demo, so a second run changes nothing.
#
#   bash scripts/demo.sh           run the demo (the emulator stops when the script ends)
#   bash scripts/demo.sh --serve   ... and keep the emulator running until Ctrl-C, to explore it
#   bash scripts/demo.sh --reset   forget the demo's emulator state and Pulumi stack first
#
# Nothing is written inside the repository: the stack's config file, the backend and the
# emulator's state all live in the demo directory.
set -euo pipefail

serve=false
reset=false
for arg in "$@"; do
  case "$arg" in
    --serve) serve=true ;;
    --reset) reset=true ;;
    -h|--help) sed -n '2,12p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "demo: unknown argument $arg (try --help)" >&2; exit 2 ;;
  esac
done

header() { printf '\n\033[1m==== %s\033[0m\n' "$*"; }

header "Setting up (Node, npm packages, Pulumi CLI, build)"
. "$(dirname "${BASH_SOURCE[0]}")/setup.sh" # cds to the repository root, puts node and pulumi on PATH

DEMO_DIR="$HOME/.cache/forge-pulumi/demo"
STATE_FILE="$DEMO_DIR/emulator-state.json"
BACKEND_DIR="$DEMO_DIR/backend"
STACK_CONFIG="$DEMO_DIR/Pulumi.demo.yaml"
EMULATOR_LOG="$DEMO_DIR/emulator.log"
PROGRAM_DIR="$FORGE_ROOT/examples/platform"
STACK=demo

if $reset; then
  header "Reset: removing $DEMO_DIR"
  rm -rf "$DEMO_DIR"
fi
mkdir -p "$BACKEND_DIR"

# A local backend, no Pulumi Cloud account needed. The passphrase that encrypts the stack's
# secrets is fixed FOR THIS DEMO ONLY: use a real one (or a KMS secrets provider) for real stacks.
export PULUMI_BACKEND_URL="file://$BACKEND_DIR"
export PULUMI_CONFIG_PASSPHRASE="forge-demo-passphrase"
export PULUMI_SKIP_UPDATE_CHECK=true PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true

header "Starting the forge emulator (state: $STATE_FILE)"
node dist/cli/forge-emulator.js --port 0 --state "$STATE_FILE" >"$EMULATOR_LOG" 2>&1 &
emulator_pid=$!
stop_emulator() { kill "$emulator_pid" 2>/dev/null || true; wait "$emulator_pid" 2>/dev/null || true; }
trap stop_emulator EXIT
trap 'exit 130' INT TERM # so that the EXIT trap runs on Ctrl-C too
FORGE_BASE_URL=""
for _ in $(seq 1 100); do
  FORGE_BASE_URL="$(sed -n 's/^Forge emulator listening on \(http[^ ]*\).*/\1/p' "$EMULATOR_LOG")"
  [ -n "$FORGE_BASE_URL" ] && break
  kill -0 "$emulator_pid" 2>/dev/null || { cat "$EMULATOR_LOG" >&2; echo "demo: the emulator did not start" >&2; exit 1; }
  sleep 0.1
done
[ -n "$FORGE_BASE_URL" ] || { cat "$EMULATOR_LOG" >&2; echo "demo: the emulator did not report its address" >&2; exit 1; }
# The provider reads the connection from the environment at run time: the token never reaches the state.
export FORGE_BASE_URL FORGE_TOKEN="forge-root-token" # the seed's administrator (broadcast messages need one)
echo "Emulator at $FORGE_BASE_URL (API at $FORGE_BASE_URL/api/v4), acting as root"

pulumi_() { pulumi --cwd "$PROGRAM_DIR" --non-interactive "$@"; }
stack_() { pulumi_ "$@" --stack "$STACK" --config-file "$STACK_CONFIG"; }

header "Stack $STACK (backend $PULUMI_BACKEND_URL)"
if ! pulumi_ stack ls --json 2>/dev/null | grep -q "\"name\": \"$STACK\""; then
  # `stack init` writes the stack's config file (its encryption salt) next to Pulumi.yaml: do it
  # in a scratch copy of the project and keep the file in the demo directory.
  scratch="$DEMO_DIR/stack-init"
  rm -rf "$scratch" && mkdir -p "$scratch" && cp "$PROGRAM_DIR/Pulumi.yaml" "$scratch/"
  pulumi --cwd "$scratch" --non-interactive stack init "$STACK" --secrets-provider passphrase
  mv "$scratch/Pulumi.$STACK.yaml" "$STACK_CONFIG"
  rm -rf "$scratch"
fi

# The monitoring integration's API key is stack config, encrypted in the stack's config file
# (a made-up key: the emulator accepts any). Set once, so that a second run changes nothing.
if ! stack_ config get monitoringApiKey >/dev/null 2>&1; then
  stack_ config set --secret monitoringApiKey "demo-monitoring-key-$(date +%s)"
fi

header "pulumi up, with the policy pack (policies/) enforced"
# The example exports its agent tokens on purpose, wrapped in pulumi.secret; policies cannot see
# the wrapping, so examples/platform/policy-config.json allows that one output by name.
stack_ up --yes --skip-preview --policy-pack "$FORGE_ROOT/policies" \
  --policy-pack-config "$PROGRAM_DIR/policy-config.json"

header "pulumi refresh (must find no drift)"
if ! stack_ refresh --yes --skip-preview --expect-no-changes; then
  echo >&2
  echo "demo: DRIFT: the forge no longer matches the declared platform (refresh found the changes above)." >&2
  echo "demo: the refresh recorded them in the stack: the next run's 'pulumi up' puts the declared values" >&2
  echo "demo: back; 'bash scripts/demo.sh --reset' starts over from an empty forge." >&2
  exit 1
fi

header "Stack outputs (secrets are masked)"
pulumi_ stack output --stack "$STACK"

if $serve; then
  url="$FORGE_BASE_URL"
else
  url="http://127.0.0.1:8080"
fi
header "Look at the result"
if ! $serve; then
  cat <<EOF
The emulator stops with this script. To explore, rerun with --serve, or start it on the same state:
  node dist/cli/forge-emulator.js --port 8080 --state $STATE_FILE
EOF
fi
cat <<EOF
  curl -s -H 'PRIVATE-TOKEN: forge-root-token' $url/api/v4/groups/acme/labels
  curl -s -H 'PRIVATE-TOKEN: forge-root-token' $url/api/v4/broadcast_messages
  curl -s -H 'PRIVATE-TOKEN: forge-root-token' $url/api/v4/projects/acme%2Fplatform%2Fdeployer/cluster_agents
  curl -s -H 'PRIVATE-TOKEN: forge-root-token' $url/api/v4/projects/acme%2Fplatform%2Fdeployer/protected_environments
  curl -s -H 'PRIVATE-TOKEN: forge-root-token' $url/api/v4/projects/acme%2Fplatform%2Fdeployer/job_token_scope/allowlist
  curl -s -H 'PRIVATE-TOKEN: forge-root-token' $url/api/v4/groups/acme/integrations
  curl -s -H 'PRIVATE-TOKEN: forge-root-token' $url/api/v4/groups/acme/integrations/chat-webhook

The stack's secret outputs (the agent tokens), decrypted:
  PULUMI_BACKEND_URL=$PULUMI_BACKEND_URL PULUMI_CONFIG_PASSPHRASE=$PULUMI_CONFIG_PASSPHRASE \\
    $(command -v pulumi) stack output --show-secrets --cwd $PROGRAM_DIR --stack $STACK agentTokens
EOF

if $serve; then
  header "Emulator running at $FORGE_BASE_URL: Ctrl-C to stop"
  trap 'exit 0' INT TERM
  wait "$emulator_pid" || true
fi
