import type { UserRow } from "../../db/users.js";

export interface UserView {
  id: string;
  email: string;
  nombre: string;
  created_at: string;
}

export function presentUser(row: UserRow): UserView {
  return { id: row.id, email: row.email, nombre: row.nombre, created_at: row.createdAt.toISOString() };
}
