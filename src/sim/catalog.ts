/**
 * Fixed vocabularies the simulated data is drawn from. Enum values are copied from the spec's
 * components.schemas (named next to each list); they are hard-coded rather than read from the spec
 * or from src/api so the simulator stays self-contained.
 */

/** components.schemas.FileImportFormat */
export const FILE_IMPORT_FORMATS = [
  "acis",
  "catia",
  "creo",
  "fbx",
  "gltf",
  "inventor",
  "nx",
  "obj",
  "parasolid",
  "ply",
  "sldprt",
  "step",
  "stl",
] as const;
/** components.schemas.FileExportFormat */
export const FILE_EXPORT_FORMATS = ["fbx", "glb", "gltf", "obj", "ply", "step", "stl"] as const;
/** components.schemas.UnitLength */
export const UNIT_LENGTH = ["cm", "ft", "in", "m", "mm", "yd"] as const;
/** components.schemas.UnitMass */
export const UNIT_MASS = ["g", "kg", "lb"] as const;
/** components.schemas.UnitVolume */
export const UNIT_VOLUME = ["mm3", "cm3", "ft3", "in3", "m3", "yd3", "usfloz", "usgal", "l", "ml"] as const;
/** components.schemas.UnitArea */
export const UNIT_AREA = ["cm2", "dm2", "ft2", "in2", "km2", "m2", "mm2", "yd2"] as const;
/** components.schemas.UnitDensity */
export const UNIT_DENSITY = ["lb:ft3", "kg:m3"] as const;
/** components.schemas.MlFeedback */
export const ML_FEEDBACK = ["thumbs_up", "thumbs_down", "accepted", "rejected"] as const;

/**
 * Tools that call the API; browsers (Zoo Design Studio on the web) also send an Origin. The Rust
 * crates send `<crate name>.rs/<version>` (kittycad.rs and kcl-lib build their reqwest client with
 * that user agent); the Python client (kittycad.py) sends httpx's default, the Go client what its
 * caller names.
 */
export const CLIENT_USER_AGENTS = [
  "zoo-cli/0.2.96",
  "zoo-cli/0.2.101",
  "python-httpx/0.27.2",
  "python-httpx/0.28.1",
  "kittycad.ts/0.7.5",
  "kittycad.rs/0.3.36",
  "kcl-lib.rs/0.2.80",
  "kittycad.go/0.3.1",
  "Go-http-client/1.1",
  "curl/8.5.0",
  "python-requests/2.32.3",
] as const;
export const BROWSER_USER_AGENTS = [
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0",
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) zoo-modeling-app/0.28.0 Chrome/128.0.6613.186 Electron/32.2.5 Safari/537.36",
] as const;
export const BROWSER_ORIGINS = [
  "https://app.zoo.dev",
  "https://zoo.dev",
  "https://text-to-cad.zoo.dev",
] as const;

export const FIRST_NAMES = ["ada", "grace", "linus", "margaret", "alan", "barbara", "ken", "radia", "edsger"];
export const EMAIL_DOMAINS = ["example.com", "example.org", "example.net"] as const;

export const TEXT_TO_CAD_PROMPTS = [
  "a 40mm gear with 20 teeth and a 5mm bore",
  "an L-shaped mounting bracket with two M4 holes",
  "a hex nut for an M8 bolt",
  "a 3x3 lego brick",
  "a phone stand with a 60 degree viewing angle",
  "a flange with 6 bolt holes on a 100mm circle",
  "a pipe elbow, 90 degrees, 25mm inner diameter",
] as const;
export const ITERATION_PROMPTS = [
  "make the walls 2mm thicker",
  "add a 1mm fillet to all edges",
  "double the number of teeth",
  "move the holes 5mm further apart",
  "make it hollow",
] as const;
export const MODEL_VERSIONS = ["v0.4.2", "v0.5.0", "v0.5.3", "v0.6.1"] as const;
export const KCL_VERSIONS = ["0.2.63", "0.2.71", "0.2.80"] as const;
export const PROJECT_NAMES = ["bracket-assembly", "gearbox", "drone-frame", "desk-organizer"] as const;

/** Texts of failed operations, per family. 4xx-style and specific, like the API's own. */
export const FILE_ERRORS = [
  "the file could not be parsed: unexpected end of STEP data",
  "the file could not be parsed: invalid OBJ vertex at line 1182",
  "unsupported entity in source file: B_SPLINE_SURFACE_WITH_KNOTS",
  "the model has no closed volume",
  "conversion timed out after 600 seconds",
] as const;
export const TEXT_TO_CAD_ERRORS = [
  "The prompt must clearly describe a CAD model",
  "failed to generate valid KCL: sketch is not closed",
  "the model took too long to generate",
] as const;
