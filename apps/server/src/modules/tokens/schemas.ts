import { Type } from "@sinclair/typebox";
import { PERMISSIONS } from "../../http/credential.js";

export const PermissionSchema = Type.Union([...PERMISSIONS.map((p) => Type.Literal(p)), Type.Literal("*")]);

export const CreateKeyBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  permissions: Type.Array(PermissionSchema, { minItems: 1, maxItems: 9 }),
  environment: Type.Optional(Type.Union([Type.Literal("test"), Type.Literal("live")])),
  business_id: Type.Optional(Type.String({ maxLength: 64 })),
}, { additionalProperties: false });

export const Key = Type.Object({
  id: Type.String(),
  name: Type.String(),
  prefix: Type.String(),
  last4: Type.String(),
  environment: Type.String({ enum: ["test", "live"] }),
  permissions: Type.Array(Type.String()),
  business_id: Type.String(),
  created_at: Type.String(),
  last_used_at: Type.Union([Type.String(), Type.Null()]),
  revoked_at: Type.Union([Type.String(), Type.Null()]),
});

export const CreatedKey = Type.Composite([Key, Type.Object({ key: Type.String() })]);

export const Revoked = Type.Object({ id: Type.String(), revoked: Type.Literal(true), revoked_at: Type.String() });
