# The project's current training-data run (docs/data.md), sourced by datagen-background.sh and
# device-datagen.sh so that both play with the same settings: the built-in net's own games
# (s256o since s21; with singular extensions since s22; s256p since s24; with the search of
# 2026-11-29 since s25), soft node limit 1,400
# (since s19; 2,000 before: docs/datagen.md), eight random plies after an opening of the
# project's list. A run on another machine keeps these settings and takes its own seed and name.
current_name=s25
current_seed=25
# (The target, --positions, is the caller's: it is no part of a file's settings.)
current_settings=(--scored --soft-nodes 1400 --openings tests/data/openings.txt --random-plies 8)
