#!/bin/sh
# One node of the Redis Cluster (k8s/overlays/production; README: Deploying, Production).
# Its identity is its pod's stable name, REDIS_ANNOUNCE_HOSTNAME (redis-cluster-0.redis-cluster…),
# and its node id in nodes.conf on its volume: a pod that comes back is the same node, with
# its slots or its master. Its peers' addresses are looked up again by their names first, so
# a cluster whose pods all came back on new addresses finds itself (their old addresses in
# nodes.conf lead nowhere, and Redis has no other way to find them).
# The password reaches redis-server on its standard input (a here-document), never on its
# command line. REDIS_PORT and REDIS_DATA_DIR are for a run outside Kubernetes (the tests).
set -eu
: "${REDIS_PASSWORD:?the redis-auth Secret}"
: "${REDIS_ANNOUNCE_HOSTNAME:?the stable name of this pod}"
port=${REDIS_PORT:-6379}
data=${REDIS_DATA_DIR:-/data}
here=$(cd "$(dirname "$0")" && pwd)

nodes="$data/nodes.conf"
if [ -s "$nodes" ]; then
  # a node's line reads "<id> <ip>:<port>@<bus port>,<hostname>[,aux…] <flags> …"
  awk '{
    n = split($2, at, ","); host = at[2]
    if (host != "") {
      address = ""
      lookup = "getent hosts " host
      if ((lookup | getline line) > 0) { split(line, found, " "); address = found[1] }
      close(lookup)
      if (address != "") {
        port = at[1]; sub(/^.*:/, "", port)  # <port>@<bus port>
        $2 = address ":" port
        for (i = 2; i <= n; i++) $2 = $2 "," at[i]
      }
    }
    print
  }' "$nodes" > "$nodes.new" && mv "$nodes.new" "$nodes"
fi

exec redis-server - <<EOF
include $here/redis.conf
port $port
dir $data
cluster-announce-hostname $REDIS_ANNOUNCE_HOSTNAME
masterauth $REDIS_PASSWORD
requirepass $REDIS_PASSWORD
EOF
