#!/usr/bin/env bash
# Binds a Pulumi package schema with Pulumi's own Go binder (pkg/v3 codegen/schema, the code the
# engine and `pulumi package` use), so that a schema generated from the declarations is known to
# load: `bash scripts/check-schema.sh provider/plugin/schema.json` prints "ok <name> <resources>
# <functions>" or the binder's diagnostics and exits 1.
# The checker is built once under ~/.cache/forge-pulumi/schema-check-<version> (a wrapper module
# like the one the CLI is built from: scripts/install-pulumi.sh), from the Go module proxy.
set -euo pipefail
V=3.259.0
SCHEMA="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/schema-check" && pwd)"
DIR="$HOME/.cache/forge-pulumi/schema-check-$V"
GO="$(command -v go 2>/dev/null || echo /usr/local/go/bin/go)"
export GOTOOLCHAIN=local GOWORK=off
unset GOFLAGS
if [ ! -x "$DIR/check" ] || [ "$SRC/main.go" -nt "$DIR/check" ]; then
  mkdir -p "$DIR"
  cp "$SRC/main.go" "$DIR/main.go"
  CLI_WRAPPER="$HOME/.cache/forge-pulumi/build-$V/cli"
  if [ -f "$CLI_WRAPPER/go.mod" ]; then
    # The CLI's wrapper already resolved pkg/v3 with its replaces.
    sed 's#^module .*#module forge.local/schema-check#' "$CLI_WRAPPER/go.mod" >"$DIR/go.mod"
    cp "$CLI_WRAPPER/go.sum" "$DIR/go.sum"
  else
    printf 'module forge.local/schema-check\n\ngo 1.25.11\n\nrequire github.com/pulumi/pulumi/pkg/v3 v%s\n' "$V" >"$DIR/go.mod"
    (cd "$DIR" && "$GO" mod tidy) >&2
  fi
  (cd "$DIR" && GOFLAGS=-mod=mod "$GO" build -o "$DIR/check" .) >&2
fi
exec "$DIR/check" "$SCHEMA"
