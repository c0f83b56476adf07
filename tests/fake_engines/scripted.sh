#!/usr/bin/env bash
# A test engine that plays the moves given as its arguments, one per `go`, in order, reporting
# score 0; when they run out it answers `nobestmove` (UCCI) or `bestmove (none)` (UCI).
moves=("$@")
next=0
none="nobestmove"
while read -r line; do
    case "$line" in
        ucci) echo "id name scripted"; echo ucciok ;;
        uci) none="bestmove (none)"; echo "id name scripted"; echo uciok ;;
        isready) echo readyok ;;
        go*)
            if [ "$next" -lt "${#moves[@]}" ]; then
                echo "info depth 1 score 0 pv ${moves[$next]}"
                echo "bestmove ${moves[$next]}"
                next=$((next + 1))
            else
                echo "$none"
            fi
            ;;
        quit) exit 0 ;;
    esac
done
