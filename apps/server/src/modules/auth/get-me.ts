import { eq } from "drizzle-orm";
import type { Deps } from "../../deps.js";
import { users } from "../../db/users.js";
import type { Credential } from "../../http/credential.js";
import { ApiError } from "../../http/errors.js";
import { presentUser, type UserView } from "./present-user.js";

export interface Me {
  user: UserView;
  auth:
    | { type: "session" }
    | { type: "api_key"; key: { id: string; name: string; environment: string; permissions: string[]; business_id: string } };
}

export async function getMe(deps: Deps, credential: Credential): Promise<Me> {
  const [user] = await deps.db.select().from(users).where(eq(users.id, credential.userId));
  if (!user) throw new ApiError("UNAUTHORIZED", "the user of this credential no longer exists");
  if (credential.type === "session") return { user: presentUser(user), auth: { type: "session" } };
  return {
    user: presentUser(user),
    auth: {
      type: "api_key",
      key: {
        id: credential.keyId,
        name: credential.keyName,
        environment: credential.environment,
        permissions: credential.permissions,
        business_id: credential.businessId,
      },
    },
  };
}
