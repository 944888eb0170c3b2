import { Type } from "@sinclair/typebox";

export const EVENT_KINDS = [
  "dte.status_changed",
  "dte.acceptance_changed",
  "numeration.low",
  "numeration.expiring",
  "certificate.expiring",
  "dte.delivered",
  "dte.delivery_failed",
  "dte.receiver_answered",
  "received.created",
  "received.deadline_near",
  "received.decided",
] as const;

export const Delivery = Type.Object({
  attempt: Type.Integer(),
  at: Type.Union([Type.String(), Type.Null()]),
  status_code: Type.Union([Type.Integer(), Type.Null()]),
  ok: Type.Boolean(),
});

export const Event = Type.Object({
  id: Type.String(),
  event: Type.String(),
  environment: Type.String({ enum: ["test", "live"] }),
  business_id: Type.String(),
  created_at: Type.String(),
  data: Type.Record(Type.String(), Type.Unknown()),
  deliveries: Type.Array(Delivery),
});

export const Resend = Type.Object({ id: Type.String(), attempt: Type.Integer(), due_at: Type.String() });
