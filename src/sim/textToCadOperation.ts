import {
  FILE_EXPORT_FORMATS,
  ITERATION_PROMPTS,
  KCL_VERSIONS,
  ML_FEEDBACK,
  MODEL_VERSIONS,
  PROJECT_NAMES,
  TEXT_TO_CAD_PROMPTS,
} from "./catalog.js";
import { fileBytes } from "./fakeFiles.js";
import { derivedUuid } from "./identity.js";
import { hash32, Mulberry32, pick, unit } from "./random.js";
import { SALT } from "./salts.js";
import type { OperationStatus, OperationType } from "./types.js";

/**
 * The variant-specific fields of text_to_cad, text_to_cad_iteration and
 * text_to_cad_multi_file_iteration (spec AsyncApiCallOutput). Code, outputs and feedback appear only
 * once the operation completed.
 */
export function textToCadFields(
  seed: number,
  i: number,
  type: OperationType,
  status: OperationStatus,
): Record<string, unknown> {
  const done = status === "completed";
  const common = {
    conversation_id: derivedUuid(seed, i, SALT.opConversation),
    model_version: pick(MODEL_VERSIONS, seed, i, SALT.opModel),
    feedback:
      done && unit(seed, i, SALT.opFeedback) < 0.3 ? pick(ML_FEEDBACK, seed, i, SALT.opFeedback + 1) : null,
  };
  const original = kcl(seed, i, 0);
  const revised = kcl(seed, i, 1);

  if (type === "text_to_cad") {
    // Same draws as callFacts.requestOf, so the operation repeats the call's /ai/text-to-cad/{format}.
    const outputFormat = pick(FILE_EXPORT_FORMATS, seed, i, SALT.outFormat);
    const kclModel = (hash32(seed, i, SALT.queryVariant) & 1) === 1;
    const outputs: Record<string, string> = {};
    if (done) {
      const rng = new Mulberry32(hash32(seed, i, SALT.opFiles));
      outputs[`source.${outputFormat}`] = fileBytes(outputFormat, rng).toString("base64");
      outputs["source.kcl"] = Buffer.from(revised).toString("base64");
    }
    return {
      ...common,
      prompt: pick(TEXT_TO_CAD_PROMPTS, seed, i, SALT.opPrompt),
      model: kclModel ? "kcl" : "cad",
      output_format: outputFormat,
      code: done && kclModel ? revised : null,
      kcl_version: done ? pick(KCL_VERSIONS, seed, i, SALT.opModel + 1) : null,
      outputs,
    };
  }

  const prompt =
    unit(seed, i, SALT.opPrompt) < 0.3 ? null : pick(ITERATION_PROMPTS, seed, i, SALT.opPrompt + 1);
  const multiFile = type === "text_to_cad_multi_file_iteration";
  const ranges = sourceRanges(seed, i, original, multiFile);
  if (!multiFile) {
    return {
      ...common,
      model: "kcl_iteration",
      prompt,
      original_source_code: original,
      // Required by the spec; the server stores the code it was given until the iteration finishes.
      code: done ? revised : original,
      source_ranges: ranges,
    };
  }
  // Multi-file outputs are plain text KCL, not base64 (spec: additionalProperties without format byte).
  const outputs: Record<string, string> = done
    ? { "main.kcl": revised, "parts/bracket.kcl": kcl(seed, i, 2) }
    : {};
  return {
    ...common,
    model: "kcl_iteration",
    prompt,
    project_name:
      unit(seed, i, SALT.opProject) < 0.4 ? null : pick(PROJECT_NAMES, seed, i, SALT.opProject + 1),
    kcl_version: done ? pick(KCL_VERSIONS, seed, i, SALT.opModel + 1) : null,
    source_ranges: ranges,
    outputs,
  };
}

/** A small KCL program whose numbers vary with (seed, i, revision). */
function kcl(seed: number, i: number, revision: number): string {
  const h = hash32(seed, i * 4 + revision, SALT.opRanges + 7);
  const radius = 5 + (h % 40);
  const length = 2 + ((h >>> 8) % 30);
  const holes = 2 + ((h >>> 16) % 6);
  return [
    `// ${pick(TEXT_TO_CAD_PROMPTS, seed, i, SALT.opPrompt)}`,
    `radius = ${radius}`,
    `thickness = ${length}`,
    "sketch001 = startSketchOn(XY)",
    "  |> circle(center = [0, 0], radius = radius)",
    `  |> patternCircular2d(instances = ${holes}, center = [0, 0], arcDegrees = 360)`,
    "part001 = extrude(sketch001, length = thickness)",
    revision > 0 ? "  |> fillet(radius = 1, tags = [getNextAdjacentEdge(seg01)])" : "",
    "",
  ].join("\n");
}

/** spec SourceRangePrompt: a prompt applied to a range of lines; `file` only for multi-file. */
function sourceRanges(seed: number, i: number, code: string, multiFile: boolean): Record<string, unknown>[] {
  const lineCount = code.split("\n").length - 1;
  const count = 1 + (hash32(seed, i, SALT.opRanges) % 2);
  return Array.from({ length: count }, (_, k) => {
    const start = hash32(seed, i * 2 + k, SALT.opRanges + 1) % lineCount;
    const end = Math.min(lineCount, start + 1 + (hash32(seed, i * 2 + k, SALT.opRanges + 2) % 3));
    const range = { start: { line: start, column: 0 }, end: { line: end, column: 0 } };
    const prompt = pick(ITERATION_PROMPTS, seed, i * 2 + k, SALT.opRanges + 3);
    return multiFile
      ? { prompt, range, file: k === 0 ? "main.kcl" : "parts/bracket.kcl" }
      : { prompt, range };
  });
}
