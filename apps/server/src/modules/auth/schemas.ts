import { Type } from "@sinclair/typebox";

export const EMAIL_PATTERN = "^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$";

export const RegisterBody = Type.Object({
  email: Type.String({ pattern: EMAIL_PATTERN, maxLength: 254 }),
  password: Type.String({ minLength: 10, maxLength: 256 }),
  nombre: Type.String({ minLength: 1, maxLength: 200 }),
}, { additionalProperties: false });

export const LoginBody = Type.Object({
  email: Type.String({ maxLength: 254 }),
  password: Type.String({ maxLength: 256 }),
}, { additionalProperties: false });

export const RefreshBody = Type.Object({ refresh_token: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false });

export const User = Type.Object({
  id: Type.String(),
  email: Type.String(),
  nombre: Type.String(),
  created_at: Type.String(),
});

export const Session = Type.Object({
  user: User,
  access_token: Type.String(),
  refresh_token: Type.String(),
  token_type: Type.Literal("Bearer"),
  expires_in: Type.Integer(),
});

export const Me = Type.Object({
  user: User,
  auth: Type.Object({
    type: Type.String(),
    key: Type.Optional(
      Type.Object({
        id: Type.String(),
        name: Type.String(),
        environment: Type.String({ enum: ["test", "live"] }),
        permissions: Type.Array(Type.String()),
        business_id: Type.String(),
      }),
    ),
  }),
});
