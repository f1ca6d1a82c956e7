#!/usr/bin/env bash
# timed.sh NAME COMMAND…: runs COMMAND, then prints how long it took ("time: NAME N s"); exits with its status.
name=$1; shift
start=$SECONDS
"$@"
status=$?
echo "time: $name $((SECONDS - start)) s"
exit $status
