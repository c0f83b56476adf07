#!/usr/bin/env bash
# A test engine that plays the moves given as its arguments, one per `go`, in order, reporting
# score 0; when they run out it answers `nobestmove` (UCCI) or `bestmove (none)` (UCI). A first
# argument `log=FILE` appends every `go` line it receives to FILE.
log=
if [[ "${1:-}" == log=* ]]; then
    log="${1#log=}"
    shift
fi
moves=("$@")
next=0
none="nobestmove"
while read -r line; do
    case "$line" in
        ucci) echo "id name scripted"; echo ucciok ;;
        uci) none="bestmove (none)"; echo "id name scripted"; echo uciok ;;
        isready) echo readyok ;;
        go*)
            [ -n "$log" ] && echo "$line" >> "$log"
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
