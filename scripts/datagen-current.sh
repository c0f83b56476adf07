# The project's current training-data run (docs/data.md), sourced by datagen-background.sh and
# device-datagen.sh so that both play with the same settings: the built-in net's own games
# (s256m since s18), soft node limit 2,000, eight random plies after an opening of the project's
# list. A run on another machine keeps these settings and takes its own seed and name.
current_name=s18
current_seed=18
# (The target, --positions, is the caller's: it is no part of a file's settings.)
current_settings=(--scored --soft-nodes 2000 --openings tests/data/openings.txt --random-plies 8)
