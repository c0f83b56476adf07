//! Search: iterative deepening, PVS, MTD(f), quiescence, ordering, TT, time, threads.
