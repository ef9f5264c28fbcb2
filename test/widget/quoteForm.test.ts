import { useDom } from "./setup-dom.ts";
import { afterEach, describe, expect, test } from "bun:test";
import type { BrokerQuoteForm } from "../../widget/quoteForm.ts";
import type { BrokerLeadForm } from "../../widget/leadForm.ts";
import { fill, json, mockFetch, mount, shadow, text, until } from "./helpers.ts";

useDom();

let restore = () => {};
afterEach(() => restore());

const quoteAnswer = {
  data: {
    quoteId: "q_123",
    insuranceType: "Auto",
    quotes: [
      { carrier: "Northbridge", carrierSlug: "northbridge", monthlyPremium: 123.45, annualPremium: 1481.4, coverage: "Standard", deductible: 1000 },
      { carrier: "Aviva", carrierSlug: "aviva", monthlyPremium: 140, annualPremium: 1680, coverage: "Comprehensive", deductible: 500 },
    ],
    expiresAt: "2026-04-01T12:00:00.000Z",
  },
};

const mountForm = (attrs = "") =>
  mount<BrokerQuoteForm>(`<broker-quote-form api-key="brk_q" api-base="https://d.example" ${attrs}></broker-quote-form>`);

async function fillAuto(el: BrokerQuoteForm) {
  const root = shadow(el);
  fill(root, "province", "ON");
  fill(root, "postalCode", "m5v3l9");
  fill(root, "details.vehicleYear", "2020");
  fill(root, "details.vehicleMake", "Toyota");
  fill(root, "details.vehicleModel", "RAV4");
  fill(root, "details.driverAge", "35");
  fill(root, "details.cleanRecord", "yes");
  fill(root, "details.annualKm", "15 000");
  await el.updateComplete;
}

const submit = (el: BrokerQuoteForm) => shadow(el).querySelector("form")!.dispatchEvent(new Event("submit", { cancelable: true }));

