#!/usr/bin/env bash
# One short game of Chariot against itself in a real GUI: XBoard (variant xiangqi) with each side
# behind uci2wb -x (its UCCI adapter), under a virtual X server. Saves the PGN, XBoard's debug log
# and a screenshot taken while the game is on the board in $OUT (default: target/gui-smoke), and
# fails unless the game reached a result, the log shows no error from the engines, and the
# screenshot shows the board with pieces on it (not a blank or black screen).
#
# Usage: scripts/gui-smoke.sh [SECONDS_PER_SIDE]   (default 20, plus 0.1 s a move)
# ENGINE=PATH runs another engine binary instead of this checkout's release build (which is then
# not built): ENGINE=/bin/false shows the script failing.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
for pair in xboard:/usr/games/xboard uci2wb:/usr/games/uci2wb xvfb:/usr/bin/xvfb-run \
    imagemagick:/usr/bin/import imagemagick:/usr/bin/identify; do
    [ -x "${pair#*:}" ] || need+=("${pair%%:*}")
done
if [ ${#need[@]} -gt 0 ]; then
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y "${need[@]}"
fi
# ImageMagick's own programs, not whatever else is first on the PATH under their names.
import=/usr/bin/import
identify=/usr/bin/identify
convert=/usr/bin/convert

if [ -z "${ENGINE:-}" ]; then
    cargo build --release --quiet
fi
engine="${ENGINE:-$PWD/target/release/chariot}"
out="${OUT:-$PWD/target/gui-smoke}"
seconds="${1:-20}"
mkdir -p "$out"
rm -f "$out/game.pgn" "$out/xboard.debug" "$out/board.png" "$out/shot.png"

# Inside the virtual display: run XBoard, and once the engines have made 20 moves between them
# take a screenshot. It is kept as board.png only if XBoard was still running after it was taken
# (otherwise the next try replaces it), so the picture shows the game, not the screen XBoard
# left. Stop XBoard if it outlives the game.
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
    [ -s "$out/board.png" ] && continue
    moves=\$(grep -c "usermove" "$out/xboard.debug" 2>/dev/null || true)
    if (( moves >= 20 )) && $import -window root "$out/shot.png" 2>/dev/null \\
        && kill -0 \$pid 2>/dev/null; then
        mv "$out/shot.png" "$out/board.png"
    fi
done
kill \$pid 2>/dev/null || true
INNER
chmod +x "$out/inside-x.sh"
xvfb-run -a -s "-screen 0 1024x900x24" "$out/inside-x.sh"

fail=0
result=$(sed -n 's/^\[Result "\(.*\)"\]/\1/p' "$out/game.pgn" 2>/dev/null | tail -n 1 || true)
case "$result" in
    1-0|0-1|1/2-1/2) echo "game over: $result ($(grep -o '{[^}]*} *[-0-9/]*$' "$out/game.pgn" | tail -n 1))" ;;
    *) echo "FAIL: no finished game in $out/game.pgn (result '${result:-none}')"; fail=1 ;;
esac
# Engine-side errors: Chariot's 'error:' lines (uci2wb forwards them), illegal moves, crashes.
# uci2wb's own 'Error (unknown command): black/white' answers to XBoard's protocol-1 colour
# commands are between the GUI and the adapter, and are not counted.
if grep -E "error:|Illegal move|illegal move|xboard: .*crash|exited unexpectedly" "$out/xboard.debug" 2>/dev/null \
    | grep -v "ALSA" > "$out/errors.txt"; then
    echo "FAIL: errors in the XBoard debug log:"; head -n 20 "$out/errors.txt"; fail=1
fi
plies=$(grep -c "usermove" "$out/xboard.debug" || true)
echo "moves relayed between the engines: $plies; PGN: $out/game.pgn"

# The screenshot: taken at all, not blank (many colours, real contrast), and the board's wooden
# colour (XBoard's xiangqi board: yellow-brown, red well above blue) covering a good part of
# XBoard's window.
if [ ! -s "$out/board.png" ]; then
    echo "FAIL: no screenshot was taken while the game was on the board"; fail=1
else
    colours=$($identify -format '%k' "$out/board.png")
    spread=$($convert "$out/board.png" -colorspace Gray -format '%[fx:int(1000*standard_deviation)]' info:)
    # The share of the picture, in per mille, whose colour is board-like: clearly more red than
    # blue, bright enough, not grey.
    board=$($convert "$out/board.png" -fx '(r > 0.45 && r - b > 0.15 && g > 0.3) ? 1 : 0' \
        -colorspace Gray -format '%[fx:int(1000*mean)]' info:)
    echo "screenshot: $out/board.png ($colours colours, grey standard deviation $spread/1000, board colour $board/1000 of the screen)"
    if (( colours < 64 || spread < 50 )); then
        echo "FAIL: the screenshot is blank"; fail=1
    elif (( board < 150 )); then
        echo "FAIL: the screenshot shows no xiangqi board"; fail=1
    fi
fi
exit $fail
