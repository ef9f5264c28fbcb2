import type { Language } from "../../schemas/language.ts";
import { PAGE_CSS } from "./consoleHeaders.ts";

/** The console's server-made HTML: the app's shell and the pages shown without a session. */
type Lang = Language;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** French when the browser prefers it (Accept-Language, read by the front door), else English. */
export function pageLanguage(info: { language?: Language }): Lang {
  return info.language ?? "en";
}

const TEXT = {
  en: {
    title: "Workspace console",
    signInTitle: "Sign in to the workspace console",
    howTo: "The console opens with a one-time sign-in link. Ask the operator of this Broker Directory to run:",
    validity: "The link works once, for 15 minutes. If you just opened one, <a href=\"/console/keys\">open the console</a>.",
    badLinkTitle: "This sign-in link does not work",
    badLink: "It is unknown, already used or expired (links work once, for 15 minutes). Ask for a new one:",
    tooManyTitle: "Too many sign-in attempts",
    tooMany: "Too many sign-in links that did not work came from your address. Wait {minutes} minutes, then try a new link.",
    noScript: "The console needs JavaScript.",
    confirmTitle: "Sign in to the workspace console",
    confirm: "Press the button to sign in. The link works once: it is spent when you press it, not when it is opened.",
    confirmButton: "Sign in",
    crossSiteTitle: "Sign-in refused",
    crossSite: "A sign-in must be confirmed from this site's own page. Open the link again and press its button.",
  },
  fr: {
    title: "Console de l’espace de travail",
    signInTitle: "Connexion à la console de l’espace de travail",
    howTo: "La console s’ouvre avec un lien de connexion à usage unique. Demandez à l’exploitant de ce répertoire de lancer :",
    validity: "Le lien fonctionne une fois, pendant 15 minutes. Si vous venez d’en ouvrir un, <a href=\"/console/keys\">ouvrez la console</a>.",
    badLinkTitle: "Ce lien de connexion ne fonctionne pas",
    badLink: "Il est inconnu, déjà utilisé ou expiré (un lien fonctionne une fois, pendant 15 minutes). Demandez-en un nouveau :",
    tooManyTitle: "Trop de tentatives de connexion",
    tooMany: "Trop de liens invalides sont venus de votre adresse. Attendez {minutes} minutes, puis essayez un nouveau lien.",
    noScript: "La console a besoin de JavaScript.",
    confirmTitle: "Connexion à la console de l’espace de travail",
    confirm: "Appuyez sur le bouton pour vous connecter. Le lien fonctionne une fois : il est utilisé quand vous appuyez, pas quand il est ouvert.",
    confirmButton: "Se connecter",
    crossSiteTitle: "Connexion refusée",
    crossSite: "Une connexion doit être confirmée depuis la page de ce site. Ouvrez de nouveau le lien et appuyez sur son bouton.",
  },
} as const;

const COMMAND = "<p><code>broker-directory console-link --workspace NAME</code></p>";

function page(lang: Lang, title: string, body: string): string {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>${PAGE_CSS}</style></head><body><main>${body}</main></body></html>`;
}

export function signInHelpPage(lang: Lang): string {
  const t = TEXT[lang];
  return page(lang, t.signInTitle, `<h1>${t.signInTitle}</h1><p>${t.howTo}</p>${COMMAND}<p>${t.validity}</p>`);
}

export function badLinkPage(lang: Lang): string {
  const t = TEXT[lang];
  return page(lang, t.badLinkTitle, `<h1>${t.badLinkTitle}</h1><p>${t.badLink}</p>${COMMAND}`);
}

/** What opening a link shows: one button that POSTs its token from this origin (nothing is spent before). */
export function signInButtonPage(lang: Lang, token: string): string {
  const t = TEXT[lang];
  return page(
    lang,
    t.confirmTitle,
    `<h1>${t.confirmTitle}</h1><p>${t.confirm}</p><form method="post" action="/console/sign-in"><input type="hidden" name="token" value="${escapeHtml(token)}"><button type="submit">${t.confirmButton}</button></form>`,
  );
}

export function crossSitePage(lang: Lang): string {
  const t = TEXT[lang];
  return page(lang, t.crossSiteTitle, `<h1>${t.crossSiteTitle}</h1><p>${t.crossSite}</p>`);
}

export function tooManyAttemptsPage(lang: Lang, retryAfterSeconds: number): string {
  const t = TEXT[lang];
  return page(lang, t.tooManyTitle, `<h1>${t.tooManyTitle}</h1><p>${t.tooMany.replace("{minutes}", String(Math.ceil(retryAfterSeconds / 60)))}</p>`);
}

/** The app: one element, one script from this origin, nothing inline. */
export function shellPage(lang: Lang): string {
  const t = TEXT[lang];
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(t.title)}</title><script src="/console/console.js" defer></script></head>
<body><bd-console><noscript>${t.noScript}</noscript></bd-console></body></html>`;
}

export function htmlResponse(html: string, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(html, { status, headers: { "Content-Type": "text/html; charset=utf-8", ...headers } });
}
