#!/bin/sh
# Runs a command (a Bun process of Timbre's: the server, the sandbox SII, a test run) with the runtime settings
# Timbre's processes start with; a value already in the environment wins. Both are read when the process starts,
# so they cannot be set from inside it (README, "Memory"; bench/RESULTS.md §6, "2026-11-27, fourth session"):
# - MIMALLOC_PURGE_DELAY=-1: Bun's allocator keeps the memory it frees for reuse instead of handing it back to the OS
#   100 ms later and faulting it in again; on a VM where page faults and TLB flushes are dear that cost a third of
#   every process's CPU under load. RSS stays at its peak.
# - BUN_JSC_useFTLJIT=false: JavaScriptCore stops at its DFG tier; the FTL tier went on recompiling under steady load
#   (its compiler threads 7-8 % of the machine) and did not pay that back.
# - BUN_JSC_forceRAMSize=600000000: JavaScriptCore sizes its heap's growth by the machine's RAM (on a large host it
#   lets the heap double between collections, and RSS follows); sized as a small container's, it collects sooner and
#   a server under heavy load stays under 300 MB at the same rate. A larger value trades memory for fewer collections.
# - --max-http-header-size (through BUN_OPTIONS): Bun's parser answers a bare 431 to headers over its limit before
#   the server sees them; raised far above the server's own limit (16 KiB, `http/header-limit.ts`), so that the
#   server answers with the API's error envelope.
export MIMALLOC_PURGE_DELAY="${MIMALLOC_PURGE_DELAY:--1}"
export BUN_JSC_useFTLJIT="${BUN_JSC_useFTLJIT:-false}"
export BUN_JSC_forceRAMSize="${BUN_JSC_forceRAMSize:-600000000}"
case "${BUN_OPTIONS:-}" in
  *--max-http-header-size*) ;;
  *) export BUN_OPTIONS="--max-http-header-size=1048576${BUN_OPTIONS:+ $BUN_OPTIONS}" ;;
esac
exec "$@"
