#!/usr/bin/env bash
# A test engine that shakes hands properly and then answers every `go` with an illegal move
# (a0a5: the red rook is blocked by its own pawn on a3, and Black may not move a red piece).
while read -r line; do
    case "$line" in
        ucci) echo "id name illegal"; echo ucciok ;;
        uci) echo "id name illegal"; echo uciok ;;
        isready) echo readyok ;;
        go*) echo "bestmove a0a5" ;;
        quit) exit 0 ;;
    esac
done
