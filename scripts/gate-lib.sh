# Functions the resumable matches share (scripts/egtb-elo.sh, scripts/gate-search.sh): sourced,
# not run. ROOT must be the repository's root.

# gate_restore PGN PREFIX: when PGN is missing or empty and docs/gates/ holds PREFIX-NNN.pgn.xz
# parts (scripts/gate-archive.sh's), joins them into PGN, so a match goes on on a new machine.
gate_restore() {
    local pgn=$1 prefix=$2
    if [ -s "$pgn" ] || ! ls "$ROOT"/docs/gates/"$prefix"-[0-9][0-9][0-9].pgn.xz > /dev/null 2>&1; then
        return 0
    fi
    cat "$ROOT"/docs/gates/"$prefix"-[0-9][0-9][0-9].pgn.xz | xz -dc > "$pgn.tmp"
    mv "$pgn.tmp" "$pgn"
    echo "resumed from $(grep -c '^\[Event ' "$pgn") archived games" >&2
}

# gate_archive DIR NAME: compresses DIR's PGNs into docs/gates/NAME-*.pgn.xz (a failure is
# reported, not fatal: the match goes on and the next archive tries again).
gate_archive() {
    GATES="$ROOT/docs/gates" "$ROOT/scripts/gate-archive.sh" "$1" "$2" > /dev/null ||
        echo "warning: archiving $1 into docs/gates failed" >&2
}

# gate_archive_every DIR NAME: gate_archive every ten minutes in the background until the
# calling script exits, and once more then.
gate_archive_every() {
    local dir=$1 name=$2
    (while sleep 600; do gate_archive "$dir" "$name"; done) &
    GATE_ARCHIVER=$!
    trap 'kill $GATE_ARCHIVER 2> /dev/null || true; gate_archive "'"$dir"'" "'"$name"'"' EXIT
}
