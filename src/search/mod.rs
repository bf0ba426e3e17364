//! Search: transposition table, move picking, threat solver, PVS, threads, time, bench.
