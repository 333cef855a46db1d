#!/bin/sh
# Ready: this node answers, sees the whole cluster (cluster_state:ok), and is a master or a
# replica whose link to its master is up. A drain (maxUnavailable: 1) waits for this before
# it takes the next pod: never a master and its only replica, never a replica still syncing.
# The password comes from REDISCLI_AUTH (the redis-auth Secret), never the command line.
cli() { redis-cli -p "${REDIS_PORT:-6379}" "$@" | tr -d '\r'; }
[ "$(cli ping)" = PONG ] || exit 1
cli cluster info | grep -qx 'cluster_state:ok' || exit 1
cli info replication | grep -Eqx 'role:master|master_link_status:up'
