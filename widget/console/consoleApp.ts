import { css, html, LitElement, nothing, type PropertyDeclarations } from "lit";
import { ConsoleApi, type Session } from "./api.ts";
import { defineOnce, type AnnounceEvent, type NavigateEvent } from "./consoleElement.ts";
import { consoleTranslator, toLang, type Lang } from "./i18n.ts";
import { appStyles, pageStyles } from "./styles.ts";
import "./keysPage.ts";
import "./leadsPage.ts";
import "./leadPage.ts";
import "./usagePage.ts";
import "./webhooksPage.ts";
import "./directoryPage.ts";
import "./brokerPage.ts";
import "./reviewsPage.ts";
import "./importPage.ts";

type Theme = "light" | "dark" | "auto";
type Route =
  | { page: "keys" }
  | { page: "leads" }
  | { page: "lead"; id: string }
  | { page: "usage" }
  | { page: "webhooks" }
  | { page: "directory" }
  | { page: "broker"; id: string }
  | { page: "reviews" }
  | { page: "import" };

/** The operator's pages: shown only to a workspace whose session edits the directory (its API refuses the others too). */
const OPERATOR_PAGES: ReadonlySet<Route["page"]> = new Set(["directory", "broker", "reviews", "import"]);

const STORED_LANG = "bd-console-lang";
const STORED_THEME = "bd-console-theme";

export function routeOf(pathname: string): Route {
  const lead = /^\/console\/leads\/([^/]+)\/?$/.exec(pathname);
  if (lead) return { page: "lead", id: decodeURIComponent(lead[1]!) };
  if (pathname.startsWith("/console/leads")) return { page: "leads" };
  if (pathname.startsWith("/console/usage")) return { page: "usage" };
  if (pathname.startsWith("/console/webhooks")) return { page: "webhooks" };
  const broker = /^\/console\/directory\/([^/]+)\/?$/.exec(pathname);
  if (broker) return { page: "broker", id: decodeURIComponent(broker[1]!) };
  if (pathname.startsWith("/console/directory")) return { page: "directory" };
  if (pathname.startsWith("/console/reviews")) return { page: "reviews" };
  if (pathname.startsWith("/console/import")) return { page: "import" };
  return { page: "keys" };
}

/**
 * <bd-console>: the workspace console's frame. Reads the session (workspace, CSRF token),
 * shows the navigation, language and theme switches and Sign out, routes /console/* paths to
 * their page element, and owns the one polite live region every page announces through.
 */
export class BdConsole extends LitElement {
  static override properties: PropertyDeclarations = {
    theme: { reflect: true },
    language: { state: true },
    session: { state: true },
    failed: { state: true },
    route: { state: true },
    announcement: { state: true },
  };
  static override styles = [
    appStyles,
    pageStyles,
    css`
      header { display: flex; flex-wrap: wrap; gap: 0.75rem 1.5rem; align-items: center; padding: 0.75rem 1.25rem; background: var(--_bg); border-bottom: 1px solid var(--_border); }
      header .brand { font-weight: 700; margin: 0; font-size: 1.1rem; }
      nav ul { display: flex; flex-wrap: wrap; gap: 0.25rem; list-style: none; margin: 0; padding: 0; }
      nav a { display: inline-block; padding: 0.4rem 0.75rem; border-radius: 8px; text-decoration: none; font-weight: 600; }
      nav a[aria-current="page"] { background: var(--_accent); color: var(--_accentFg); }
      .tools { display: flex; gap: 0.75rem; align-items: center; margin-inline-start: auto; flex-wrap: wrap; }
      .tools label { font-size: 0.875rem; display: flex; gap: 0.35rem; align-items: center; }
      main { padding: 1.25rem; max-width: 72rem; margin: 0 auto; }
      /*
       * Phones: the header takes two short lines, not a third of the screen. The navigation
       * scrolls sideways within itself when its entries outgrow the width (never the page), and
       * the switches' words are kept for screen readers only (each select keeps its name).
       */
      @media (max-width: 40rem) {
        header { padding: 0.4rem 0.75rem; gap: 0.3rem 0.5rem; }
        header .brand { font-size: 0.95rem; flex: 1 1 auto; min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
        nav { order: 3; flex: 1 1 100%; min-width: 0; }
        nav ul { overflow-x: auto; scrollbar-width: thin; }
        nav li { flex: none; }
        nav a { padding: 0.3rem 0.55rem; }
        .tools { gap: 0.35rem; margin-inline-start: 0; flex-wrap: nowrap; }
        .tools .word { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
        .tools select, .tools button { min-height: 34px; padding-block: 0.15rem; font-size: 0.875rem; }
        main { padding: 0.75rem; }
      }
    `,
  ];

  declare theme: Theme;
  declare language: Lang;
  declare session: Session | undefined;
  declare failed: string | undefined;
  declare route: Route;
  declare announcement: string;
  private api: ConsoleApi | undefined;
  private readonly onPopState = () => (this.route = routeOf(location.pathname));

