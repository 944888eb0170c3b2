/**
 * The permissions an API key can be granted (API.md §2): the server's own list (`@timbre/core/permissions`, bundled
 * into the published SDK), typed by the server's OpenAPI document so the two cannot disagree.
 */
import { PERMISSIONS as SERVER_PERMISSIONS } from "@timbre/core/permissions";
import type { Permission } from "./types.js";

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
// Fails to compile when the list and the document's `permissions` enum differ.
const agree: Same<(typeof SERVER_PERMISSIONS)[number], Exclude<Permission, "*">> = true;
void agree;

/** Every permission (without the `*` shorthand), in the order the server lists them. */
export const PERMISSIONS: ReadonlyArray<Exclude<Permission, "*">> = SERVER_PERMISSIONS;
