"""Support: the errors, the bounds readers check, the shared grammar pieces, frozen
values, long work in seeded chunks, statistics and the version. Imports nothing above."""
