#!/usr/bin/env bash
# A test engine that writes every `go` line it receives to the file named by its first argument,
# then plays the moves given as its other arguments, one per `go` (score 0); when they run out it
# answers `nobestmove` (UCCI) or `bestmove (none)` (UCI).
log="$1"
shift
moves=("$@")
next=0
none="nobestmove"
while read -r line; do
    case "$line" in
        ucci) echo "id name go-log"; echo ucciok ;;
        uci) none="bestmove (none)"; echo "id name go-log"; echo uciok ;;
        isready) echo readyok ;;
        go*)
            echo "$line" >> "$log"
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
