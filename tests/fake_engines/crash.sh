#!/usr/bin/env bash
# A test engine that shakes hands properly and then dies when asked to think.
while read -r line; do
    case "$line" in
        ucci) echo "id name crash"; echo ucciok ;;
        uci) echo "id name crash"; echo uciok ;;
        isready) echo readyok ;;
        go*) exit 3 ;;
        quit) exit 0 ;;
    esac
done
