import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../support/server.ts";

/**
 * Errors in French when the request asks (Accept-Language, q-values honoured): `error` changes,
 * `code`, the status, `issues` paths and the headers do not. The widget sends its language the
 * same way (test/widget/errors.test.ts).
 */
let server: TestServer;
let key: string;
let embedKey: string;
beforeAll(async () => {
  server = await startTestServer();
  key = await server.createKey({ workspace: "langue" });
  embedKey = await server.createKey({ workspace: "langue", origins: ["https://partenaire.example"], scopes: ["brokers:read", "reviews:read", "quotes:write", "leads:write"] });
});
afterAll(() => server.close());

type ErrorBody = { error: string; code: string; requestId: string; docs: string; issues?: { path: string; message: string }[] };

async function refusal(path: string, init: RequestInit & { key?: string }): Promise<{ status: number; body: ErrorBody; headers: Headers }> {
  const res = await server.request(path, init);
  return { status: res.status, body: (await res.json()) as ErrorBody, headers: res.headers };
}

test("the same refusal in English and in French: only `error` changes", async () => {
  const english = await refusal("/api/v1/brokers/no-such-broker", { key });
  const french = await refusal("/api/v1/brokers/no-such-broker", { key, headers: { "Accept-Language": "fr-CA,fr;q=0.9,en;q=0.8" } });
  expect(english.body.error).toContain("No published broker has the slug");
  expect(french.body.error).toBe("Aucun courtier publié ne porte cet identifiant. Utilisez le slug ou l’id d’un résultat de recherche.");
  expect(french.status).toBe(english.status);
  expect(french.body.code).toBe(english.body.code);
  expect(french.body.docs).toBe(english.body.docs);
});

test("q-values decide, not the order: English first by weight stays English; French at q=0 is never chosen", async () => {
  const asks = async (language: string) => (await refusal("/api/v1/brokers", { headers: { "Accept-Language": language } })).body.error;
  expect(await asks("fr")).toStartWith("Clé d’API manquante");
  expect(await asks("en;q=0.4, fr;q=0.8")).toStartWith("Clé d’API manquante");
  expect(await asks("fr;q=0.1, en")).toStartWith("Missing API key");
  expect(await asks("de, fr;q=0")).toStartWith("Missing API key");
  expect(await asks("*")).toStartWith("Missing API key");
});

test("a widget's invalid lead in French: the fields are named, issues keep their paths, the code is the same", async () => {
  const lead = { name: "Marie Tremblay", email: "pas-un-courriel", phone: "123", insuranceType: "Auto", notes: "" };
  const { status, body } = await refusal("/api/v1/embed/leads", {
    key: embedKey,
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: "https://partenaire.example", "Accept-Language": "fr" },
    body: JSON.stringify(lead),
  });
  expect(status).toBe(422);
  expect(body.code).toBe("invalid_parameter");
  const paths = body.issues!.map((i) => i.path);
  expect(paths).toEqual(expect.arrayContaining(["email", "phone"]));
  expect(body.error).toStartWith("Certains champs sont invalides : ");
  for (const path of paths) expect(body.error).toContain(path);
});

test("rate limited in French says how long to wait, as Retry-After does", async () => {
  const once = await server.createKey({ workspace: "langue-limite", rateLimitPerMinute: 1 });
  await server.request("/api/v1/brokers?limit=1", { key: once });
  const { status, body, headers } = await refusal("/api/v1/brokers?limit=1", { key: once, headers: { "Accept-Language": "fr" } });
  expect(status).toBe(429);
  expect(body.code).toBe("rate_limited");
  expect(body.error).toBe(`Limite de requêtes par minute de cette clé atteinte. Réessayez dans ${headers.get("retry-after")} s.`);
});

test("not found on the front door, in French", async () => {
  const { status, body } = await refusal("/nulle-part", { headers: { "Accept-Language": "fr" } });
  expect(status).toBe(404);
  expect(body).toMatchObject({ code: "not_found", error: expect.stringContaining("Cette adresse n’existe pas") });
});

test("the console's pages read the same parser: a browser preferring English by weight gets English", async () => {
  const page = async (language: string) => (await server.request("/console", { headers: { "Accept-Language": language } })).text();
  expect(await page("fr-CA")).toContain("Connexion à la console");
  expect(await page("fr;q=0.1, en")).toContain("Sign in to the workspace console");
});
