#!/usr/bin/env bash
# A test engine that shakes hands properly and then sleeps far past any clock before moving.
while read -r line; do
    case "$line" in
        ucci) echo "id name sleepy"; echo ucciok ;;
        uci) echo "id name sleepy"; echo uciok ;;
        isready) echo readyok ;;
        go*) sleep 2; echo "bestmove h2e2" ;;
        quit) exit 0 ;;
    esac
done
