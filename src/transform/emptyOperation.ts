import type { OperationRow } from "./operationRow.js";

/** The row for a 404: the call started no operation this user can see. */
export function notFoundOperation(id: string, fetchedAt: string): OperationRow {
  return emptyOperation(id, fetchedAt, "not_found");
}

/**
 * The row for a body that is in `rejects` (with its reason): recorded so that later runs do not ask
 * for it again and end partial each time, as a 404 is. It replaces no stored row
 * (stage_async_operations.sql): an operation stored earlier keeps what it had.
 */
export function rejectedOperation(id: string, fetchedAt: string): OperationRow {
  return emptyOperation(id, fetchedAt, "rejected");
}

function emptyOperation(id: string, fetchedAt: string, fetchStatus: "not_found" | "rejected"): OperationRow {
  return {
    id,
    fetch_status: fetchStatus,
    operation_type: null,
    status: null,
    user_id: null,
    created_at: null,
    started_at: null,
    completed_at: null,
    updated_at: null,
    error: null,
    src_format: null,
    output_format: null,
    output_unit: null,
    result_value: null,
    center_of_mass_x: null,
    center_of_mass_y: null,
    center_of_mass_z: null,
    material_density: null,
    material_density_unit: null,
    material_mass: null,
    material_mass_unit: null,
    model: null,
    model_version: null,
    kcl_version: null,
    feedback: null,
    prompt: null,
    conversation_id: null,
    project_name: null,
    output_count: 0,
    output_bytes: 0,
    outputs: [],
    details: null,
    raw_unknown: null,
    fetched_at: fetchedAt,
  };
}