describe("<broker-quote-form>", () => {
  test("shows every Auto detail field, each with a label in the same shadow root", async () => {
    const el = await mountForm();
    const root = shadow(el);
    const names = [...root.querySelectorAll("input, select")].map((c) => c.getAttribute("name"));
    expect(names).toEqual([
      "insuranceType", "province", "postalCode",
      "details.vehicleYear", "details.vehicleMake", "details.vehicleModel", "details.driverAge",
      "details.cleanRecord", "details.yearsLicensed", "details.annualKm", "details.deductible",
    ]);
    for (const control of root.querySelectorAll("input, select")) {
      const label = root.querySelector(`label[for="${control.id}"]`);
      expect(label?.textContent?.trim()).toBeTruthy();
    }
    expect(text(el)).toContain("Kilometres driven a year (optional)");
  });

  test("the fields switch with the insurance type", async () => {
    const el = await mountForm(`insurance-type="home"`);
    let names = [...shadow(el).querySelectorAll("[name^='details.']")].map((c) => c.getAttribute("name"));
    expect(names).toEqual(["details.propertyType", "details.yearBuilt", "details.replacementCost", "details.claimsLast5Years", "details.deductible"]);
    fill(shadow(el), "insuranceType", "Travel");
    await el.updateComplete;
    names = [...shadow(el).querySelectorAll("[name^='details.']")].map((c) => c.getAttribute("name"));
    expect(names).toEqual(["details.tripDays", "details.travellerAges", "details.destination"]);
  });

  test("client-side validation: messages tied with aria-describedby, focus on the first, no request", async () => {
    const fetch = mockFetch(json(201, quoteAnswer));
    restore = fetch.restore;
    const el = await mountForm(`province="QC"`);
    const root = shadow(el);
    fill(root, "postalCode", "M5V 3L9");
    fill(root, "details.vehicleYear", "1900");
    fill(root, "details.driverAge", "abc");
    submit(el);
    await until(() => root.querySelector("[aria-invalid=true]"));
    await el.updateComplete;
    expect(fetch.calls).toHaveLength(0);
    const errorOf = (name: string) => {
      const control = root.querySelector(`[name="${name}"]`)!;
      expect(control.getAttribute("aria-invalid")).toBe("true");
      const id = control.getAttribute("aria-describedby")!.split(" ").find((i) => i.endsWith("-error"))!;
      return root.getElementById(id)?.textContent;
    };
    expect(errorOf("postalCode")).toBe("This postal code is not in Quebec.");
    expect(errorOf("details.vehicleYear")).toBe("Enter 1950 or more.");
    expect(errorOf("details.driverAge")).toBe("Enter a whole number.");
    expect(errorOf("details.vehicleMake")).toBe("This field is required.");
    expect(errorOf("details.cleanRecord")).toBe("This field is required.");
    expect(root.querySelector("[name=yearsLicensed]")).toBeNull();
    expect(root.activeElement?.getAttribute("name")).toBe("postalCode");
    await until(() => root.querySelector("[aria-live]")?.textContent?.includes("Please correct 6 fields."));
  });

  test("a bad postal code format", async () => {
    restore = mockFetch(json(201, quoteAnswer)).restore;
    const el = await mountForm(`province="ON"`);
    fill(shadow(el), "postalCode", "12345");
    submit(el);
    await until(() => text(el).includes("Enter a postal code like A1A 1A1."));
  });

  test("a valid form posts the exact body, shows formatted quotes and fires broker-widget:quote", async () => {
    const fetch = mockFetch(json(201, quoteAnswer));
    restore = fetch.restore;
    const el = await mountForm();
    await fillAuto(el);
    const events: CustomEvent[] = [];
    document.addEventListener("broker-widget:quote", (e) => events.push(e as CustomEvent), { once: true });
    submit(el);
    await until(() => shadow(el).querySelector("[part=results]"));
    const call = fetch.calls[0]!;
    expect(call.url.href).toBe("https://d.example/api/v1/embed/quotes");
    expect(call.method).toBe("POST");
    expect(call.headers.get("Authorization")).toBe("Bearer brk_q");
    expect(call.headers.get("Content-Type")).toBe("application/json");
    expect(call.body).toEqual({
      insuranceType: "Auto",
      province: "ON",
      postalCode: "M5V 3L9",
      details: { vehicleYear: 2020, vehicleMake: "Toyota", vehicleModel: "RAV4", driverAge: 35, cleanRecord: true, annualKm: 15000 },
    });
    const t = text(el);
    expect(t).toContain("Northbridge");
    expect(t).toContain("$123.45/month");
    expect(t).toContain("$1,481.40 a year");
    expect(t).toContain("Standard");
    expect(t).toContain("$1,000");
    expect(t).toContain("Quotes valid until April 1, 2026");
    expect(shadow(el).querySelectorAll("[part=quote]")).toHaveLength(2);
    expect(events).toHaveLength(1);
    expect(events[0]!.composed).toBe(true);
    expect(events[0]!.detail).toMatchObject({ quoteId: "q_123", insuranceType: "Auto", quotes: quoteAnswer.data.quotes, province: "ON" });
    await until(() => shadow(el).querySelector("[aria-live]")?.textContent === "2 quotes found.");
    expect(shadow(el).activeElement?.id).toBe("results");
  });

  test("server 422 issues appear next to the field their path names", async () => {
    restore = mockFetch(
      json(422, {
        error: "Invalid quote request",
        issues: [
          { path: "details.driverAge", message: "must be at least 16 (driver's age in years)" },
          { path: "details.unknownThing", message: "is not allowed" },
        ],
      }),
    ).restore;
    const el = await mountForm();
    await fillAuto(el);
    submit(el);
    const control = await until(() => shadow(el).querySelector('[name="details.driverAge"][aria-invalid=true]'));
    const errorId = control.getAttribute("aria-describedby")!;
    expect(shadow(el).getElementById(errorId)?.textContent).toBe("must be at least 16 (driver's age in years)");
    expect(text(el)).toContain("details.unknownThing: is not allowed");
    // The visitor's input is kept.
    expect(shadow(el).querySelector<HTMLInputElement>('[name="details.vehicleMake"]')!.value).toBe("Toyota");
  });

  test("French labels and Canadian-French money", async () => {
    restore = mockFetch(json(201, quoteAnswer)).restore;
    const el = await mountForm(`lang="fr"`);
    expect(text(el)).toContain("Année du véhicule");
    expect(text(el)).toContain("Obtenir mes soumissions");
    await fillAuto(el);
    submit(el);
    await until(() => shadow(el).querySelector("[part=results]"));
    const t = text(el).replace(/[\u00a0\u202f]/g, " ");
    expect(t).toContain("123,45 $/mois");
    expect(t).toContain("1 481,40 $ par année");
    expect(t).toContain("1 avril 2026");
  });

  test("the lead step: select event, prefilled note, POST /embed/leads, broker-widget:lead", async () => {
    const lead = { id: "l_1", name: "Ada Lovelace", email: "ada@example.com", phone: "+14165550123", insuranceType: "Auto", status: "new", createdAt: "2026-03-01T00:00:00.000Z" };
    const fetch = mockFetch(json(201, quoteAnswer), json(201, { data: lead }));
    restore = fetch.restore;
    const el = await mountForm(`broker="maple-leaf"`);
    await fillAuto(el);
    submit(el);
    await until(() => shadow(el).querySelector("[part=results]"));

    const selects: CustomEvent[] = [];
    document.addEventListener("broker-widget:select", (e) => selects.push(e as CustomEvent), { once: true });
    shadow(el).querySelector<HTMLButtonElement>("[part=quote] button")!.click();
    expect(selects[0]!.detail).toMatchObject({ kind: "quote", quoteId: "q_123", quote: { carrier: "Northbridge" } });

    const form = await until(() => shadow(el).querySelector<BrokerLeadForm>("broker-lead-form"));
    await form.updateComplete;
    const root = shadow(form);
    expect(root.querySelector<HTMLTextAreaElement>("textarea")!.value).toBe("Interested in Northbridge: $123.45/month.");

    // Validation first.
    root.querySelector("form")!.dispatchEvent(new Event("submit", { cancelable: true }));
    await until(() => root.querySelector('[name=email][aria-invalid=true]'));
    expect(fetch.calls).toHaveLength(1);

    fill(root, "name", "Ada Lovelace");
    fill(root, "email", "ada@example.com");
    fill(root, "phone", "416 555 0123");
    const leads: CustomEvent[] = [];
    document.addEventListener("broker-widget:lead", (e) => leads.push(e as CustomEvent), { once: true });
    root.querySelector("form")!.dispatchEvent(new Event("submit", { cancelable: true }));
    await until(() => root.querySelector("[part=lead-done]"));
    const call = fetch.calls[1]!;
    expect(call.url.href).toBe("https://d.example/api/v1/embed/leads");
    expect(call.method).toBe("POST");
    expect(call.headers.get("Authorization")).toBe("Bearer brk_q");
    expect(call.body).toEqual({
      name: "Ada Lovelace",
      email: "ada@example.com",
      phone: "416 555 0123",
      insuranceType: "Auto",
      notes: "Interested in Northbridge: $123.45/month.",
      brokerSlug: "maple-leaf",
      quoteId: "q_123",
    });
    expect(leads).toHaveLength(1);
    expect(leads[0]!.detail).toMatchObject({ lead, quoteId: "q_123", brokerSlug: "maple-leaf" });
    expect(text(form)).toContain("Thank you! A broker will contact you soon.");
  });

  test("a host that cancels broker-widget:select keeps the lead form closed", async () => {
    restore = mockFetch(json(201, quoteAnswer)).restore;
    const el = await mountForm();
    await fillAuto(el);
    submit(el);
    await until(() => shadow(el).querySelector("[part=results]"));
    document.addEventListener("broker-widget:select", (e) => e.preventDefault(), { once: true });
    shadow(el).querySelector<HTMLButtonElement>("[part=quote] button")!.click();
    await el.updateComplete;
    expect(shadow(el).querySelector("broker-lead-form")).toBeNull();
  });

  test("lead 422 issues land next to the lead fields", async () => {
    restore = mockFetch(json(422, { error: "Invalid lead", issues: [{ path: "phone", message: "must be a valid phone number" }] })).restore;
    const form = await mount<BrokerLeadForm>(`<broker-lead-form api-key="k" api-base="https://d.example" insurance-type="home"></broker-lead-form>`);
    const root = shadow(form);
    fill(root, "name", "Ada");
    fill(root, "email", "ada@example.com");
    fill(root, "phone", "+1 999 999 9999");
    root.querySelector("form")!.dispatchEvent(new Event("submit", { cancelable: true }));
    const phone = await until(() => root.querySelector('[name=phone][aria-invalid=true]'));
    expect(root.getElementById(phone.getAttribute("aria-describedby")!)?.textContent).toBe("must be a valid phone number");
  });

  test("every quote it submits carries an Idempotency-Key: the same on a retry of the same request, a new one for a new request", async () => {
    const fetch = mockFetch(() => Promise.reject(new TypeError("network down")), json(201, quoteAnswer), json(201, quoteAnswer));
    restore = fetch.restore;
    const el = await mountForm();
    await fillAuto(el);
    submit(el);
    await until(() => shadow(el).querySelector("[part=problem]"));
    // The visitor presses again after the network failed: the same request, so the same key.
    submit(el);
    await until(() => shadow(el).querySelector("[part=results]"));
    const [failed, retried] = fetch.calls;
    expect(failed!.headers.get("Idempotency-Key")).toMatch(/^[0-9a-f]{32}$/);
    expect(retried!.headers.get("Idempotency-Key")).toBe(failed!.headers.get("Idempotency-Key"));
    // After a success, another submission is a new quote: a new key.
    (el as unknown as { phase: string }).phase = "form";
    await el.updateComplete;
    submit(el);
    await until(() => fetch.calls.length === 3);
    expect(fetch.calls[2]!.headers.get("Idempotency-Key")).not.toBe(failed!.headers.get("Idempotency-Key"));
  });

  test("the lead form sends an Idempotency-Key too, kept while the lead is not acknowledged", async () => {
    const fetch = mockFetch(json(503, { error: "busy", code: "database_busy" }), json(201, { data: { id: "ld_1" } }));
    restore = fetch.restore;
    const form = await mount<BrokerLeadForm>(`<broker-lead-form api-key="k" api-base="https://d.example" insurance-type="home"></broker-lead-form>`);
    const root = shadow(form);
    fill(root, "name", "Ada");
    fill(root, "email", "ada@example.com");
    fill(root, "phone", "416 555 0199");
    const send = () => root.querySelector("form")!.dispatchEvent(new Event("submit", { cancelable: true }));
    send();
    await until(() => fetch.calls.length === 1 && !(form as unknown as { sending: boolean }).sending);
    send();
    await until(() => fetch.calls.length === 2);
    const keys = fetch.calls.map((c) => c.headers.get("Idempotency-Key"));
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(keys[1]).toBe(keys[0]);
  });

  test("401 on submit shows the site-owner message above the form", async () => {
    restore = mockFetch(json(401, { error: "Invalid API key" })).restore;
    const el = await mountForm();
    await fillAuto(el);
    submit(el);
    await until(() => shadow(el).querySelector("[part=problem]"));
    expect(text(el)).toContain("check the data-key attribute");
    expect(shadow(el).querySelector("form")).not.toBeNull();
  });
});
