import { html, nothing } from "lit";

/**
 * One labelled form control. The label, hint and error live in the same shadow root as the
 * control (a <label for> cannot reach across shadow boundaries), and the hint and error are
 * tied to it with aria-describedby; aria-invalid marks a field with an error. Options take
 * `.selected` (the property): once a visitor has picked an option the browser ignores later
 * changes of the `selected` attribute, and a select whose options change (the directory's
 * sort menu) must still show the value the element chose.
 */
export interface FieldView {
  name: string;
  label: string;
  value: string;
  hint?: string;
  error?: string;
  control: "text" | "select" | "textarea";
  options?: readonly { value: string; label: string; disabled?: boolean }[];
  inputmode?: "numeric" | "email" | "tel" | "text";
  type?: "text" | "email" | "tel" | "search";
  autocomplete?: string;
}

export const fieldId = (name: string) => `f-${name.replace(/[^\w-]/g, "-")}`;

export function renderField(view: FieldView) {
  const id = fieldId(view.name);
  const describedBy = [view.hint ? `${id}-hint` : "", view.error ? `${id}-error` : ""].filter(Boolean).join(" ");
  const common = {
    id,
    describedBy: describedBy || nothing,
    invalid: view.error ? "true" : nothing,
  };
  return html`<div class="field" part="field">
    <label for=${id} part="label">${view.label}</label>
    ${view.control === "select"
      ? html`<select id=${common.id} name=${view.name} part="select" aria-describedby=${common.describedBy} aria-invalid=${common.invalid}>
          ${(view.options ?? []).map((o) => html`<option value=${o.value} .selected=${o.value === view.value} ?disabled=${o.disabled === true}>${o.label}</option>`)}
        </select>`
      : view.control === "textarea"
        ? html`<textarea id=${common.id} name=${view.name} part="input" rows="3" aria-describedby=${common.describedBy} aria-invalid=${common.invalid}
            .value=${view.value}></textarea>`
        : html`<input id=${common.id} name=${view.name} part="input" type=${view.type ?? "text"} inputmode=${view.inputmode ?? nothing}
            autocomplete=${view.autocomplete ?? nothing} aria-describedby=${common.describedBy} aria-invalid=${common.invalid}
            .value=${view.value} />`}
    ${view.hint ? html`<span id="${id}-hint" class="hint">${view.hint}</span>` : nothing}
    ${view.error ? html`<p id="${id}-error" class="error" part="error">${view.error}</p>` : nothing}
  </div>`;
}

/** Reads `name` and `value` from the control an input/change event came from. */
export function changedControl(event: Event): { name: string; value: string } {
  const target = event.target as HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
  return { name: target.name, value: target.value };
}

/** Moves focus to the first invalid control so keyboard and screen-reader users land on it. */
export function focusFirstInvalid(root: ParentNode): void {
  root.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
}
