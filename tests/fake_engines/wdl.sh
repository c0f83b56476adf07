#!/usr/bin/env bash
# A test engine that offers `UCI_ShowWDL` (UCI) or `showwdl` (UCCI), appends every `setoption`
# line it is sent to the file LOG (its first argument), and, once the option is set to true,
# reports the win/draw/loss chances WIN DRAW LOSS (its other arguments) with every score. Its
# moves follow one fixed opening line by ply, as faulty.sh's do; when the line runs out it has no
# move (`nobestmove`, or `bestmove (none)` in UCI).
log=$1
wdl="$2 $3 $4"
line_moves=(h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 b0c2 a9b9)
none=nobestmove
score="score"
show=0
ply=0
while read -r line; do
    case "$line" in
        uci)
            none="bestmove (none)"
            score="score cp"
            echo "id name wdl"
            echo "option name UCI_ShowWDL type check default false"
            echo uciok
            ;;
        ucci)
            echo "id name wdl"
            echo "option showwdl type check default false"
            echo ucciok
            ;;
        setoption*)
            echo "$line" >> "$log"
            lower=${line,,}
            case "$lower" in
                "setoption name uci_showwdl value true" | "setoption showwdl true") show=1 ;;
                "setoption name uci_showwdl value false" | "setoption showwdl false") show=0 ;;
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
            if [ $ply -lt ${#line_moves[@]} ]; then
                if [ $show = 1 ]; then
                    echo "info depth 1 $score 0 wdl $wdl pv ${line_moves[$ply]}"
                else
                    echo "info depth 1 $score 0 pv ${line_moves[$ply]}"
                fi
                echo "bestmove ${line_moves[$ply]}"
            else
                echo "$none"
            fi
            ;;
        quit) exit 0 ;;
    esac
done
