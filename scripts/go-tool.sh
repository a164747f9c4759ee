#!/usr/bin/env bash
# Runs one of the project's small Go tools (scripts/<tool>/main.go) over Pulumi's own Go packages
# (pkg/v3 of the CLI's release: its schema binder, its SDK generators), building it once under
# ~/.cache/forge-pulumi/<tool>-<version> from the Go module proxy, like the CLI
# (scripts/install-pulumi.sh): `bash scripts/go-tool.sh <tool> <args>...`.
set -euo pipefail
V=3.259.0
TOOL="$1"
shift
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/$TOOL" && pwd)"
DIR="$HOME/.cache/forge-pulumi/$TOOL-$V"
GO="$(command -v go 2>/dev/null || echo /usr/local/go/bin/go)"
export GOTOOLCHAIN=local GOWORK=off
unset GOFLAGS
if [ ! -x "$DIR/$TOOL" ] || [ "$SRC/main.go" -nt "$DIR/$TOOL" ]; then
  mkdir -p "$DIR"
  cp "$SRC/main.go" "$DIR/main.go"
  CLI_WRAPPER="$HOME/.cache/forge-pulumi/build-$V/cli"
  if [ -f "$CLI_WRAPPER/go.mod" ]; then
    # The CLI's wrapper already resolved pkg/v3 with its replaces.
    sed "s#^module .*#module forge.local/$TOOL#" "$CLI_WRAPPER/go.mod" >"$DIR/go.mod"
    cp "$CLI_WRAPPER/go.sum" "$DIR/go.sum"
  else
    printf 'module forge.local/%s\n\ngo 1.25.11\n\nrequire github.com/pulumi/pulumi/pkg/v3 v%s\n' "$TOOL" "$V" >"$DIR/go.mod"
    (cd "$DIR" && "$GO" mod tidy) >&2
  fi
  (cd "$DIR" && GOFLAGS=-mod=mod "$GO" build -o "$DIR/$TOOL" .) >&2
fi
exec "$DIR/$TOOL" "$@"
