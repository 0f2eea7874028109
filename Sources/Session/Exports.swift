// A session is the engine's plan and loop plus the outputs of this module: code that runs
// sessions imports `Session` alone.
@_exported import Engine
