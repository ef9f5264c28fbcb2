import { PAGE_CSS } from "./consoleHeaders.ts";

/** The console's server-made HTML: the app's shell and the pages shown without a session. */
type Lang = "en" | "fr";

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** French when the browser asks for it first, else English. */
export function pageLanguage(request: Request): Lang {
  const first = request.headers.get("accept-language")?.split(",")[0]?.trim().toLowerCase() ?? "";
  return first.startsWith("fr") ? "fr" : "en";
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