  constructor() {
    super();
    this.theme = (localStorage.getItem(STORED_THEME) as Theme | null) ?? "auto";
    this.language = toLang(localStorage.getItem(STORED_LANG) ?? navigator.language);
    this.route = routeOf(location.pathname);
    this.announcement = "";
  }

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener("popstate", this.onPopState);
    this.addEventListener("bd-announce", (event) => this.announce((event as AnnounceEvent).message));
    this.addEventListener("bd-navigate", (event) => this.go((event as NavigateEvent).path));
    document.documentElement.lang = this.language;
    // The page itself has no stylesheet (CSP: nothing inline); its margin is set through the CSSOM.
    document.body.style.margin = "0";
    void this.loadSession();
  }

  override disconnectedCallback(): void {
    window.removeEventListener("popstate", this.onPopState);
    super.disconnectedCallback();
  }

  private async loadSession(): Promise<void> {
    try {
      this.session = await ConsoleApi.session();
      this.api = new ConsoleApi(this.session.csrfToken);
    } catch {
      this.failed = "signedOut";
    }
  }

  private get t() {
    return consoleTranslator(this.language);
  }

  private announce(message: string): void {
    // Clearing first makes a repeated identical message count as a change.
    this.announcement = "";
    requestAnimationFrame(() => (this.announcement = message));
  }

  private go(path: string): void {
    history.pushState(null, "", path);
    this.route = routeOf(path);
    // Land keyboard and screen-reader users on the new page's heading.
    void this.updateComplete.then(() => {
      const page = this.renderRoot.querySelector("main > *");
      void (page as LitElement | null)?.updateComplete?.then(() => page?.shadowRoot?.querySelector<HTMLElement>("h1")?.focus());
    });
  }

  private setLanguage(lang: Lang): void {
    this.language = lang;
    localStorage.setItem(STORED_LANG, lang);
    document.documentElement.lang = lang;
  }

  private setTheme(theme: Theme): void {
    this.theme = theme;
    localStorage.setItem(STORED_THEME, theme);
  }

  private async signOut(): Promise<void> {
    try {
      await this.api?.send("POST", "/console/api/sign-out");
    } finally {
      location.assign("/console");
    }
  }

  override render() {
    const t = this.t;
    document.title = t("title");
    const live = html`<div class="sr-only" role="status" aria-live="polite" aria-atomic="true">${this.announcement}</div>`;
    if (this.failed) return html`${live}<main><div class="notice problem" role="alert"><p>${t("signedOut")}</p></div></main>`;
    if (!this.session || !this.api) return html`${live}<main><p>${t("loading")}</p></main>`;
    const navItem = (path: string, page: Route["page"], label: string) => {
      const current = this.route.page === page || (page === "leads" && this.route.page === "lead") || (page === "directory" && this.route.page === "broker");
      return html`<li><a href=${path} aria-current=${current ? "page" : nothing} @click=${(e: MouseEvent) => {
        e.preventDefault();
        this.go(path);
      }}>${label}</a></li>`;
    };
    return html`${live}
      <header>
        <p class="brand">${t("title")} <span class="muted">· ${t("workspace", { name: this.session.workspace.name })}</span></p>
        <nav aria-label=${t("nav")}>
          <ul>
            ${navItem("/console/keys", "keys", t("nav.keys"))} ${navItem("/console/leads", "leads", t("nav.leads"))}
            ${navItem("/console/usage", "usage", t("nav.usage"))} ${navItem("/console/webhooks", "webhooks", t("nav.webhooks"))}
            ${this.session.editsDirectory
              ? html`${navItem("/console/directory", "directory", t("nav.directory"))} ${navItem("/console/reviews", "reviews", t("nav.reviews"))}
                ${navItem("/console/import", "import", t("nav.import"))}`
              : nothing}
          </ul>
        </nav>
        <div class="tools">
          <label><span class="word">${t("language")}</span>
            <select @change=${(e: Event) => this.setLanguage((e.target as HTMLSelectElement).value as Lang)}>
              <option value="en" ?selected=${this.language === "en"} lang="en">English</option>
              <option value="fr" ?selected=${this.language === "fr"} lang="fr">Français</option>
            </select>
          </label>
          <label><span class="word">${t("theme")}</span>
            <select @change=${(e: Event) => this.setTheme((e.target as HTMLSelectElement).value as Theme)}>
              ${(["auto", "light", "dark"] as const).map((v) => html`<option value=${v} ?selected=${this.theme === v}>${t(`theme.${v}`)}</option>`)}
            </select>
          </label>
          <button class="secondary" @click=${() => this.signOut()}>${t("signOut")}</button>
        </div>
      </header>
      <main>${this.renderPage()}</main>`;
  }

  private renderPage() {
    const { api, language: lang } = this;
    if (OPERATOR_PAGES.has(this.route.page) && !this.session?.editsDirectory) return html`<div class="notice problem" role="alert"><p>${this.t("notOperator")}</p></div>`;
    switch (this.route.page) {
      case "keys":
        return html`<bd-keys-page .api=${api} lang=${lang}></bd-keys-page>`;
      case "leads":
        return html`<bd-leads-page .api=${api} lang=${lang}></bd-leads-page>`;
      case "lead":
        return html`<bd-lead-page .api=${api} lang=${lang} lead-id=${this.route.id}></bd-lead-page>`;
      case "usage":
        return html`<bd-usage-page .api=${api} lang=${lang}></bd-usage-page>`;
      case "webhooks":
        return html`<bd-webhooks-page .api=${api} lang=${lang}></bd-webhooks-page>`;
      case "directory":
        return html`<bd-directory-page .api=${api} lang=${lang}></bd-directory-page>`;
      case "broker":
        return html`<bd-broker-page .api=${api} lang=${lang} broker-id=${this.route.id}></bd-broker-page>`;
      case "reviews":
        return html`<bd-reviews-page .api=${api} lang=${lang}></bd-reviews-page>`;
      case "import":
        return html`<bd-import-page .api=${api} lang=${lang}></bd-import-page>`;
    }
  }
}

defineOnce("bd-console", BdConsole);
