#!/bin/sh
# The package's `test` (turbo runs it in `npm test`): pytest against a real server the session starts.
# Without any python3 the run is skipped with a loud message; a python3 without pytest is an error.
set -eu
cd "${0%/*}/.."
if ! command -v python3 >/dev/null 2>&1; then
  echo "########## @timbre/sdk-python: SKIPPED, no python3 on this machine (apt-get install -y python3-pytest) ##########" >&2
  exit 0
fi
for python in python3 /usr/bin/python3; do
  if command -v "$python" >/dev/null 2>&1 && "$python" -c "import pytest" >/dev/null 2>&1; then
    # -p no:cacheprovider: leave no .pytest_cache behind in the work tree.
    exec "$python" -m pytest -p no:cacheprovider -q -rs tests
  fi
done
echo "@timbre/sdk-python: python3 has no pytest: apt-get install -y python3-pytest" >&2
exit 1
