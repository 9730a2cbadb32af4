import { OUT_FORMS, parseOut } from "../destination/outUrl.js";
import { ZooUsageError } from "../errors.js";
import type { FlagSetting } from "./flagDefinition.js";

/** --out (or ZOO_USAGE_OUT) as the config holds it: parseOut's form, or a refusal naming the setting. */
export function outLocation(setting: FlagSetting): string {
  const value = String(setting.value);
  // Left empty for the schema to refuse: path.resolve("") would be the working directory.
  if (value === "") return value;
  const parsed = parseOut(value);
  if ("out" in parsed) return parsed.out;
  throw new ZooUsageError({
    code: "config.invalid",
    message: `${setting.name} ${JSON.stringify(value)}: ${parsed.error}`,
    hint: `Give ${OUT_FORMS}. For Google Cloud Storage, use s3:// with its interoperability endpoint (docs/object-storage.md).`,
  });
}
