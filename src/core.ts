// Everything that is not needed to activate: loaded lazily through src/lazy.ts.
export const coreVersion = 1;
