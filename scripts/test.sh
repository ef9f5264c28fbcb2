#!/usr/bin/env bash
# The README's test command (`npm test`): the whole suite, with the browser tests (test/e2e) in a
# process of their own. After the rest of the suite, the shared process holds about a thousand
# descriptors, and twice in clean-clone CI runs a browser test's fresh server lost its listening
# socket mid-file while its pooled connections still answered (test/e2e/listenerState.ts reported
# `listening: false`, `fetched: 200`): a descriptor closed twice somewhere in the test process
# (not in src/: nothing there closes a descriptor it did not open; never seen with the file run
# alone). Given files, it runs just those.
set -u
if [ "$#" -gt 0 ]; then exec bun test "$@"; fi
status=0
bun test --path-ignore-patterns 'test/e2e/**' || status=$?
bun test ./test/e2e || status=$?
exit "$status"
