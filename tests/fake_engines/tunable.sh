#!/usr/bin/env bash
# A UCI test engine with two tunable options, `Alpha` and `Beta` (spins, 0 to 100), that appends
# every `setoption` line it is sent to the file LOG (its first argument). With Alpha below 50 it
# has no move at all (`bestmove (none)`: it loses at once); otherwise its moves follow one fixed
# opening line by ply, as wdl.sh's do, and when the line runs out it has none. Beta does
# nothing. So of two copies the one with the larger Alpha wins whenever the other's is below 50.
log=$1
line_moves=(h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 b0c2 a9b9)
alpha=50
ply=0
while read -r line; do
    case "$line" in
        uci)
            echo "id name tunable"
            echo "option name Alpha type spin default 50 min 0 max 100"
            echo "option name Beta type spin default 50 min 0 max 100"
            echo uciok
            ;;
        setoption*)
            echo "$line" >> "$log"
            case "$line" in
                "setoption name Alpha value "*) alpha=${line##* } ;;
            esac
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
            if [ "$alpha" -ge 50 ] && [ $ply -lt ${#line_moves[@]} ]; then
                echo "info depth 1 score cp 0 pv ${line_moves[$ply]}"
                echo "bestmove ${line_moves[$ply]}"
            else
                echo "bestmove (none)"
            fi
            ;;
        quit) exit 0 ;;
    esac
done
