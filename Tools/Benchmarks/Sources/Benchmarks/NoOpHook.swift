import ConfigClient

/// A hook that implements no stage: the defaults run (benchmarks 9 and 17).
struct NoOpHook: ConfigDirectorHook {}
