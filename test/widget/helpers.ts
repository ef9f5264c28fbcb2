/**
 * Test helpers for the widget: a fetch double at the network boundary (the only thing
 * these tests mock) and small waits for Lit's asynchronous rendering.
 */
import type { LitElement } from "lit";

export interface Call {
  url: URL;
  method: string;
  headers: Headers;
  body: unknown;
}

type Reply = Response | ((call: Call) => Response | Promise<Response>);

export const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });

/** Replaces globalThis.fetch with a queue of replies; records every call. */
export function mockFetch(...replies: Reply[]) {
  const calls: Call[] = [];
  const original = globalThis.fetch;
  const fake = async (input: string | URL | Request, init: RequestInit = {}) => {
    const call: Call = {
      url: new URL(String(input)),
      method: init.method ?? "GET",
      headers: new Headers(init.headers),
      body: typeof init.body === "string" ? JSON.parse(init.body) : undefined,
    };
    calls.push(call);
    const reply = replies.length > 1 ? replies.shift() : replies[0];
    if (!reply) throw new TypeError("no reply queued");
    return typeof reply === "function" ? reply(call) : reply.clone();
  };
  globalThis.fetch = Object.assign(fake, { preconnect: () => {} }) as typeof fetch;
  return { calls, restore: () => (globalThis.fetch = original) };
}

/** Creates an element from HTML in the document body and waits for its first render. */
export async function mount<T extends LitElement>(markup: string): Promise<T> {
  document.body.innerHTML = markup;
  const element = document.body.firstElementChild as T;
  await element.updateComplete;
  return element;
}

/** Waits until `check` returns truthy (async fetch + re-render), failing after `ms`. */
export async function until<T>(check: () => T | undefined | null | false, ms = 2000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() - start > ms) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

export const shadow = (element: Element) => element.shadowRoot as ShadowRoot;
export const text = (element: Element) => (shadow(element).textContent ?? "").replace(/\s+/g, " ");

/** Sets a control's value and fires input + change as a user would. */
export function fill(root: ShadowRoot, name: string, value: string): void {
  const control = root.querySelector<HTMLInputElement | HTMLSelectElement>(`[name="${name}"]`);
  if (!control) throw new Error(`no control named ${name}`);
  control.value = value;
  control.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
  control.dispatchEvent(new Event("change", { bubbles: true, composed: true }));
}

/** Types into a text control: sets the value and fires input only (no change: the visitor is still in the field). */
export function typeInto(root: ShadowRoot, name: string, value: string): void {
  const control = root.querySelector<HTMLInputElement>(`[name="${name}"]`);
  if (!control) throw new Error(`no control named ${name}`);
  control.value = value;
  control.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
}

/** The query string of a recorded call as a plain object. */
export const params = (call: Call | undefined) => Object.fromEntries(call?.url.searchParams ?? []);
