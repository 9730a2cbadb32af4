import { z } from "zod";
import { DateTimeSchema, TextSchema, UuidSchema } from "./primitives.js";

/**
 * Who holds the tokens calls are made with: the spec's ApiToken, ServiceAccount and OrgMember, as
 * far as the exporter reads them. Unknown fields are allowed (the API adds fields over time).
 */

/** components.schemas.ApiToken: `token` is obfuscated to its last 4 characters in responses. */
export const ApiTokenSchema = z.looseObject({
  id: UuidSchema,
  user_id: UuidSchema,
  label: TextSchema.nullable().optional(),
  token: TextSchema,
  is_valid: z.boolean(),
  created_at: DateTimeSchema,
  updated_at: DateTimeSchema,
});
export type ApiToken = z.infer<typeof ApiTokenSchema>;

/** components.schemas.ServiceAccount: a token of an org rather than of a user. */
export const ServiceAccountSchema = z.looseObject({
  id: UuidSchema,
  org_id: UuidSchema,
  label: TextSchema.nullable().optional(),
  token: TextSchema,
  is_valid: z.boolean(),
  created_at: DateTimeSchema,
  updated_at: DateTimeSchema,
});
export type ServiceAccount = z.infer<typeof ServiceAccountSchema>;

/** components.schemas.OrgMember: required are id, role, image and the times; names are optional. */
export const OrgMemberSchema = z.looseObject({
  id: UuidSchema,
  name: TextSchema.optional(),
  first_name: TextSchema.optional(),
  last_name: TextSchema.optional(),
  email: TextSchema.optional(),
  role: TextSchema,
  created_at: DateTimeSchema,
  updated_at: DateTimeSchema,
});
export type OrgMember = z.infer<typeof OrgMemberSchema>;
