#!/usr/bin/env bash
# One short game of Chariot against itself in a real GUI: XBoard (variant xiangqi) with each side
# behind uci2wb -x (its UCCI adapter), under a virtual X server. Saves the PGN, XBoard's debug log
# and a screenshot in $OUT (default: target/gui-smoke), and fails unless the game reached a result
# and the log shows no error from the engines.
#
# Usage: scripts/gui-smoke.sh [SECONDS_PER_SIDE]   (default 20, plus 0.1 s a move)
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
for pair in xboard:/usr/games/xboard uci2wb:/usr/games/uci2wb xvfb:/usr/bin/xvfb-run imagemagick:/usr/bin/import; do
    [ -x "${pair#*:}" ] || need+=("${pair%%:*}")
done
if [ ${#need[@]} -gt 0 ]; then
    apt-get update
    apt-get install -y "${need[@]}"
fi

cargo build --release --quiet
engine="$PWD/target/release/chariot"
out="${OUT:-$PWD/target/gui-smoke}"
seconds="${1:-20}"
mkdir -p "$out"
rm -f "$out/game.pgn" "$out/xboard.debug" "$out/board.png"

# Inside the virtual display: run XBoard, take a screenshot every few seconds (the last one shows
# the final position), stop it if it outlives the game.
cat > "$out/inside-x.sh" <<INNER
#!/usr/bin/env bash
/usr/games/xboard -variant xiangqi \\
    -fcp "/usr/games/uci2wb -x $engine" -fn "Chariot (red)" \\
    -scp "/usr/games/uci2wb -x $engine" -sn "Chariot (black)" \\
    -matchGames 1 -tc 0:$seconds -inc 0.1 -ponderNextMove false \\
    -saveGameFile "$out/game.pgn" -debugMode true -nameOfDebugFile "$out/xboard.debug" \\
    -popupExitMessage false -soundMove "" -soundBell "" -size medium 2>/dev/null &
pid=\$!
limit=\$(( 2 * $seconds * 10 + 120 ))
for ((t = 0; t < limit; t++)); do
    kill -0 \$pid 2>/dev/null || break
    sleep 0.5
    (( t % 4 == 0 )) && import -window root "$out/board.png" 2>/dev/null || true
done
kill \$pid 2>/dev/null || true
INNER
chmod +x "$out/inside-x.sh"
xvfb-run -a -s "-screen 0 1024x900x24" "$out/inside-x.sh"

fail=0
result=$(sed -n 's/^\[Result "\(.*\)"\]/\1/p' "$out/game.pgn" 2>/dev/null | tail -n 1)
case "$result" in
    1-0|0-1|1/2-1/2) echo "game over: $result ($(grep -o '{[^}]*} *[-0-9/]*$' "$out/game.pgn" | tail -n 1))" ;;
    *) echo "FAIL: no finished game in $out/game.pgn (result '${result:-none}')"; fail=1 ;;
esac
# Engine-side errors: Chariot's 'error:' lines (uci2wb forwards them), illegal moves, crashes.
# uci2wb's own 'Error (unknown command): black/white' answers to XBoard's protocol-1 colour
# commands are between the GUI and the adapter, and are not counted.
if grep -E "error:|Illegal move|illegal move|xboard: .*crash|exited unexpectedly" "$out/xboard.debug" \
    | grep -v "ALSA" > "$out/errors.txt"; then
    echo "FAIL: errors in the XBoard debug log:"; head -n 20 "$out/errors.txt"; fail=1
fi
plies=$(grep -c "usermove" "$out/xboard.debug" || true)
echo "moves relayed between the engines: $plies; PGN: $out/game.pgn; screenshot: $out/board.png"
exit $fail
