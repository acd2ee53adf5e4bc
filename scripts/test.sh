#!/usr/bin/env bash
# Runs every gopcp test: sets up real PCP as the reference, then vet,
# formatting, and the race-enabled test suite with interop tests required.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup-pcp.sh
go mod download

echo "== go vet"
go vet ./...

echo "== gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then
	echo "gofmt would change:" >&2
	echo "$unformatted" >&2
	exit 1
fi

echo "== go test -race"
# go test's default limit of 10 minutes a package is too short for the
# archive package under -race on a loaded 2-core machine (86-220 s alone,
# over 600 s at load 25); a hung test still ends the run, after 40 minutes.
GOPCP_REQUIRE_PCP=1 go test -race -count=1 -timeout 40m ./...
