// Everything that parses a Zoo API body, behind one import.
export * from "./apiCall.js";
export * from "./asyncOperation.js";
export * from "./balance.js";
export * from "./directory.js";
export * from "./enums.js";
export * from "./error.js";
export * from "./formatOptions.js";
export * from "./invoice.js";
export * from "./primitives.js";
