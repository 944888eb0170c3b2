/** Entry point: restore the session from the refresh token, define the routes, render. */
import type { Session } from "@timbre/sdk";
import { ApiError, api } from "./lib/api.js";
import { h, replace } from "./lib/dom.js";
import { describeError } from "./lib/messages.js";
import { hasRefreshToken, onSessionEnd, refreshSession, user } from "./lib/session.js";
import { renderChrome } from "./layout.js";
import { defineRoutes, navigate, render, currentPath, type Route, type PageContext } from "./router.js";
import { state } from "./state.js";
import { notice } from "./ui/components.js";
import { routes } from "./routes.js";

let firstRender = true;

async function renderRoute(route: Route, ctx: PageContext): Promise<void> {
  const signedIn = user() !== null;
  if (!route.public && !signedIn) {
    const next = currentPath() === "/" ? "" : `?next=${encodeURIComponent(currentPath() + location.search)}`;
    navigate(`/ingresar${next}`, true);
    return;
  }
  if (route.public && signedIn) {
    navigate("/", true);
    return;
  }
  renderChrome(signedIn);
  const main = document.getElementById("main");
  if (main && !main.querySelector(".view")) replace(main, h("p", { class: "loading", role: "status" }, "Cargando…"));
  try {
    await route.render(ctx);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return; // the session listener sends the user to sign in
    replace(ctx.main, h("h1", { tabindex: "-1" }, "No se pudo cargar la página"), notice("error", describeError(error)));
  }
}

function afterRender(view: HTMLElement): void {
  const heading = view.querySelector("h1");
  document.title = heading ? `${heading.textContent} · Timbre` : "Timbre";
  if (!firstRender) heading?.focus();
  firstRender = false;
}

async function boot(): Promise<void> {
  if (hasRefreshToken()) {
    const ok = await refreshSession(async (refresh_token) => api.anonymous<Session>("/auth/refresh", { refresh_token }));
    if (ok) await state.reloadBusinesses().catch(() => {});
  }
  defineRoutes(routes, renderRoute, afterRender);
  onSessionEnd((reason) => {
    state.reset();
    renderChrome(false);
    navigate(reason === "signout" ? "/ingresar" : "/ingresar?expirada=1", true);
  });
  state.onChange((change) => {
    if (change === "selection") void render();
    else renderChrome(user() !== null);
  });
  await render();
}

void boot();
