#!/usr/bin/env bash
# Copyright 2026 The convoy-sharding authors
# SPDX-License-Identifier: Apache-2.0
#
# Builds etcd, kube-apiserver and kubectl for the real-server test tier from the
# versions pinned in apiserver/go.mod and etcd/go.mod (Go toolchain and module proxy only).
#
# The binaries go to ${CONVOY_KUBE_CACHE:-~/.cache/convoy-sharding/kube}/<version-key>/, where
# the key names the pinned releases plus a hash of the go.mod/go.sum files and the Go version:
# built once, reused until a pin changes. A build goes to a temporary directory that is renamed
# into place only when all three binaries are there, so an interrupted build is never taken as
# done. The last line printed on stdout is the directory holding the binaries.
#
# With --check it builds nothing: it prints the directory and exits 0 when the binaries are
# built, and exits 4 when they are not (the demo commands use it, so as never to start a build).
#
# Exit codes: 0 built or cached; 3 no Go toolchain on the PATH; 4 not built (--check only);
# anything else a failed build.
set -euo pipefail
check=false
if [[ "${1:-}" == "--check" ]]; then
  check=true
fi
here="$(cd "$(dirname "$0")" && pwd)"

if ! command -v go >/dev/null 2>&1; then
  echo "no Go toolchain on the PATH: install Go 1.26+ to build etcd and kube-apiserver" >&2
  exit 3
fi

kube_version="$(sed -n 's/^\tk8s.io\/kubernetes \(v[^ ]*\).*/\1/p' "$here/apiserver/go.mod" | head -1)"
etcd_version="$(sed -n 's/^\tgo.etcd.io\/etcd\/server\/v3 \(v[^ ]*\).*/\1/p' "$here/etcd/go.mod" | head -1)"
minor="${kube_version#v1.}"; minor="${minor%%.*}"
hash="$( (cat "$here"/apiserver/go.mod "$here"/apiserver/go.sum "$here"/etcd/go.mod "$here"/etcd/go.sum;
  go env GOVERSION GOOS GOARCH) | sha256sum | cut -c1-12)"
cache="${CONVOY_KUBE_CACHE:-$HOME/.cache/convoy-sharding/kube}"
dest="$cache/kube-$kube_version-etcd-$etcd_version-$hash"

if [[ -x "$dest/etcd" && -x "$dest/kube-apiserver" && -x "$dest/kubectl" ]]; then
  echo "$dest"
  exit 0
fi
if $check; then
  echo "etcd $etcd_version, kube-apiserver and kubectl $kube_version are not built in $dest" >&2
  exit 4
fi

mkdir -p "$cache"
# One build at a time per cache: a second caller waits, then finds the binaries built.
exec 9>"$cache/.lock"
flock 9
if [[ -x "$dest/etcd" && -x "$dest/kube-apiserver" && -x "$dest/kubectl" ]]; then
  echo "$dest"
  exit 0
fi
tmp="$(mktemp -d "$cache/.building.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
echo "building etcd $etcd_version, kube-apiserver and kubectl $kube_version into $dest (the first build takes a while)" >&2
start=$SECONDS
export CGO_ENABLED=0 GOFLAGS=-mod=readonly
(cd "$here/etcd" && nice -n 19 go build -trimpath -o "$tmp/etcd" go.etcd.io/etcd/server/v3)
ldflags="-s -w"
for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
  ldflags+=" -X $pkg.gitVersion=$kube_version -X $pkg.gitMajor=1 -X $pkg.gitMinor=$minor"
  ldflags+=" -X $pkg.gitTreeState=clean"
done
(cd "$here/apiserver" && nice -n 19 go build -trimpath -ldflags "$ldflags" -o "$tmp/" \
  k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kubectl)
for bin in etcd kube-apiserver kubectl; do
  [[ -x "$tmp/$bin" ]] || { echo "build produced no $bin" >&2; exit 1; }
done
rm -rf "$dest"
mv "$tmp" "$dest"
trap - EXIT
echo "built in $((SECONDS - start)) s" >&2
echo "$dest"
