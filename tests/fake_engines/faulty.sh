#!/usr/bin/env bash
# A test engine that misbehaves as MODE (its first argument) says. When it moves, its moves follow
# one fixed opening line by ply, so two of them play legal games with either colour; when the line
# runs out it has no move (`nobestmove`, or `bestmove (none)` in UCI).
#
#   good         behaves
#   flood        answers `go` with an endless stream of `info` lines
#   endless      answers `go` with one endless line (no line break, ever)
#   stall-go     never answers `go`
#   garbled      answers `go` with a `bestmove` line that is not UTF-8
#   legacy       behaves, but its `id author` and `info string` lines are in GBK, not UTF-8
#   crash-later  plays its first move, then exits (status 3) at the next `go`
#   stall-hello  never answers the handshake, and ignores `quit`
#   flood-hello  answers the handshake with an endless stream of lines
#
# With a second argument MARKER (a file), the first start creates MARKER and behaves; later
# starts misbehave. The first start is the match's trial start, so the fault strikes in a game.
mode=$1
if [ -n "$2" ] && [ ! -e "$2" ]; then
    : > "$2"
    mode=good
fi
case "$mode" in
    stall-hello) while read -r _; do :; done; exit 0 ;;
    flood-hello) exec yes "id name flood" ;;
esac
line_moves=(h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 b0c2 a9b9)
none=nobestmove
ply=0
goes=0
while read -r line; do
    case "$line" in
        ucci | uci)
            [ "$line" = uci ] && none="bestmove (none)"
            echo "id name faulty-$mode"
            [ "$mode" = legacy ] && printf 'id author \xc0\xee\n'
            echo "${line}ok"
            ;;
        isready) echo readyok ;;
        position*)
            ply=0
            seen=0
            for word in $line; do
                [ $seen = 1 ] && ply=$((ply + 1))
                [ "$word" = moves ] && seen=1
            done
            ;;
        go*)
            goes=$((goes + 1))
            case "$mode" in
                flood) exec yes "info depth 1 score 0 nodes 1 pv h2e2" ;;
                endless) exec cat /dev/zero ;;
                stall-go) continue ;;
                garbled) printf 'bestmove \377\376\n'; continue ;;
                crash-later) [ $goes -ge 2 ] && exit 3 ;;
                legacy) printf 'info string \xc4\xe3\xba\xc3\n' ;;
            esac
            if [ $ply -lt ${#line_moves[@]} ]; then
                echo "info depth 1 score 0 pv ${line_moves[$ply]}"
                echo "bestmove ${line_moves[$ply]}"
            else
                echo "$none"
            fi
            ;;
        quit) exit 0 ;;
    esac
done
