import { html, nothing } from "lit";
import { PROVINCES } from "../provinces.ts";
import type { OfficeDraft } from "./brokerFormData.ts";
import type { ConsoleKey, Lang, T } from "./i18n.ts";

interface OfficeFieldsetOptions {
  t: T;
  lang: Lang;
  office: OfficeDraft;
  index: number;
  count: number;
  /** The form's field errors: an office's under `locations.N.field`. */
  errors: Record<string, string>;
  changed: (office: OfficeDraft) => void;
  remove: () => void;
}

/**
 * One office of the broker form: address, city, province, postal code, its own phone, its
 * coordinates, whether it is the primary one (a radio: one primary a broker) and Remove. A new
 * postal code clears the coordinates, so the server places the office by the code's area
 * instead of keeping the old place.
 */
export function officeFieldset({ t, lang, office, index, count, errors, changed, remove }: OfficeFieldsetOptions) {
  const id = (name: string) => `o-${index}-${name}`;
  const error = (name: string) => errors[`locations.${index}.${name}`];
  const field = (name: "address" | "city" | "postalCode" | "phone", label: ConsoleKey) => {
    const problem = error(name);
    return html`<div class="field">
      <label for=${id(name)}>${t(label)}</label>
      <input id=${id(name)} .value=${office[name] ?? ""} aria-invalid=${problem ? "true" : nothing} aria-describedby=${problem ? `e-${id(name)}` : nothing}
        @input=${(e: Event) => {
          const value = (e.target as HTMLInputElement).value;
          if (name === "postalCode") changed({ ...office, postalCode: value, latitude: null, longitude: null });
          else changed({ ...office, [name]: name === "phone" && value.trim() === "" ? null : value });
        }} />
      ${problem ? html`<p class="error" id="e-${id(name)}">${problem}</p>` : nothing}
    </div>`;
  };
  const coordinate = (name: "latitude" | "longitude", label: ConsoleKey) => html`<div class="field">
    <label for=${id(name)}>${t(label)}</label>
    <input id=${id(name)} inputmode="decimal" .value=${office[name] === null ? "" : String(office[name])} aria-invalid=${error(name) ? "true" : nothing}
      @change=${(e: Event) => {
        const text = (e.target as HTMLInputElement).value.trim();
        changed({ ...office, [name]: text === "" || !Number.isFinite(Number(text)) ? null : Number(text) });
      }} />
    ${error(name) ? html`<p class="error">${error(name)}</p>` : nothing}
  </div>`;
  const provinceError = error("province");
  return html`<fieldset>
    <legend>${t("broker.office", { n: index + 1 })}</legend>
    <div class="grid">
      ${field("address", "field.address")} ${field("city", "field.city")}
      <div class="field">
        <label for=${id("province")}>${t("field.province")}</label>
        <select id=${id("province")} aria-invalid=${provinceError ? "true" : nothing} @change=${(e: Event) => changed({ ...office, province: (e.target as HTMLSelectElement).value as OfficeDraft["province"] })}>
          ${PROVINCES.map((p) => html`<option value=${p.code} ?selected=${office.province === p.code}>${lang === "fr" ? p.fr : p.en}</option>`)}
        </select>
        ${provinceError ? html`<p class="error">${provinceError}</p>` : nothing}
      </div>
      ${field("postalCode", "field.postalCode")} ${field("phone", "field.officePhone")}
      ${coordinate("latitude", "field.latitude")} ${coordinate("longitude", "field.longitude")}
    </div>
    <div class="row">
      <label class="check"><input type="radio" name="primary" .checked=${office.isPrimary} @change=${() => changed({ ...office, isPrimary: true })} /> ${t("broker.primary")}</label>
      ${count > 1 ? html`<button type="button" class="danger" @click=${remove}>${t("broker.removeOffice", { n: index + 1 })}</button>` : nothing}
    </div>
    ${error("isPrimary") ? html`<p class="error">${error("isPrimary")}</p>` : nothing}
  </fieldset>`;
}
