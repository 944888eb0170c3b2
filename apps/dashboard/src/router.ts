/**
 * History-API router under `/dashboard`. Pages are async functions rendering into the main region; each may
 * return a cleanup function, run when the user leaves (that is where one-time secrets are wiped).
 */
export const BASE = "/dashboard";

export interface PageContext {
  params: Record<string, string>;
  query: URLSearchParams;
  main: HTMLElement;
  /** Registers work to do when leaving the page. */
  onLeave(cleanup: () => void): void;
}

export interface Route {
  path: string;
  public?: boolean;
  render(ctx: PageContext): Promise<void> | void;
}

interface Compiled extends Route {
  regex: RegExp;
  keys: string[];
}

let routes: Compiled[] = [];
let cleanups: Array<() => void> = [];
let seq = 0;
let renderHook: (route: Route, ctx: PageContext) => Promise<void> = async () => {};

let afterRender: (view: HTMLElement) => void = () => {};

export function defineRoutes(list: Route[], hook: (route: Route, ctx: PageContext) => Promise<void>, after: (view: HTMLElement) => void): void {
  afterRender = after;
  routes = list.map((r) => {
    const keys: string[] = [];
    const pattern = r.path.replace(/:([a-z_]+)/gi, (_, key: string) => {
      keys.push(key);
      return "([^/]+)";
    });
    return { ...r, keys, regex: new RegExp(`^${pattern}/?$`) };
  });
  renderHook = hook;
  window.addEventListener("popstate", () => void render());
  document.addEventListener("click", (event) => {
    const a = event.target instanceof Element ? event.target.closest("a[data-link]") : null;
    if (!(a instanceof HTMLAnchorElement) || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    navigate(a.getAttribute("href") ?? BASE);
  });
}

export function navigate(href: string, replace = false): void {
  const target = href.startsWith(BASE) ? href : `${BASE}${href.startsWith("/") ? href : `/${href}`}`;
  if (replace) history.replaceState(null, "", target);
  else history.pushState(null, "", target);
  void render();
}

/** Path inside the dashboard, e.g. `/empresas/biz_…`. */
export function currentPath(): string {
  const p = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) : location.pathname;
  return p === "" ? "/" : p;
}

export function leave(): void {
  for (const cleanup of cleanups.splice(0)) cleanup();
}

export async function render(): Promise<void> {
  leave();
  const path = currentPath();
  for (const route of routes) {
    const m = route.regex.exec(path);
    if (!m) continue;
    const params: Record<string, string> = {};
    route.keys.forEach((k, i) => (params[k] = decodeURIComponent(m[i + 1] ?? "")));
    const main = document.getElementById("main");
    if (!main) return;
    // Each render draws into its own detached view; only the latest one is attached (no interleaving).
    const mine = ++seq;
    const view = document.createElement("div");
    view.className = "view";
    await renderHook(route, { params, query: new URLSearchParams(location.search), main: view, onLeave: (c) => cleanups.push(c) });
    if (mine !== seq) return;
    main.replaceChildren(view);
    afterRender(view);
    return;
  }
  navigate("/", true);
}
