/** customElements.define throws on a second definition (a script included twice): skip it. */
export function defineOnce(name: string, element: CustomElementConstructor): void {
  if (!customElements.get(name)) customElements.define(name, element);
}
