// The assets area's public face: what other areas (utilities) may use.
export { assetFilesInUse } from "./facts.ts";
