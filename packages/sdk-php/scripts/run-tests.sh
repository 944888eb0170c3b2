#!/bin/sh
# The package's `test` (turbo runs it in `npm test`): PHPUnit against a real server the bootstrap starts.
# Without php the run is skipped with a loud message; php without phpunit or ext-curl is an error.
set -eu
cd "${0%/*}/.."
if ! command -v php >/dev/null 2>&1; then
  echo "########## @timbre/sdk-php: SKIPPED, no php on this machine (apt-get install -y php-cli php-curl phpunit) ##########" >&2
  exit 0
fi
if ! php -r 'exit(extension_loaded("curl") && extension_loaded("json") ? 0 : 1);'; then
  echo "@timbre/sdk-php: php lacks ext-curl or ext-json: apt-get install -y php-curl" >&2
  exit 1
fi
if ! command -v phpunit >/dev/null 2>&1; then
  echo "@timbre/sdk-php: no phpunit: apt-get install -y phpunit" >&2
  exit 1
fi
exec phpunit
