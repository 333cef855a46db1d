#!/bin/sh
# Forms the Redis Cluster once (the redis-cluster-create Job), and does nothing to one that
# exists: run it again and again. REDIS_CLUSTER_NODES names every node as host:port;
# redis-cli makes half of them masters, each with a replica (on another host where it can).
# The password comes from REDISCLI_AUTH (the redis-auth Secret), never the command line.
#
#  * no node knows another yet: wait until each answers, then
#    redis-cli --cluster create … --cluster-replicas 1
#  * the cluster exists: wait until it is whole (cluster_state:ok); a node that knows no one
#    (its pod came back with a new, empty volume) joins as a replica of the master that has
#    the fewest
#  * some nodes know each other but the cluster never becomes whole: fail loudly (a create
#    cut short; see README, Deploying, Production: redis-cli --cluster fix)
set -eu
: "${REDISCLI_AUTH:?the redis-auth Secret}"
: "${REDIS_CLUSTER_NODES:?host:port of every node}"
WAIT_SECONDS=${WAIT_SECONDS:-600}

cli() { host=${1%:*} port=${1##*:}; shift; redis-cli -h "$host" -p "$port" "$@" 2>/dev/null | tr -d "\r"; }
field() { cli "$1" cluster info | sed -n "s/^$2://p"; }
# CLUSTER MEET takes addresses, not names: each node's name, looked up now
address() {
  ip=$(getent hosts "${1%:*}" | awk '{ print $1; exit }')
  [ -n "$ip" ] || { echo "cannot resolve ${1%:*}" >&2; exit 1; }
  echo "$ip:${1##*:}"
}
# The node a pod was before it lost its volume: failing, under the same name (its address
# may be gone: "noaddr"). Every other node forgets it (within CLUSTER FORGET's minute), or it
# stays listed as failed for good.
forget_the_node_it_was() {
  name=$(cli "$1" config get cluster-announce-hostname | sed -n 2p)
  for peer in $REDIS_CLUSTER_NODES; do
    if [ "$peer" = "$1" ]; then continue; fi
    # "<id> <ip>:<port>@<bus port>,<hostname>… <flags> …"
    for ghost in $(cli "$peer" cluster nodes | awk -v host="$name" '{
        split($2, at, ","); if (at[2] == host && $3 ~ /fail/) print $1 }'); do
      echo "forgetting $ghost on $peer"
      cli "$peer" cluster forget "$ghost" >/dev/null
    done
  done
}
waited=0
tick() {
  [ "$waited" -lt "$WAIT_SECONDS" ] || { echo "gave up after ${WAIT_SECONDS}s: $1" >&2; exit 1; }
  sleep 2; waited=$((waited + 2))
}

for node in $REDIS_CLUSTER_NODES; do
  until [ "$(cli "$node" ping)" = PONG ]; do tick "$node does not answer"; done
done

formed=""
for node in $REDIS_CLUSTER_NODES; do
  if [ "$(field "$node" cluster_known_nodes)" -gt 1 ]; then formed=$node; fi
done
if [ -z "$formed" ]; then
  addresses=""
  for node in $REDIS_CLUSTER_NODES; do addresses="$addresses $(address "$node")"; done
  echo "creating the cluster of$addresses"
  # shellcheck disable=SC2086 # one argument per node
  redis-cli --cluster create $addresses --cluster-replicas 1 --cluster-yes
else
  for node in $REDIS_CLUSTER_NODES; do
    if [ "$(field "$node" cluster_known_nodes)" -eq 1 ]; then
      echo "$node knows no one (a new, empty volume): it joins as a replica"
      forget_the_node_it_was "$node"
      redis-cli --cluster add-node "$(address "$node")" "$(address "$formed")" --cluster-slave
    fi
  done
fi

for node in $REDIS_CLUSTER_NODES; do
  until [ "$(field "$node" cluster_state)" = ok ]; do tick "$node: the cluster is not whole"; done
done
set -- $REDIS_CLUSTER_NODES
echo "the cluster is whole: $(field "$1" cluster_known_nodes) nodes"
