// The one barrel below src/index.ts: everything that parses a Zoo API body.
export * from "./apiCall.js";
export * from "./asyncOperation.js";
export * from "./enums.js";
export * from "./error.js";
export * from "./formatOptions.js";
export * from "./primitives.js";
