#!/bin/sh
# Before a node stops (a drain, a rollout): a master first hands its slots to its replica.
# CLUSTER FAILOVER, asked of the replica, waits until the replica has every write the master
# acknowledged, then swaps them: the master's sessions wait well under a second, where a
# master that just went would leave them refused until the cluster notices (the node timeout,
# 5 s) and elects the replica. A replica, or a master without one, stops as it is.
# The password comes from REDISCLI_AUTH (the redis-auth Secret), never the command line.
cli() { redis-cli -p "${REDIS_PORT:-6379}" "$@" | tr -d '\r'; }
cli info replication | grep -qx 'role:master' || exit 0
# "slave0:ip=<address>,port=<port>,state=online,…"
replica=$(cli info replication | sed -n 's/^slave0:ip=\([^,]*\),port=\([0-9]*\),state=online.*/\1 \2/p')
[ -n "$replica" ] || exit 0
set -- $replica
redis-cli -h "$1" -p "$2" cluster failover | tr -d '\r'
tries=0
until cli info replication | grep -qx 'role:slave'; do
  tries=$((tries + 1))
  [ "$tries" -le 40 ] || { echo "the replica did not take over: stopping as master" >&2; exit 0; }
  sleep 0.25
done
echo "handed over to $1:$2"
