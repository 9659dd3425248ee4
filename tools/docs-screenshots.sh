#!/usr/bin/env bash
# Takes the documentation's screenshots again: runs the browser tests that take them (DocsScreenshots) and copies the
# images into docs/images/, to be looked at and committed with the change that altered the pages.
set -euo pipefail
cd "$(dirname "$0")/.."
./test.sh --filter "FullyQualifiedName~GlanceBrowserTests.FinishedAndComparedRuns|FullyQualifiedName~SweepBrowserTests"
cp BenchWeb.Tests/bin/Release/net10.0/TestResults/screenshots/docs-*.png docs/images/
ls -l docs/images/
